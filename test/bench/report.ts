/** Benchmark results: rows, the console table, test-results/bench.json and the Markdown table for docs/performance.md. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

/** pass/miss: a budget was checked; info: a figure without a budget; skipped/error: not measured. */
export type Status = 'pass' | 'miss' | 'info' | 'skipped' | 'error';

/** One line of the table. */
export interface Row {
  /** Case heading, e.g. `1. Client overhead`. */
  case: string;
  figure: string;
  ours: string;
  baseline: string;
  ratio: string;
  budget: string;
  status: Status;
  /** Why skipped, what was estimated, or what explains a miss. */
  note?: string;
  /** Raw numbers behind the row, for bench.json. */
  data?: Record<string, unknown>;
}

/** Everything one run produced. */
export interface BenchRun {
  mode: 'quick' | 'full';
  startedAt: string;
  durationS: number;
  command: string;
  machine: { node: string; platform: string; cpus: string; cores: number; memoryGiB: number };
  rows: Row[];
}

/** Formats milliseconds with a precision that suits their size. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${Math.round(ms)} ms`;
}

/** Formats a byte count as KB or MB (1 KB = 1000 B, as size budgets are usually read). */
export function fmtBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '–';
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** Formats a ratio as `1.02×`. */
export function fmtRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  return ratio >= 100 ? `${Math.round(ratio)}×` : `${ratio.toFixed(2)}×`;
}

/** pass when the check holds, miss otherwise; a NaN never passes. */
export function verdict(ok: boolean): Status {
  return ok ? 'pass' : 'miss';
}

/** A row for a case that could not run, with the reason. */
export function skippedRow(caseName: string, figure: string, budget: string, reason: string): Row {
  return {
    case: caseName,
    figure,
    ours: '–',
    baseline: '–',
    ratio: '–',
    budget,
    status: 'skipped',
    note: reason,
  };
}

/** A row for a case that threw. */
export function errorRow(caseName: string, error: unknown): Row {
  const message = error instanceof Error ? error.message : String(error);
  return {
    case: caseName,
    figure: '(case failed)',
    ours: '–',
    baseline: '–',
    ratio: '–',
    budget: '–',
    status: 'error',
    note: message.split('\n')[0].slice(0, 300),
  };
}

const MARK: Record<Status, string> = {
  pass: 'pass',
  miss: 'MISS',
  info: 'info',
  skipped: 'SKIPPED',
  error: 'ERROR',
};
const HEAD = ['Case', 'Figure', 'Ours', 'Baseline', 'Ratio', 'Budget', 'Result'];

function cells(row: Row): string[] {
  return [row.case, row.figure, row.ours, row.baseline, row.ratio, row.budget, MARK[row.status]];
}

/** The plain-text table printed to stdout, followed by the notes. */
export function textTable(rows: Row[]): string {
  const table = [HEAD, ...rows.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...table.map((line) => line[i].length)));
  const line = (values: string[]): string => values.map((v, i) => v.padEnd(widths[i])).join(' │ ');
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  const out = [line(HEAD), rule, ...rows.map((row) => line(cells(row)))];
  const notes = rows.filter((row) => row.note);
  if (notes.length) out.push('', ...notes.map((row) => `• ${row.case} / ${row.figure}: ${row.note}`));
  return out.join('\n');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The Markdown table (and notes) for docs/performance.md. */
export function markdownTable(run: BenchRun): string {
  const out = [
    `Measured with \`${run.command}\` on ${run.startedAt.slice(0, 10)} (${run.machine.cpus}, ` +
      `${run.machine.cores} cores, Node ${run.machine.node}; ${run.mode} run, ${Math.round(run.durationS)} s).`,
    '',
    `| ${HEAD.join(' | ')} |`,
    `|${HEAD.map(() => '---').join('|')}|`,
    ...run.rows.map((row) => `| ${cells(row).map(escapeCell).join(' | ')} |`),
  ];
  const notes = run.rows.filter((row) => row.note);
  if (notes.length) {
    out.push('', 'Notes:', '');
    for (const row of notes) out.push(`- **${row.case} / ${row.figure}**: ${escapeCell(row.note ?? '')}`);
  }
  const open = run.rows.filter(
    (row) => row.status === 'miss' || row.status === 'skipped' || row.status === 'error',
  );
  if (open.length) {
    out.push('', 'Budgets missed or not measured in this run:', '');
    for (const row of open)
      out.push(`- ${row.case} / ${row.figure}: ${row.ours} (budget ${row.budget}) — ${MARK[row.status]}`);
  }
  return `${out.join('\n')}\n`;
}

/** Describes this machine for the record. */
export function machineInfo(): BenchRun['machine'] {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: list[0]?.model.trim() ?? 'unknown CPU',
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

/** Writes bench.json and bench.md into `dir`; returns their paths. */
export function writeResults(dir: string, run: BenchRun): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'bench.json');
  const md = join(dir, 'bench.md');
  writeFileSync(json, `${JSON.stringify(run, null, 2)}\n`);
  writeFileSync(md, markdownTable(run));
  return { json, md };
}
