/**
 * Extension-host entry of case 12 (loaded as extensionTestsPath in the real editor, in the generated workspace of
 * case 7): the agent's `search_text` tool, as the loop calls it, against the same ripgrep query run directly
 * (the same binary and arguments, its output read to the end and nothing else), then the longest extension-host
 * block while the tool runs. Writes its measurements to MODEL_GATEWAY_BENCH_RESULTS.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { findRipgrep } from '../../src/host/search/ripgrep';
import { ripgrepSearchArgs } from '../../src/host/agent/searchText';
import { readOnlyTools } from '../../src/host/agent/readOnlyTools';
import { SETTINGS } from '../../src/host/settings';
import { type ProbeResult, startProbe } from './probes';
import { interleave } from './stats';

/** What the bench asks the extension host to run. */
export interface AgentSearchJob {
  queries: string[];
  rounds: number;
}

/** One query's measurements. */
export interface QueryResults {
  query: string;
  ours: number[];
  direct: number[];
  /** Hits the tool counted, and the bytes ripgrep wrote when run directly. */
  hits: string;
  directBytes: number;
  probes: ProbeResult[];
}

/** Result file. */
export interface AgentSearchResults {
  node: string;
  rg: string;
  results: QueryResults[];
  error?: string;
}

/** ripgrep run directly with the tool's arguments: spawn, read stdout to the end, wait for the exit. */
function direct(rg: string, args: string[], cwd: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - started, bytes }));
  });
}

/** The test entry VS Code calls. */
export async function run(): Promise<void> {
  const out = process.env.MODEL_GATEWAY_BENCH_RESULTS ?? '';
  const job = JSON.parse(process.env.MODEL_GATEWAY_BENCH_JOB ?? '{}') as AgentSearchJob;
  const results: AgentSearchResults = { node: process.version, rg: '', results: [] };
  try {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('no workspace folder');
    const rg = findRipgrep({});
    if (!rg) throw new Error(`no ripgrep under ${vscode.env.appRoot}`);
    results.rg = rg;
    const tools = readOnlyTools({ apiKey: () => Promise.resolve(undefined) });
    const exclude = SETTINGS['context.exclude'].default;
    for (const query of job.queries) {
      const args = ripgrepSearchArgs(folder, { query, isRegex: false, exclude });
      let hits = '';
      let directBytes = 0;
      const timed = await interleave(
        job.rounds,
        2,
        async () => {
          const started = performance.now();
          const result = await tools.search_text({ query }, new AbortController().signal);
          if (result.isError) throw new Error(result.content);
          hits = result.content.split('\n')[0];
          return performance.now() - started;
        },
        async () => {
          const { ms, bytes } = await direct(rg, args, folder.uri.fsPath);
          directBytes = bytes;
          return ms;
        },
      );
      const probes: ProbeResult[] = [];
      for (let i = 0; i < Math.max(2, Math.ceil(job.rounds / 2)); i++) {
        const probe = await startProbe();
        await tools.search_text({ query }, new AbortController().signal);
        probes.push(await probe.stop());
      }
      results.results.push({ query, ours: timed.ours, direct: timed.baseline, hits, directBytes, probes });
    }
  } catch (error) {
    results.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  writeFileSync(out, JSON.stringify(results));
}
