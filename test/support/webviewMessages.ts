// Webview-to-host messages for the protocol tests: one valid sample of every type, and malformed ones that are
// invalid by construction (the rules below are the test's own oracle, written apart from the validator's schemas).
import fc from 'fast-check';
import { WEBVIEW_MESSAGE_TYPES, type WebviewMessageType, type WebviewToHost } from '../../src/protocol';

/** One valid message of every type; the mapped type makes the compiler ask for a new type's sample. */
export const VALID_SAMPLES: { [K in WebviewMessageType]: Extract<WebviewToHost, { type: K }> } = {
  ready: { type: 'ready' },
  send: { type: 'send', text: 'Explain closures' },
  stop: { type: 'stop' },
  regenerate: { type: 'regenerate' },
  retry: { type: 'retry' },
  editAndResend: { type: 'editAndResend', turnId: 't-1', text: 'Explain closures again' },
  setModel: { type: 'setModel', model: 'alpha-haiku-4-5-20251001' },
  newChat: { type: 'newChat' },
  openConversation: { type: 'openConversation', id: 'c-1' },
  renameConversation: { type: 'renameConversation', id: 'c-1' },
  deleteConversation: { type: 'deleteConversation', id: 'c-1' },
  exportConversation: { type: 'exportConversation', id: 'c-1' },
  copy: { type: 'copy', text: 'const a = 1;' },
  codeAction: { type: 'codeAction', action: 'insert', code: 'const a = 1;', language: 'ts' },
  openLink: { type: 'openLink', href: 'https://example.com/' },
  setApiKey: { type: 'setApiKey' },
  openSettings: { type: 'openSettings' },
  errorAction: { type: 'errorAction', turnId: 't-1', action: 'dropOldestTurns' },
  setThinkingOpen: { type: 'setThinkingOpen', turnId: 't-1', open: true },
  contextQuery: { type: 'contextQuery', requestId: 3, mode: 'files', query: 'sample' },
  addContext: { type: 'addContext', key: 'kind:selection' },
  removeContext: { type: 'removeContext', id: 'chip-1' },
  openContext: { type: 'openContext', id: 'chip-1' },
  openAttachment: { type: 'openAttachment', turnId: 't-1', attachmentId: 'a-1' },
  acceptSuggestion: { type: 'acceptSuggestion' },
  dismissSuggestion: { type: 'dismissSuggestion' },
  dropFiles: { type: 'dropFiles', uris: ['file:///workspace/src/sample.ts'] },
  imageAction: { type: 'imageAction', turnId: 't-1', index: 1, action: 'insertLink' },
  setMode: { type: 'setMode', mode: 'agent' },
  agentDecision: { type: 'agentDecision', turnId: 't-1', decision: 'undo' },
  openChangedFile: { type: 'openChangedFile', turnId: 't-1', path: 'src/sample.ts' },
  agentContinue: { type: 'agentContinue', turnId: 't-1' },
  agentApproval: { type: 'agentApproval', turnId: 't-1', callId: 'call_1', choice: 'skip' },
  restoreCheckpoint: { type: 'restoreCheckpoint', turnId: 't-1' },
  openTools: { type: 'openTools' },
  listTools: { type: 'listTools' },
  setToolEnabled: { type: 'setToolEnabled', name: 'read_file', enabled: false },
  startWithAgent: { type: 'startWithAgent', turnId: 't-1' },
};

/** What each field must be: any string, a non-empty string, a non-blank model id, or one of a few words. */
const FIELD_RULES: Record<
  string,
  'string' | 'nonEmpty' | 'model' | 'enum' | 'choice' | 'count' | 'strings' | 'boolean'
> = {
  text: 'string',
  query: 'string',
  key: 'nonEmpty',
  attachmentId: 'nonEmpty',
  mode: 'enum',
  requestId: 'count',
  open: 'boolean',
  index: 'count',
  uris: 'strings',
  code: 'string',
  language: 'string',
  href: 'string',
  id: 'nonEmpty',
  turnId: 'nonEmpty',
  model: 'model',
  action: 'enum',
  decision: 'enum',
  path: 'nonEmpty',
  callId: 'nonEmpty',
  name: 'nonEmpty',
  enabled: 'boolean',
  choice: 'choice',
};

/** Values that are not strings, so never a valid field value. */
const NOT_STRINGS: unknown[] = [
  undefined,
  null,
  0,
  -1.5,
  Number.NaN,
  true,
  false,
  [],
  ['x'],
  {},
  { text: 'x' },
];

/** Values a field of the given rule must refuse. */
function badValues(rule: (typeof FIELD_RULES)[string]): unknown[] {
  switch (rule) {
    case 'string':
      return NOT_STRINGS;
    case 'nonEmpty':
      return [...NOT_STRINGS, ''];
    case 'model':
      return [...NOT_STRINGS, '', '   ', '\n', 'x'.repeat(257)];
    case 'enum':
      return [...NOT_STRINGS, '', 'delete', 'INSERT', 'toString', '__proto__', 'run'];
    case 'choice':
      // An approval answers only with a choice a row can offer: no free text, no "yes".
      return [...NOT_STRINGS, '', 'Approve', 'yes', 'always', 'toString', '__proto__'];
    case 'boolean':
      return [undefined, null, 'true', 0, 1, [], {}];
    case 'count':
      return [undefined, null, '3', -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, [], {}];
    case 'strings':
      return [
        undefined,
        null,
        'file:///a',
        0,
        true,
        {},
        [1],
        [null],
        [['x']],
        Array.from({ length: 101 }, () => 'x'),
      ];
  }
}

