/**
 * The on-disk format of saved chats: `conversations/<id>.json` holds `{ version: 1, conversation }`
 * and `index.json` holds `{ version: 1, conversations: ConversationSummary[] }`.
 * Parsing validates the shape, because a file cut short by a crash or edited by hand must be
 * detected (and backed up) rather than crash the history view later.
 */
import { isUnsafeRelativePath } from './context/safety';
import { readVersionedJson, type ParseResult } from './versionedJson';
import { type Attachment, CONTEXT_KINDS } from './context/types';
import { IMAGE_QUALITIES, IMAGE_RESPONSE_FORMATS, IMAGE_SIZES } from '../gateway/types';
import { AGENT_TOOL_STATUSES, APPROVAL_CHOICES, CHAT_MODES } from './agentTurn';
import type { AssistantTurn, Conversation, ConversationSummary, ImageTurn, Turn, TurnStatus } from './types';

/** The format version written by this code. */
const STORE_FORMAT_VERSION = 1;

/** Ids become file names, so only a conservative alphabet is allowed (also blocks `../` from a webview). */
export function isValidConversationId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(id);
}

/** The JSON of each turn, joined by commas: the inside of a conversation file's `turns` list. */
export function turnsJson(turns: readonly Turn[]): string {
  return turns.map((turn) => JSON.stringify(turn)).join(',');
}

/** Closes a conversation file's text after its turns' JSON (see `conversationFileStart`). */
export const CONVERSATION_FILE_END = ']}}';

/**
 * The start of a conversation file's text, up to the inside of its `turns` list: the file is this, the turns'
 * JSON (`turnsJson`) and `CONVERSATION_FILE_END`, the same value as `JSON.stringify({ version, conversation })`
 * with `turns` written last. Built from parts so a save can reuse the bytes of turns it wrote before
 * (`ConversationStore.scheduleSave`).
 */
export function conversationFileStart(conv: Conversation): string {
  const { turns: _turns, ...rest } = conv;
  const head = JSON.stringify(rest);
  const fields = head.length > 2 ? `${head.slice(0, -1)},` : '{';
  return `{"version":${STORE_FORMAT_VERSION},"conversation":${fields}"turns":[`;
}

/** The text of a conversation file. */
export function serializeConversation(conv: Conversation): string {
  return `${conversationFileStart(conv)}${turnsJson(conv.turns)}${CONVERSATION_FILE_END}`;
}

/** Parses and validates a conversation file; `expectedId` is the id its file name claims. */
export function parseConversationFile(text: string, expectedId: string): ParseResult<Conversation> {
  const root = parseVersioned(text);
  if (!root.ok) return root;
  const conv = root.value.conversation;
  const problem = conversationProblem(conv);
  if (problem) return { ok: false, reason: problem };
  const c = conv as Conversation;
  if (c.id !== expectedId)
    return { ok: false, reason: `it holds conversation "${c.id}", not "${expectedId}"` };
  dropMalformedAttachments(c);
  dropMalformedAgentRuns(c);
  return { ok: true, value: c };
}

/** The text of the index file. */
export function serializeIndex(summaries: Iterable<ConversationSummary>): string {
  return JSON.stringify({ version: STORE_FORMAT_VERSION, conversations: [...summaries] });
}

