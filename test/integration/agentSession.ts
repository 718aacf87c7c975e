// What the agent's integration suites share: a chat session opened through the extension's test API, the
// workspace's files as bytes, and a send in Agent mode that returns the turn it starts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentToolRow } from '../../src/chat/agentTurn';
import type { AssistantTurn, Conversation } from '../../src/chat/types';
import { eventually, workspaceRoot } from './helpers';

/** A session as the webview's messages reach it. */
export interface AgentSession {
  conversation: Conversation;
  receive(raw: unknown): Promise<void>;
}

interface SessionApi {
  openChatSession(options?: {
    confirm?: (question: string, detail: string, action: string) => Promise<boolean>;
  }): Promise<{ session: AgentSession; release(): void }>;
}

/** Opens a chat session through the extension's test API (`confirm` answers its confirmations). */
export async function openSession(
  confirm?: (question: string, detail: string, action: string) => Promise<boolean>,
): Promise<{ session: AgentSession; release(): void }> {
  const api = (await vscode.extensions.getExtension<SessionApi>('modelgateway.model-gateway')!.activate())!;
  return api.openChatSession(confirm ? { confirm } : undefined);
}

export const decoder = new TextDecoder();
export const encoder = new TextEncoder();

/** The URI of a workspace-relative path. */
export const uriOf = (path: string): vscode.Uri => vscode.Uri.joinPath(workspaceRoot(), path);

/** A workspace file's bytes. */
export const readBytes = async (path: string): Promise<Uint8Array> =>
  vscode.workspace.fs.readFile(uriOf(path));

/** Writes a workspace file's bytes. */
export const writeBytes = async (path: string, bytes: Uint8Array): Promise<void> =>
  vscode.workspace.fs.writeFile(uriOf(path), bytes);

/** True when the workspace file exists. */
export const exists = async (path: string): Promise<boolean> =>
  Promise.resolve(vscode.workspace.fs.stat(uriOf(path))).then(
    () => true,
    () => false,
  );

/** Deletes a workspace file or folder if it is there. */
export const removeIfThere = async (path: string): Promise<void> => {
  if (await exists(path)) await vscode.workspace.fs.delete(uriOf(path), { recursive: true, useTrash: false });
};

/** The tool rows of a turn, in order. */
export const toolRows = (turn: AssistantTurn): AgentToolRow[] =>
  (turn.agent?.parts ?? []).filter((p): p is AgentToolRow => p.kind === 'tool');

/**
 * Sends `text` in Agent mode (in a new chat unless `sameChat`) without waiting for the run: returns the run's
 * assistant turn once it exists, and the send's promise (it resolves when the run ends).
 */
export async function startAgent(
  session: AgentSession,
  text: string,
  options: { model?: string; sameChat?: boolean } = {},
): Promise<{ turn: AssistantTurn; sent: Promise<void> }> {
  if (!options.sameChat) await session.receive({ type: 'newChat' });
  if (options.model) await session.receive({ type: 'setModel', model: options.model });
  await session.receive({ type: 'setMode', mode: 'agent' });
  assert.equal(session.conversation.mode, 'agent');
  const before = session.conversation.turns.length;
  const sent = session.receive({ type: 'send', text });
  await eventually(() => assert.equal(session.conversation.turns.length, before + 2), 10_000);
  return { turn: session.conversation.turns.at(-1) as AssistantTurn, sent };
}

/** Sends `text` in Agent mode and waits for the run to end. */
export async function runAgent(
  session: AgentSession,
  text: string,
  options: { model?: string; sameChat?: boolean } = {},
): Promise<AssistantTurn> {
  const { turn, sent } = await startAgent(session, text, options);
  await sent;
  assert.notEqual(turn.status, 'streaming');
  return turn;
}