/** A labelled malformed message and the type it claims (undefined when it claims none). */
export interface Malformed {
  label: string;
  claims: WebviewMessageType | undefined;
  message: unknown;
}

/** Every field of every type, missing or with each wrong value; every message with a broken `type`. */
export function malformedMessages(): Malformed[] {
  const out: Malformed[] = [];
  for (const type of WEBVIEW_MESSAGE_TYPES) {
    const sample: Record<string, unknown> = VALID_SAMPLES[type];
    for (const field of Object.keys(sample).filter((k) => k !== 'type')) {
      const rule = FIELD_RULES[field];
      if (!rule) throw new Error(`no rule for field "${field}" of "${type}": add it to FIELD_RULES`);
      const { [field]: _dropped, ...without } = sample;
      out.push({ label: `${type} without ${field}`, claims: type, message: without });
      for (const bad of badValues(rule)) {
        out.push({
          label: `${type}.${field} = ${show(bad)}`,
          claims: type,
          message: { ...sample, [field]: bad },
        });
      }
    }
    for (const badType of [undefined, null, 1, '', type.toUpperCase(), ` ${type}`, [type], { type }]) {
      out.push({
        label: `${type} with type ${show(badType)}`,
        claims: undefined,
        message: { ...sample, type: badType },
      });
    }
  }
  for (const type of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf', 'unknownAction']) {
    out.push({ label: `type "${type}"`, claims: undefined, message: { type } });
  }
  for (const value of [undefined, null, 0, 'send', 'ready', true, [], [{ type: 'ready' }], () => 'ready']) {
    out.push({ label: `the value ${show(value)}`, claims: undefined, message: value });
  }
  return out;
}

function show(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string' && value.length > 20)
    return `"${value.slice(0, 8)}…" (${value.length} chars)`;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

const KNOWN_TYPES = new Set<string>(WEBVIEW_MESSAGE_TYPES);

/** Junk keys that no schema reads; they never make a malformed message valid. */
const junk = fc.dictionary(
  fc.string().filter((key) => !(key in FIELD_RULES) && key !== 'type' && key !== '__proto__'),
  fc.anything(),
  { maxKeys: 3 },
);

/**
 * Random malformed messages: a malformed message with junk keys added, or any value whose `type` names no
 * message, or a message of a type with fields whose fields are random non-strings.
 */
export function randomMalformed(): fc.Arbitrary<Malformed> {
  const base = malformedMessages();
  const mutated = fc.tuple(fc.constantFrom(...base), junk).map(([m, extra]) => ({
    label: `${m.label} + junk`,
    claims: m.claims,
    message:
      typeof m.message === 'object' && m.message !== null && !Array.isArray(m.message)
        ? Object.assign(Object.create(null), extra, m.message)
        : m.message,
  }));
  const untyped = fc
    .anything({ withNullPrototype: true, withObjectString: true })
    .filter((value) => {
      const type =
        typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
      return typeof type !== 'string' || !KNOWN_TYPES.has(type);
    })
    .map((message) => ({ label: 'random value', claims: undefined, message }));
  const withFields = WEBVIEW_MESSAGE_TYPES.filter((t) => Object.keys(VALID_SAMPLES[t]).length > 1);
  const randomFields = fc
    .tuple(
      fc.constantFrom(...withFields),
      // Neither a string nor a list of strings, so no field of any message (numbers only with strings beside them).
      fc
        .anything()
        .filter((v) => typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))),
    )
    .map(([type, value]) => {
      const message: Record<string, unknown> = { ...VALID_SAMPLES[type] };
      for (const field of Object.keys(message)) if (field !== 'type') message[field] = value;
      return { label: `${type} with random fields`, claims: type, message };
    });
  return fc.oneof(mutated, untyped, randomFields);
}

// The host-to-webview l10n bundle (src/l10nContents.ts): valid tables, and attribute texts that are invalid by
// construction (not JSON, not a table of strings, or too large to be a bundle).

/** Bundles the webview must accept as they are. */
export const VALID_L10N_CONTENTS: Record<string, Record<string, string>> = {
  'one string': { Send: '发送' },
  'placeholders, quotes and markup characters': {
    'Remove {0}': '移除 {0}',
    'Delete "{0}"?': '删除“{0}”？',
    '<b>&amp;</b>': '<b>&amp;</b>',
    "Apply to the active editor's file, with a review": '应用到活动编辑器中的文件，并进行审阅',
  },
  'a large bundle': Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`message ${i}`, `消息 ${i}`])),
};

/** Attribute texts that are no bundle: the webview stays in English. */
export const MALFORMED_L10N_CONTENTS: Array<{ label: string; text: string }> = [
  { label: 'text that is not JSON', text: '{Send: 发送}' },
  { label: 'a JSON string', text: '"发送"' },
  { label: 'a JSON number', text: '42' },
  { label: 'null', text: 'null' },
  { label: 'a list', text: '[["Send", "发送"]]' },
  { label: 'a number as a message', text: '{"Send": 1}' },
  { label: 'null as a message', text: '{"Send": null}' },
  {
    label: 'an object as a message (the commented form is for files, not for this table)',
    text: '{"Send": {"message": "发送", "comment": []}}',
  },
  { label: 'a list as a message', text: '{"Send": ["发送"]}' },
  {
    label: 'more entries than any bundle',
    text: JSON.stringify(Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`m${i}`, 'x']))),
  },
  { label: 'a message longer than any bundle holds', text: JSON.stringify({ Send: 'x'.repeat(10_001) }) },
];
