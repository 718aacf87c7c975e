import * as assert from 'node:assert/strict';
import { validateCustomHeaders } from '../../../src/gateway/customHeaders';

describe('gateway/customHeaders: modelGateway.network.headers', () => {
  it('passes ordinary headers through', () => {
    const { headers, warnings } = validateCustomHeaders({ 'X-Team': 'tools', 'Ocp-Apim-Trace': 'true' });
    assert.deepEqual(headers, { 'X-Team': 'tools', 'Ocp-Apim-Trace': 'true' });
    assert.deepEqual(warnings, []);
  });

  for (const name of ['Authorization', 'content-type', 'Content-Length', 'HOST']) {
    it(`refuses the reserved header ${name} with a warning naming it`, () => {
      const { headers, warnings } = validateCustomHeaders({ [name]: 'value-xyz', 'X-Ok': '1' });
      assert.deepEqual(headers, { 'X-Ok': '1' });
      assert.equal(warnings.length, 1);
      assert.ok(warnings[0].includes(`"${name}"`), warnings[0]);
      assert.ok(!warnings[0].includes('value-xyz'));
    });
  }

  for (const value of ['Bearer abc.def.ghi', 'sk-live-1234567890abcdef']) {
    it(`sends but warns about a secret-looking value (${value.slice(0, 6)}…), never quoting it`, () => {
      const { headers, warnings } = validateCustomHeaders({ 'X-Api-Key': value });
      assert.equal(headers['X-Api-Key'], value);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /"X-Api-Key".*SecretStorage.*Set API Key/);
      assert.ok(!warnings[0].includes(value));
    });
  }

  it('refuses bad names, non-string values, line breaks and case-insensitive duplicates', () => {
    const { headers, warnings } = validateCustomHeaders({
      'Bad Name': 'x',
      'X-Num': 5,
      'X-Inject': 'a\r\nEvil: 1',
      'X-Dup': 'first',
      'x-dup': 'second',
    });
    assert.deepEqual(headers, { 'X-Dup': 'first' });
    assert.equal(warnings.length, 4);
    for (const name of ['Bad Name', 'X-Num', 'X-Inject', 'x-dup'])
      assert.ok(
        warnings.some((w) => w.includes(`"${name}"`)),
        name,
      );
  });

  it('ignores a value that is not an object, with a warning', () => {
    assert.equal(validateCustomHeaders(['X: 1']).warnings.length, 1);
    assert.deepEqual(validateCustomHeaders(undefined), { headers: {}, warnings: [] });
  });
});
