import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BENCH_END,
  BENCH_START,
  performanceDoc,
  publishesTable,
  replaceBenchTable,
  updatePerformanceDoc,
} from '../../bench/performanceDoc';

describe('bench table in docs/performance.md', () => {
  const doc = ['# Performance', '', 'Before.', BENCH_START, '| old |', BENCH_END, '', 'After.', ''].join(
    '\n',
  );

  it('replaces only the text between the markers', () => {
    const updated = replaceBenchTable(doc, '| new |\n');
    assert.equal(updated, doc.replace('| old |', '| new |'));
    assert.equal(replaceBenchTable(updated, '| newer |'), doc.replace('| old |', '| newer |'));
  });

  it('refuses a document without exactly one pair of markers in order', () => {
    assert.throws(() => replaceBenchTable('# no markers', 'x'), /bench:start/);
    assert.throws(() => replaceBenchTable(`${BENCH_END}\n${BENCH_START}`, 'x'), /bench:start/);
    assert.throws(() => replaceBenchTable(`${doc}\n${BENCH_START}\n${BENCH_END}`, 'x'), /bench:start/);
  });

  it('is published by a full run of every case only, never by --quick (npm test), --only, --send-path or --cpu-prof', () => {
    assert.equal(publishesTable({ quick: false, only: [] }), true);
    assert.equal(publishesTable({ quick: true, only: [] }), false);
    assert.equal(publishesTable({ quick: false, only: [2] }), false);
    const context = { sendPathOnly: false, cpuProfile: false };
    assert.equal(publishesTable({ quick: false, only: [], context }), true);
    assert.equal(
      publishesTable({ quick: false, only: [], context: { ...context, sendPathOnly: true } }),
      false,
    );
    assert.equal(
      publishesTable({ quick: false, only: [], context: { ...context, cpuProfile: true } }),
      false,
    );
  });

  it('writes the file in place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-perfdoc-'));
    try {
      const file = join(dir, 'performance.md');
      writeFileSync(file, doc);
      updatePerformanceDoc('| written |', file);
      assert.equal(readFileSync(file, 'utf8'), doc.replace('| old |', '| written |'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds one pair of markers in the real docs/performance.md, around a results table', () => {
    const real = readFileSync(performanceDoc, 'utf8');
    const table = real.slice(real.indexOf(BENCH_START), real.indexOf(BENCH_END));
    assert.doesNotThrow(() => replaceBenchTable(real, '| x |'));
    assert.match(table, /\| Case \| Figure \| Ours \| Baseline \| Ratio \| Budget \| Result \|/);
  });
});
