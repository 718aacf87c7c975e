import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { Checkpoints, parseCheckpoints, serializeCheckpoints } from '../../../src/agent/checkpoint';

type Fs = Map<string, Uint8Array>;
type Op = { kind: 'write'; path: string; bytes: Uint8Array } | { kind: 'delete'; path: string };

const paths = ['a.ts', 'b.txt', 'src/c.ts', '.env'];
/** Bytes with line endings of every kind, an astral character's UTF-8 and invalid UTF-8. */
const bytes = fc
  .array(
    fc.oneof(
      fc.constantFrom([13, 10], [10], [13], [0xf0, 0x9f, 0x98, 0x80], [0xff, 0xfe], [0]),
      fc.array(fc.integer({ min: 32, max: 126 }), { maxLength: 6 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => new Uint8Array(parts.flat()));
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('write' as const), path: fc.constantFrom(...paths), bytes }),
    weight: 3,
  },
  fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...paths) }),
);
const turns = fc.array(fc.array(op, { maxLength: 6 }), { minLength: 1, maxLength: 6 });
const initialFs = fc
  .subarray(paths)
  .chain((present) => fc.tuple(...present.map((p) => bytes.map((b) => [p, b] as const))))
  .map((entries) => new Map<string, Uint8Array>(entries));

const copyFs = (fs: Fs): Fs => new Map([...fs].map(([p, b]) => [p, b.slice()]));

/** Plays the ops of a turn as the host would: record the file before its change, then change it. */
function playTurn(fs: Fs, checkpoints: Checkpoints, turnId: string, ops: Op[]): void {
  checkpoints.beginTurn(turnId);
  for (const o of ops) {
    const current = fs.get(o.path);
    if (o.kind === 'delete' && current === undefined) continue;
    if (checkpoints.needsRecord(turnId, o.path)) checkpoints.record(turnId, o.path, current ?? 'absent');
    if (o.kind === 'delete') fs.delete(o.path);
    else fs.set(o.path, o.bytes.slice());
  }
}

function restore(fs: Fs, checkpoints: Checkpoints, turnId: string): void {
  for (const step of checkpoints.restorePlan(turnId)) {
    if (step.action === 'delete') fs.delete(step.path);
    else fs.set(step.path, step.bytes);
  }
}

function assertSameFs(actual: Fs, expected: Fs): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
  for (const [path, b] of expected)
    assert.ok(Buffer.from(actual.get(path) as Uint8Array).equals(Buffer.from(b)), path);
}

