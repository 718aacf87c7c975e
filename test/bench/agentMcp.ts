/**
 * Case 17, the first MCP tool call of a run: our client (the production bundle dist/mcp.js, as the extension loads
 * it, and the result conversion of src/agent/mcp/tools.ts) against the SDK's own Client and StdioClientTransport,
 * each calling `lookup` once on a freshly started fixture server (test/fixtures/mcp-server). The start (spawn,
 * `initialize` and `tools/list`, on both sides) is excluded from the call and reported beside it. Rounds interleave
 * the two sides. Budget from issue 27: ours ≤ 1.2× the SDK's.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpResultToToolResult } from '../../src/agent/mcp/tools';
import type * as SdkClient from '../../src/host/agent/mcp/sdkClient';
import { LOOKUP_TOKEN } from '../fixtures/mcp-server/server';
import { fmtMs, fmtRatio, type Row, verdict } from './report';
import type { BenchSettings } from './settings';
import { productionStage } from './stage';
import { interleave, median, medianRatio, now } from './stats';

const CASE = '17. Agent: first MCP tool call';
const BUDGET = 1.2;
const SERVER = join(__dirname, '..', 'fixtures', 'mcp-server', 'server.js');

interface Sample {
  start: number;
  call: number;
}

function checked(text: string): void {
  if (!text.startsWith(LOOKUP_TOKEN)) throw new Error(`unexpected lookup result: ${text.slice(0, 200)}`);
}

/** Runs case 17. */
export async function agentMcpRows(settings: BenchSettings): Promise<Row[]> {
  const stage = await productionStage();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ours = require(join(stage.dir, 'dist', 'mcp.js')) as typeof SdkClient;
  const server = {
    name: 'fixture',
    source: 'user' as const,
    type: 'stdio' as const,
    command: process.execPath,
    args: [SERVER],
    env: {},
  };
  const rounds = settings.quick ? 3 : 15;

  const oursRound = async (): Promise<Sample> => {
    const t0 = now();
    const connection = await ours.connectMcp(server, {
      clientName: 'bench',
      clientVersion: '1',
      timeoutMs: 30_000,
      env: process.env,
    });
    await connection.listTools();
    const t1 = now();
    const result = await connection.callTool(
      'lookup',
      { word: 'bench' },
      {
        signal: new AbortController().signal,
        timeoutMs: 30_000,
      },
    );
    checked(mcpResultToToolResult('fixture.lookup', result).content);
    const t2 = now();
    await connection.close();
    return { start: t1 - t0, call: t2 - t1 };
  };
  const sdkRound = async (): Promise<Sample> => {
    const t0 = now();
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'pipe' }),
    );
    const t1 = now();
    const result = await client.callTool({ name: 'lookup', arguments: { word: 'bench' } });
    const content = result.content as Array<{ type: string; text?: string }>;
    checked(content[0]?.text ?? '');
    const t2 = now();
    await client.close();
    return { start: t1 - t0, call: t2 - t1 };
  };

  const samples = await interleave(rounds, 1, oursRound, sdkRound);
  const call = { ours: samples.ours.map((s) => s.call), baseline: samples.baseline.map((s) => s.call) };
  const ratio = medianRatio(call.ours, call.baseline);
  return [
    {
      case: CASE,
      figure:
        'first tools/call of a freshly started stdio server (lookup on the fixture server), start excluded',
      ours: fmtMs(median(call.ours)),
      baseline: `${fmtMs(median(call.baseline))} (SDK Client + StdioClientTransport)`,
      ratio: fmtRatio(ratio),
      budget: `≤ ${BUDGET}×`,
      status: verdict(ratio <= BUDGET),
      note: `median of ${rounds} interleaved rounds; ours through dist/mcp.js of the production build and the result conversion`,
      data: { call, ratio },
    },
    {
      case: CASE,
      figure:
        'server start: spawn + initialize + tools/list (the agent lists the tools before the first call)',
      ours: fmtMs(median(samples.ours.map((s) => s.start))),
      baseline: fmtMs(median(samples.baseline.map((s) => s.start))),
      ratio: '–',
      budget: '–',
      status: 'info',
      data: {
        start: { ours: samples.ours.map((s) => s.start), baseline: samples.baseline.map((s) => s.start) },
      },
    },
  ];
}
