// Agent runs for the webview tests: a streamed run as the host sends it, and the same run as history stores it.
import type { AgentMeter, AgentRun, AgentToolRow, ChangedFile } from '../../src/chat/agentTurn';
import type { HostToWebview } from '../../src/protocol';

/** A tool row. */
export function toolRow(id: string, summary: string, extra: Partial<AgentToolRow> = {}): AgentToolRow {
  return { kind: 'tool', id, name: 'read_file', summary, status: 'done', input: '{}', ...extra };
}

/** A changed file, pending unless told otherwise. */
export function changedFile(
  path: string,
  added: number,
  removed: number,
  extra: Partial<ChangedFile> = {},
): ChangedFile {
  return { path, created: false, deleted: false, added, removed, decision: 'pending', ...extra };
}

export const READ_ROW = toolRow('call_1', 'Read src/app.ts:1-120', {
  input: '{"path":"src/app.ts","startLine":1,"endLine":120}',
  result: '1\timport { parseConfig } from "./config";\n2\texport function main() {}',
});
export const SEARCH_ROW = toolRow('call_2', 'Searched `parseConfig`: 7 results', {
  name: 'search_text',
  input: '{"query":"parseConfig"}',
  result: 'src/config.ts:12: export function parseConfig(text: string) {',
});
export const EDIT_ROW = toolRow('call_3', 'Edited src/config.ts +12 −3', {
  name: 'edit_file',
  input: '{"path":"src/config.ts","edits":[{"oldText":"a","newText":"b"}]}',
  result: 'Edited src/config.ts: 1 replacement.',
});

export const FILES: ChangedFile[] = [
  changedFile('src/config.ts', 12, 3),
  changedFile('src/config.test.ts', 28, 0, { created: true }),
  changedFile('src/legacy.ts', 0, 9, { deleted: true, decision: 'kept' }),
  changedFile('src/app.ts', 2, 1, { inBuffer: true, decision: 'undone' }),
];

export const METER: AgentMeter = {
  totalTokens: 12_345,
  promptTokens: 4100,
  contextTokens: 10_000,
  estimated: true,
  elided: 2,
  cost: 0.042,
};

/** The run's text, in the pieces the host streams. */
export const TEXT_BEFORE = ['I will read the ', 'entry point **first**.\n\n', '- then search'];
export const TEXT_AFTER = ['Found it. ', 'Now the fix:\n\n```ts\nexport const x = 1;\n```\n', '\nDone.'];

/** The host's messages of a streamed run: text, three rows (the first sent running, then done), text, files. */
export function streamedRun(turnId: string): HostToWebview[] {
  return [
    ...TEXT_BEFORE.map((text): HostToWebview => ({ type: 'delta', turnId, text })),
    { type: 'agentRow', turnId, row: { ...READ_ROW, status: 'running', result: undefined } },
    { type: 'agentRow', turnId, row: READ_ROW },
    { type: 'agentRow', turnId, row: { ...SEARCH_ROW, status: 'running', result: undefined } },
    { type: 'agentRow', turnId, row: SEARCH_ROW },
    { type: 'agentRow', turnId, row: EDIT_ROW },
    ...TEXT_AFTER.map((text): HostToWebview => ({ type: 'delta', turnId, text })),
    { type: 'agentFiles', turnId, files: FILES },
    { type: 'agentMeter', turnId, meter: METER },
  ];
}

/** The same run as a finished turn stores it. */
export function storedRun(): AgentRun {
  return {
    parts: [
      { kind: 'text', text: TEXT_BEFORE.join('') },
      READ_ROW,
      SEARCH_ROW,
      EDIT_ROW,
      { kind: 'text', text: TEXT_AFTER.join('') },
    ],
    files: FILES,
    meter: METER,
  };
}