/** Parses and validates the index file. */
export function parseIndex(text: string): ParseResult<ConversationSummary[]> {
  const root = parseVersioned(text);
  if (!root.ok) return root;
  const list = root.value.conversations;
  if (!Array.isArray(list)) return { ok: false, reason: '"conversations" is not a list' };
  for (let i = 0; i < list.length; i++) {
    if (!isSummary(list[i])) return { ok: false, reason: `entry ${i} is not a valid conversation summary` };
  }
  return { ok: true, value: list as ConversationSummary[] };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `newer` marks a file from a newer version of the extension: skipped, but neither corrupt nor backed up. */
function parseVersioned(text: string): ParseResult<Json> {
  return readVersionedJson(text, STORE_FORMAT_VERSION);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optional = (v: unknown, check: (x: unknown) => boolean): boolean => v === undefined || check(v);

const STATUSES: ReadonlySet<TurnStatus> = new Set<TurnStatus>([
  'streaming',
  'complete',
  'stopped',
  'error',
  'interrupted',
  'truncated',
]);

function isSummary(v: unknown): v is ConversationSummary {
  return (
    isObject(v) &&
    isString(v.id) &&
    isValidConversationId(v.id) &&
    isString(v.title) &&
    isString(v.model) &&
    isNumber(v.updatedAt) &&
    isNumber(v.turnCount)
  );
}

function conversationProblem(v: unknown): string | undefined {
  if (!isObject(v)) return 'it has no "conversation" object';
  if (!isString(v.id) || !isValidConversationId(v.id)) return 'the conversation id is missing or invalid';
  if (!isString(v.title) || !isString(v.model)) return 'the title or model is missing';
  if (!isNumber(v.createdAt) || !isNumber(v.updatedAt)) return 'the timestamps are missing';
  if (!Array.isArray(v.turns)) return 'the turn list is missing';
  const index = v.turns.findIndex((t) => !isTurn(t));
  return index >= 0 ? `turn ${index} is malformed` : undefined;
}

function isTurn(v: unknown): v is Turn {
  if (!isObject(v) || !isString(v.id) || !isString(v.content) || !isNumber(v.createdAt)) return false;
  if (v.role === 'user') return optional(v.quote, isQuote) && optional(v.modelText, isString);
  if (v.role === 'image') return isImageTurn(v);
  if (v.role !== 'assistant') return false;
  const a = v as Partial<Record<keyof AssistantTurn, unknown>>;
  return (
    isString(a.model) &&
    isString(a.status) &&
    STATUSES.has(a.status as TurnStatus) &&
    optional(a.reasoning, isString) &&
    optional(a.reasoningMs, isNumber) &&
    optional(a.thinkingOpen, (o) => typeof o === 'boolean') &&
    optional(a.finishReason, isString) &&
    optional(a.usage, isObject) &&
    optional(a.error, (e) => isObject(e) && isString(e.message))
  );
}

const IMAGE_STATUSES: ReadonlySet<unknown> = new Set([
  'generating',
  'complete',
  'stopped',
  'error',
  'interrupted',
]);
const oneOf =
  (values: readonly string[]) =>
  (v: unknown): boolean =>
    isString(v) && values.includes(v);

/**
 * An image turn holds paths, never bytes: each path must stay inside its workspace folder (the host opens it and
 * shows it in the webview), and the options must be ones the gateway accepts.
 */
function isImageTurn(v: Json): v is Json & ImageTurn {
  const o = v.options;
  return (
    isString(v.prompt) &&
    isString(v.model) &&
    IMAGE_STATUSES.has(v.status) &&
    isObject(o) &&
    oneOf(IMAGE_SIZES)(o.size) &&
    oneOf(IMAGE_QUALITIES)(o.quality) &&
    oneOf(IMAGE_RESPONSE_FORMATS)(o.responseFormat) &&
    Number.isSafeInteger(o.n) &&
    (o.n as number) >= 1 &&
    Array.isArray(v.images) &&
    v.images.every(isImageFile) &&
    optional(v.durationMs, isNumber) &&
    optional(v.error, (e) => isObject(e) && isString(e.message))
  );
}

function isImageFile(v: unknown): boolean {
  return (
    isObject(v) &&
    isString(v.path) &&
    v.path !== '' &&
    !isUnsafeRelativePath(v.path) &&
    optional(v.workspaceFolder, isString) &&
    optional(v.revisedPrompt, isString)
  );
}

/**
 * Keeps only the well-formed attachments of each user turn. A bad attachment costs only itself: the
 * turn and the conversation still load, since the question and the answer are what matter most.
 * An attachment whose path could leave the workspace is dropped too, as the host opens that path.
 */
function dropMalformedAttachments(conv: Conversation): void {
  for (const turn of conv.turns) {
    if (turn.role !== 'user' || !('attachments' in turn)) continue;
    const list: unknown = turn.attachments;
    const kept = Array.isArray(list) ? list.filter(isAttachment) : [];
    if (kept.length > 0) turn.attachments = kept;
    else delete turn.attachments;
  }
}

const KINDS: ReadonlySet<string> = new Set(CONTEXT_KINDS);
const isLine = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 1;
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

function isAttachment(v: unknown): v is Attachment {
  return (
    isObject(v) &&
    isString(v.id) &&
    isString(v.kind) &&
    KINDS.has(v.kind) &&
    isString(v.name) &&
    isString(v.path) &&
    (v.path === '' || !isUnsafeRelativePath(v.path)) &&
    isString(v.language) &&
    isString(v.content) &&
    isCount(v.tokens) &&
    optional(v.startLine, isLine) &&
    optional(v.endLine, isLine) &&
    optional(v.truncated, (t) => isObject(t) && isCount(t.keptLines) && isCount(t.totalLines))
  );
}

function isQuote(v: unknown): boolean {
  return (
    isObject(v) && isString(v.code) && isString(v.language) && isString(v.fileName) && isNumber(v.startLine)
  );
}

const TOOL_STATUSES: ReadonlySet<unknown> = new Set(AGENT_TOOL_STATUSES);
const MODES: ReadonlySet<unknown> = new Set(CHAT_MODES);
const DECISIONS: ReadonlySet<unknown> = new Set(['pending', 'kept', 'undone', 'partial']);

function isAgentPart(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (v.kind === 'text') return isString(v.text);
  return (
    v.kind === 'tool' &&
    isString(v.id) &&
    isString(v.name) &&
    isString(v.summary) &&
    TOOL_STATUSES.has(v.status) &&
    isString(v.input) &&
    optional(v.result, isString) &&
    optional(v.approval, isString) &&
    optional(v.choices, isChoices)
  );
}

const CHOICES: ReadonlySet<unknown> = new Set(APPROVAL_CHOICES);

function isChoices(v: unknown): boolean {
  return Array.isArray(v) && v.every((c) => isObject(c) && CHOICES.has(c.id) && isString(c.label));
}

function isChangedFile(v: unknown): boolean {
  return (
    isObject(v) &&
    isString(v.path) &&
    v.path !== '' &&
    typeof v.created === 'boolean' &&
    typeof v.deleted === 'boolean' &&
    isCount(v.added) &&
    isCount(v.removed) &&
    DECISIONS.has(v.decision) &&
    optional(v.inBuffer, (b) => typeof b === 'boolean')
  );
}

/**
 * Agent runs are drawn from their parts and files, and Keep/Undo acts on their paths: a run that is not well formed
 * loses its agent record (its text stays the answer), and an unknown mode becomes Ask.
 */
function dropMalformedAgentRuns(conv: Conversation): void {
  if (conv.mode !== undefined && !MODES.has(conv.mode)) delete conv.mode;
  for (const turn of conv.turns) {
    if (turn.role === 'user' && turn.checkpoint !== undefined && turn.checkpoint !== true)
      delete turn.checkpoint;
    if (turn.role !== 'assistant' || turn.agent === undefined) continue;
    const run: unknown = turn.agent;
    const ok =
      isObject(run) &&
      Array.isArray(run.parts) &&
      run.parts.every(isAgentPart) &&
      Array.isArray(run.files) &&
      run.files.every(isChangedFile) &&
      optional(run.rules, (r) => Array.isArray(r) && r.every(isString)) &&
      optional(run.paused, (b) => typeof b === 'boolean') &&
      optional(run.plan, (b) => typeof b === 'boolean') &&
      optional(run.protocol, (p) => p === 'native' || p === 'text') &&
      optional(run.meter, isObject);
    if (!ok) delete turn.agent;
  }
}