describe('checkpoints: restore', () => {
  it('puts every file back byte for byte as it was before the chosen turn (through JSON or not)', () => {
    fc.assert(
      fc.property(initialFs, turns, fc.nat(), fc.boolean(), (start, plays, pick, throughJson) => {
        const fs = copyFs(start);
        let checkpoints = new Checkpoints();
        const before: Fs[] = [];
        plays.forEach((ops, i) => {
          before.push(copyFs(fs));
          playTurn(fs, checkpoints, `t${i}`, ops);
        });
        if (throughJson) {
          const parsed = parseCheckpoints(serializeCheckpoints(checkpoints));
          assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
          checkpoints = parsed.value;
        }
        const n = pick % plays.length;
        restore(fs, checkpoints, `t${n}`);
        assertSameFs(fs, before[n]);
      }),
      { numRuns: 300 },
    );
  });

  it('restores again after a restore dropped the later turns and new turns ran', () => {
    fc.assert(
      fc.property(initialFs, turns, turns, fc.nat(), fc.nat(), (start, first, second, pick1, pick2) => {
        const fs = copyFs(start);
        const checkpoints = new Checkpoints();
        const before: Fs[] = [];
        first.forEach((ops, i) => {
          before.push(copyFs(fs));
          playTurn(fs, checkpoints, `t${i}`, ops);
        });
        const n = pick1 % first.length;
        restore(fs, checkpoints, `t${n}`);
        checkpoints.dropFrom(`t${n}`);
        before.splice(n);
        assert.deepEqual(
          checkpoints.turnIds(),
          before.map((_, i) => `t${i}`),
        );
        second.forEach((ops, i) => {
          before.push(copyFs(fs));
          playTurn(fs, checkpoints, `u${i}`, ops);
        });
        const ids = checkpoints.turnIds();
        const m = pick2 % ids.length;
        restore(fs, checkpoints, ids[m]);
        assertSameFs(fs, before[m]);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the first record of a turn only, and copies the bytes it is given', () => {
    const checkpoints = new Checkpoints();
    checkpoints.beginTurn('t1');
    const original = new TextEncoder().encode('a\r\nb\r\n');
    assert.equal(checkpoints.record('t1', 'a.ts', original), true);
    assert.equal(checkpoints.needsRecord('t1', 'a.ts'), false);
    assert.equal(checkpoints.record('t1', 'a.ts', new TextEncoder().encode('changed')), false);
    original[0] = 0x7a;
    assert.deepEqual(checkpoints.restorePlan('t1'), [
      { path: 'a.ts', action: 'write', bytes: new TextEncoder().encode('a\r\nb\r\n') },
    ]);
    checkpoints.record('t1', 'new.ts', 'absent');
    assert.deepEqual(checkpoints.changedPaths('t1'), ['a.ts', 'new.ts']);
    assert.deepEqual(checkpoints.restorePlan('t1')[1], { path: 'new.ts', action: 'delete' });
  });

  it('refuses an unknown turn and turns out of order', () => {
    const checkpoints = new Checkpoints();
    checkpoints.beginTurn('t1');
    checkpoints.beginTurn('t1');
    checkpoints.beginTurn('t2');
    assert.throws(() => checkpoints.beginTurn('t1'), /earlier checkpoint/);
    assert.throws(() => checkpoints.restorePlan('t9'), /no checkpoint for turn t9/);
    assert.throws(() => checkpoints.record('t9', 'a', 'absent'), /no checkpoint/);
  });
});

describe('checkpoints: stored form', () => {
  const sample = (): string => {
    const checkpoints = new Checkpoints();
    checkpoints.beginTurn('t1');
    checkpoints.record('t1', 'a.ts', new Uint8Array([104, 105, 13, 10]));
    checkpoints.record('t1', 'b.ts', 'absent');
    return serializeCheckpoints(checkpoints);
  };

  it('round-trips, with bytes in base64', () => {
    const text = sample();
    assert.deepEqual(JSON.parse(text), {
      version: 1,
      turns: [
        {
          turnId: 't1',
          files: [
            { path: 'a.ts', kind: 'bytes', bytes: 'aGkNCg==' },
            { path: 'b.ts', kind: 'absent' },
          ],
        },
      ],
    });
    const parsed = parseCheckpoints(text);
    assert.ok(parsed.ok);
    assert.equal(serializeCheckpoints(parsed.value), text);
  });

  it('refuses malformed records with the reason', () => {
    const edit = (
      change: (root: { version: number; turns: Array<Record<string, unknown>> }) => void,
    ): string => {
      const root = JSON.parse(sample());
      change(root);
      return JSON.stringify(root);
    };
    const cases: Array<[string, RegExp]> = [
      ['{"version":1,"turns":[', /not valid JSON/],
      ['[]', /not a JSON object/],
      ['{"turns":[]}', /no format version/],
      [edit((r) => (r.version = 0)), /unknown format version 0/],
      [
        edit((r) => ((r.turns[0].files as Array<Record<string, unknown>>)[0].bytes = 'aGk=!')),
        /turns\.0\.files\.0\.bytes: not base64/,
      ],
      [
        edit((r) => ((r.turns[0].files as Array<Record<string, unknown>>)[1].path = 'a.ts')),
        /recorded twice/,
      ],
      [edit((r) => r.turns.push({ ...r.turns[0] })), /a turn is recorded twice/],
      [edit((r) => delete r.turns[0].turnId), /turns\.0\.turnId: missing/],
      [
        edit((r) => ((r.turns[0].files as Array<Record<string, unknown>>)[0].kind = 'link')),
        /turns\.0\.files\.0\.kind/,
      ],
    ];
    for (const [text, reason] of cases) {
      const parsed = parseCheckpoints(text);
      assert.ok(!parsed.ok, text);
      assert.match(parsed.reason, reason);
    }
    const newer = parseCheckpoints(edit((r) => (r.version = 2)));
    assert.ok(!newer.ok && newer.newer === true);
  });
});
