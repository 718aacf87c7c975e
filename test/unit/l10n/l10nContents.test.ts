// The webview's bundle crosses from the host as an attribute of #app: it is checked like a protocol message.
import * as assert from 'node:assert/strict';
import { L10N_ATTRIBUTE, l10nAttributeValue, parseL10nContents } from '../../../src/l10nContents';
import { MALFORMED_L10N_CONTENTS, VALID_L10N_CONTENTS } from '../../support/webviewMessages';

/** What the browser does to the attribute's text before the webview reads it. */
const unescapeAttribute = (text: string): string =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('l10n: the bundle handed to the webview', () => {
  it('is the data-l10n attribute', () => assert.equal(L10N_ATTRIBUTE, 'data-l10n'));

  for (const [label, bundle] of Object.entries(VALID_L10N_CONTENTS)) {
    it(`accepts ${label}, through the attribute's escaping, unchanged`, () => {
      const attribute = l10nAttributeValue(bundle);
      assert.doesNotMatch(attribute, /["<>]/, 'nothing that could close the attribute or open a tag');
      assert.deepEqual({ ...parseL10nContents(unescapeAttribute(attribute)) }, bundle);
    });
  }

  it('reads no bundle (English) from an empty table, a missing attribute or an empty one', () => {
    assert.equal(parseL10nContents(unescapeAttribute(l10nAttributeValue(undefined))), undefined);
    assert.equal(parseL10nContents(null), undefined);
    assert.equal(parseL10nContents(''), undefined);
  });

  for (const { label, text } of MALFORMED_L10N_CONTENTS) {
    it(`refuses ${label}`, () => assert.equal(parseL10nContents(text), undefined));
  }

  it('keeps a "__proto__" message as a message, never as the table\'s prototype', () => {
    const table = parseL10nContents('{"__proto__": "x", "Send": "发送"}');
    assert.equal(Object.getPrototypeOf(table), null);
    assert.equal(table?.['Send'], '发送');
  });
});
