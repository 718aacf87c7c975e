import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { type ReadStamp, SETTLED_MS, stillCurrent } from '../../../../src/chat/context/unchangedRead';

const stamp = fc.record({
  dev: fc.nat(),
  ino: fc.nat(),
  size: fc.nat(),
  mtimeMs: fc.integer({ min: 0, max: 2e12 }),
  ctimeMs: fc.integer({ min: 0, max: 2e12 }),
});
const fields: Array<keyof ReadStamp> = ['dev', 'ino', 'size', 'mtimeMs', 'ctimeMs'];

describe('stillCurrent (an attachment read again at Enter)', () => {
  it('holds for the same stamp when the last change settled before the read began', () => {
    fc.assert(
      fc.property(stamp, fc.nat({ max: 1e9 }), (s, later) => {
        const readStartedAt = Math.max(s.mtimeMs, s.ctimeMs) + SETTLED_MS + later;
        assert.equal(stillCurrent({ stamp: s, readStartedAt, value: 1 }, { ...s }), true);
      }),
    );
  });

  it('fails when any field of the stamp differs (another file, an edit, a rename, a restored mtime)', () => {
    fc.assert(
      fc.property(stamp, fc.constantFrom(...fields), fc.integer({ min: 1, max: 1e6 }), (s, field, delta) => {
        const readStartedAt = Math.max(s.mtimeMs, s.ctimeMs) + SETTLED_MS * 10;
        const now = { ...s, [field]: s[field] + delta };
        assert.equal(stillCurrent({ stamp: s, readStartedAt, value: 1 }, now), false);
      }),
    );
  });

  it('fails for a file changed less than SETTLED_MS before the read began: a change after it could keep the stamp', () => {
    fc.assert(
      fc.property(stamp, fc.integer({ min: 0, max: SETTLED_MS - 1 }), (s, gap) => {
        const readStartedAt = Math.max(s.mtimeMs, s.ctimeMs) + gap;
        assert.equal(stillCurrent({ stamp: s, readStartedAt, value: 1 }, { ...s }), false);
      }),
    );
    assert.equal(stillCurrent(undefined, { dev: 1, ino: 1, size: 1, mtimeMs: 0, ctimeMs: 0 }), false);
  });
});
