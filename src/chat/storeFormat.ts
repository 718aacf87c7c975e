/**
 * The on-disk format of saved chats: `conversations/<id>.json` holds `{ version: 1, conversation }`
 * and `index.json` holds `{ version: 1, conversations: ConversationSummary[] }`.
 * Parsing validates the shape, because a file cut short by a crash or edited by hand must be
 * detected (and backed up) rather than crash the history view later.
 */
import { isUnsafeRelativePath } from './context/safety';
import { type Attachment, CONTEXT_KINDS } from './context/types';
import { IMAGE_QUALITIES, IMAGE_RESPONSE_FORMATS, IMAGE_SIZES } from '../gateway/types';
import type { AssistantTurn, Conversation, ConversationSummary, ImageTurn, Turn, TurnStatus } from './types';

/** The format version written by this code. */
const STORE_FORMAT_VERSION = 1;

/** The result of parsing a stored file: the value, or why it was refused. */
type ParseResult<T> =
  | { ok: true; value: T }
  /** `newer` marks a file from a newer version of the extension: skipped, but neither corrupt nor backed up. */
  | { ok: false; reason: string; newer?: boolean };

/** Ids become file names, so only a conservative alphabet is allowed (also blocks `../` from a webview). */
export function isValidConversationId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(id);
}

/** The text of a conversation file. */
export function serializeConversation(conv: Conversation): string {
  return JSON.stringify({ version: STORE_FORMAT_VERSION, conversation: conv });
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

function parseVersioned(text: string): ParseResult<Json> {
  if (text.trim() === '') return { ok: false, reason: 'the file is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!isObject(value)) return { ok: false, reason: 'it is not a JSON object' };
  const version = value.version;
  if (typeof version !== 'number') return { ok: false, reason: 'it has no format version' };
  if (version > STORE_FORMAT_VERSION) {
    return {
      ok: false,
      newer: true,
      reason: `it was written by a newer version of the extension (format ${version})`,
    };
  }
  if (version !== STORE_FORMAT_VERSION) return { ok: false, reason: `unknown format version ${version}` };
  return { ok: true, value };
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
