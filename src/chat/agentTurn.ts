/**
 * How an agent run is kept in the conversation and drawn: its text and tool calls in the order they came, the
 * files it changed with the user's Keep/Undo decisions, and its token meter. The model-facing side of the run
 * (messages, tool results in full) lives in src/agent; this is what the transcript shows and stores.
 */
import type { ChangedFile } from '../agent/changedFiles';

export type { ChangedFile, FileDecision } from '../agent/changedFiles';

/**
 * Ask: the chat answers. Agent: the model reads, searches and edits the workspace with tools. Plan: the model reads
 * and searches with the read-only tools only, and answers with a numbered plan that Agent can then carry out.
 */
export const CHAT_MODES = ['ask', 'agent', 'plan'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

/** How one tool call of a run stands. */
export const AGENT_TOOL_STATUSES = ['running', 'done', 'error', 'awaitingApproval', 'skipped'] as const;
export type AgentToolStatus = (typeof AGENT_TOOL_STATUSES)[number];

/** The answers a call waiting for the user can get: Approve/Skip (protected files), Run/Skip/Always Allow (commands). */
export const APPROVAL_CHOICES = ['approve', 'skip', 'run', 'alwaysAllow'] as const;
export type ApprovalChoiceId = (typeof APPROVAL_CHOICES)[number];

/** One button of an approval: what it answers and its label (already localised by the host). */
export interface ApprovalChoice {
  id: ApprovalChoiceId;
  label: string;
}

/** One tool call, as its row shows it. */
export interface AgentToolRow {
  kind: 'tool';
  /** The call's id (unique within the run). */
  id: string;
  name: string;
  /** One line: "Read src/app.ts:1-120", "Searched `parseConfig`: 7 results", "Edited src/a.ts +12 −3". */
  summary: string;
  status: AgentToolStatus;
  /** The call's input as JSON text, cut for display. */
  input: string;
  /** The result the model read, cut for display. */
  result?: string;
  /** While awaiting approval: what the user is asked ("Create .vscode/settings.json?"). */
  approval?: string;
  /** While awaiting approval: the buttons, in order; Approve and Skip when absent. */
  choices?: ApprovalChoice[];
}

/** Text the model wrote between its tool calls. */
export interface AgentTextPart {
  kind: 'text';
  text: string;
}

export type AgentPart = AgentTextPart | AgentToolRow;

/** The run's tokens: all requests together, and the latest request's prompt against the model's context. */
export interface AgentMeter {
  totalTokens: number;
  promptTokens: number;
  contextTokens: number;
  /** True when some figures were estimated (the server sent no usage). */
  estimated: boolean;
  /** Tool results replaced by a one-line note to stay within the context. */
  elided?: number;
  /** The run's cost in US dollars, when `modelGateway.chat.prices` prices the model. */
  cost?: number;
}

/** An agent run: the answer turn of a user turn sent in Agent mode. */
export interface AgentRun {
  parts: AgentPart[];
  files: ChangedFile[];
  meter?: AgentMeter;
  /** How tool calls travelled in this run. */
  protocol?: 'native' | 'text';
  /** The rules files in the system prompt ("AGENTS.md"). */
  rules?: string[];
  /** The run paused at the step limit: Continue resumes it. */
  paused?: boolean;
  /** A Plan mode run: read-only tools, its answer is a plan that "Start with Agent" carries out. */
  plan?: boolean;
}

/** Appends streamed text to the run's last text part, or starts one after a tool row. */
export function appendAgentText(run: AgentRun, text: string): void {
  const last = run.parts.at(-1);
  if (last?.kind === 'text') last.text += text;
  else run.parts.push({ kind: 'text', text });
}

/** Adds a tool row, or replaces the row with the same id. */
export function putAgentRow(run: AgentRun, row: AgentToolRow): void {
  const index = run.parts.findIndex((p) => p.kind === 'tool' && p.id === row.id);
  if (index >= 0) run.parts[index] = row;
  else run.parts.push(row);
}
