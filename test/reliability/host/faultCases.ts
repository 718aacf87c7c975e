// The fault matrix of the editor commands, one row per `it`: which command, which emulator fault (see
// test/gateway-emulator/CONTRACT.md), how it must end and what the user must be told (cause + next step).

/** The command under test. */
export type Feature = 'code' | 'explain' | 'image';

/**
 * How the command must end:
 * - `error`: it fails with a message; nothing usable arrived, nothing is kept or written;
 * - `partial`: it fails mid-answer; the chat keeps the text that arrived (the code command restores the original);
 * - `recovered`: the fault is absorbed (retry after Retry-After, a tolerant parser) and the result is complete.
 */
export type Outcome = 'error' | 'partial' | 'recovered';

export interface FaultCase {
  feature: Feature;
  /** Content of the `[[fault:…]]` marker. */
  fault: string;
  outcome: Outcome;
  /** What the message shown to the user must say (cause and next step); for failures only. */
  message?: RegExp;
  /** Settings for this case on top of the matrix defaults (keys under `modelGateway.`). */
  settings?: Record<string, unknown>;
  /** Image response format (image cases). */
  responseFormat?: 'b64_json' | 'url';
  /** Gateway requests (chat or image generation) the fault must cause, e.g. 2 for one retry. */
  attempts?: number;
  /** Least time between the first and the last attempt (Retry-After honoured). */
  minRetryGapMs?: number;
  /** Bound on this case (a timeout case waits for the time-out). */
  timeoutMs?: number;
  /**
   * Runs while the other rows run, from the start of the matrix to its own `it`, so that a time-out the
   * settings cannot make shorter than 120 s does not add 120 s to the run. Its checks use its own names.
   */
  background?: true;
}

/** Five seconds is the smallest time-out the settings accept; the matrix uses it to keep stalls short. */
export const MATRIX_SETTINGS: Record<string, unknown> = {
  'network.retries': 0,
  'network.firstByteTimeoutSeconds': 5,
  'network.idleTimeoutSeconds': 5,
  // The smallest accepted image time-out: 4096x4096 at high quality may really take this long.
  'images.timeoutSeconds': 120,
};

const SET_KEY = /Run 'Model Gateway: Set API Key'/;
const SELECT_MODEL = /[Rr]un 'Model Gateway: Select Model'/;
const AGAIN = /[Tt]ry again/;

/** A regular expression requiring every part, in order. */
function all(...parts: (RegExp | string)[]): RegExp {
  const source = parts
    .map((p) => (typeof p === 'string' ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : p.source))
    .join('[\\s\\S]*');
  return new RegExp(source);
}

/** Messages of each HTTP error class, as the user must read them. */
export const HTTP_MESSAGES = {
  400: all("too long for the model's context window", 'Start a new chat or remove older turns'),
  401: all('rejected the API key (401)', SET_KEY),
  403: all('refused access (403)', SET_KEY),
  404: all('does not offer the model', '(404)', SELECT_MODEL),
  '404url': all('nothing at this address (404)', 'Check the base URL setting'),
  '404empty': all('answered 404', 'Check the base URL setting'),
  413: all('too large for the gateway (413)', 'Start a new chat'),
  429: all('rate-limiting requests (429)', 'Wait a moment and try again'),
  500: all('internal error (500)', AGAIN),
  502: all('unavailable or timed out (502)', AGAIN),
  503: all('unavailable or timed out (503)', AGAIN),
  504: all('unavailable or timed out (504)', AGAIN),
  529: all('overloaded right now (529)', AGAIN),
  channel: all('no available channel', '(503)', 'Try again later', SELECT_MODEL),
  html: all('an HTML error page titled'),
} as const;

const STREAM_MESSAGES = {
  resetBefore: all('closed the connection', AGAIN),
  resetMid: all('connection broke in the middle of the answer', AGAIN),
  stallFirst: all('did not start answering within 5 s', 'raise the time-out in the settings'),
  stallMid: all('sent nothing for 5 s in the middle of the answer', 'raise the idle time-out'),
  truncated: all('cut off', 'before the gateway said it was complete', AGAIN),
  malformed: all('not valid JSON', AGAIN),
  inStream: all('reported an error in the middle of the answer', AGAIN, 'Gateway said:'),
};

/** Generate Code: every failure must also say the original text was restored. */
const CODE: FaultCase[] = [
  { feature: 'code', fault: 'status:400:openai', outcome: 'error', message: HTTP_MESSAGES[400] },
  { feature: 'code', fault: 'status:401:openai', outcome: 'error', message: HTTP_MESSAGES[401] },
  { feature: 'code', fault: 'status:403:anthropic', outcome: 'error', message: HTTP_MESSAGES[403] },
  { feature: 'code', fault: 'status:404:openai', outcome: 'error', message: HTTP_MESSAGES[404] },
  { feature: 'code', fault: 'status:404:html', outcome: 'error', message: HTTP_MESSAGES['404url'] },
  { feature: 'code', fault: 'status:413:litellm', outcome: 'error', message: HTTP_MESSAGES[413] },
  { feature: 'code', fault: 'status:429:openrouter', outcome: 'error', message: HTTP_MESSAGES[429] },
  { feature: 'code', fault: 'status:500:vllm', outcome: 'error', message: HTTP_MESSAGES[500] },
  { feature: 'code', fault: 'status:502:html', outcome: 'error', message: HTTP_MESSAGES[502] },
  { feature: 'code', fault: 'status:503:reseller', outcome: 'error', message: HTTP_MESSAGES.channel },
  { feature: 'code', fault: 'status:504:empty', outcome: 'error', message: HTTP_MESSAGES[504] },
  { feature: 'code', fault: 'status:529:anthropic', outcome: 'error', message: HTTP_MESSAGES[529] },
  {
    feature: 'code',
    fault: 'flaky:429:1,retry-after:1',
    outcome: 'recovered',
    settings: { 'network.retries': 1 },
    attempts: 2,
    minRetryGapMs: 950,
  },
  {
    feature: 'code',
    fault: 'flaky:503:1,retry-after-ms:400',
    outcome: 'recovered',
    settings: { 'network.retries': 1 },
    attempts: 2,
    minRetryGapMs: 380,
  },
  {
    feature: 'code',
    fault: 'status:429,retry-after:120',
    outcome: 'error',
    message: all('rate-limiting requests (429)', 'Wait 2 minutes and try again'),
    settings: { 'network.retries': 2 },
    attempts: 1,
  },
  {
    feature: 'code',
    fault: 'status:429,retry-after-date:90',
    outcome: 'error',
    message: all('rate-limiting requests (429)', /Wait (89|90) s and try again/),
    settings: { 'network.retries': 2 },
    attempts: 1,
  },
  { feature: 'code', fault: 'in-stream-error:chunk', outcome: 'partial', message: STREAM_MESSAGES.inStream },
  {
    feature: 'code',
    fault: 'reset-before-first-token',
    outcome: 'error',
    message: STREAM_MESSAGES.resetBefore,
  },
  { feature: 'code', fault: 'reset-mid-stream', outcome: 'partial', message: STREAM_MESSAGES.resetMid },
  { feature: 'code', fault: 'stall-first-byte', outcome: 'error', message: STREAM_MESSAGES.stallFirst },
  { feature: 'code', fault: 'stall-mid-stream', outcome: 'partial', message: STREAM_MESSAGES.stallMid },
  { feature: 'code', fault: 'no-done', outcome: 'recovered' },
  { feature: 'code', fault: 'no-done-no-finish', outcome: 'partial', message: STREAM_MESSAGES.truncated },
  { feature: 'code', fault: 'malformed-chunk', outcome: 'partial', message: STREAM_MESSAGES.malformed },
  { feature: 'code', fault: 'json-instead-of-sse', outcome: 'recovered' },
  { feature: 'code', fault: 'big-event:5242880', outcome: 'recovered', timeoutMs: 60_000 },
  { feature: 'code', fault: 'crlf,split-utf8,keepalive', outcome: 'recovered' },
  { feature: 'code', fault: 'cr,role-first,usage-chunk,extra-fields', outcome: 'recovered' },
];

/** Explain Selection: the chat turn it starts keeps what arrived and carries the error inline. */
const EXPLAIN: FaultCase[] = [
  { feature: 'explain', fault: 'status:401:ollama', outcome: 'error', message: HTTP_MESSAGES[401] },
  { feature: 'explain', fault: 'status:404:empty', outcome: 'error', message: HTTP_MESSAGES['404empty'] },
  { feature: 'explain', fault: 'status:503:html', outcome: 'error', message: HTTP_MESSAGES[503] },
  {
    feature: 'explain',
    fault: 'in-stream-error:flat',
    outcome: 'partial',
    message: STREAM_MESSAGES.inStream,
  },
  {
    feature: 'explain',
    fault: 'in-stream-error:event',
    outcome: 'partial',
    message: STREAM_MESSAGES.inStream,
  },
  { feature: 'explain', fault: 'reset-mid-stream', outcome: 'partial', message: STREAM_MESSAGES.resetMid },
  { feature: 'explain', fault: 'stall-mid-stream', outcome: 'partial', message: STREAM_MESSAGES.stallMid },
  { feature: 'explain', fault: 'no-done-no-finish', outcome: 'partial', message: STREAM_MESSAGES.truncated },
  { feature: 'explain', fault: 'malformed-chunk', outcome: 'partial', message: STREAM_MESSAGES.malformed },
  { feature: 'explain', fault: 'stall-first-byte', outcome: 'error', message: STREAM_MESSAGES.stallFirst },
];

/** Generate Image: failures write nothing and say so. */
const IMAGE: FaultCase[] = [
  { feature: 'image', fault: 'status:400:vllm', outcome: 'error', message: HTTP_MESSAGES[400] },
  { feature: 'image', fault: 'status:401:litellm', outcome: 'error', message: HTTP_MESSAGES[401] },
  { feature: 'image', fault: 'status:403:reseller', outcome: 'error', message: HTTP_MESSAGES[403] },
  { feature: 'image', fault: 'status:413:anthropic', outcome: 'error', message: HTTP_MESSAGES[413] },
  { feature: 'image', fault: 'status:429:openai', outcome: 'error', message: HTTP_MESSAGES[429] },
  { feature: 'image', fault: 'status:500:openrouter', outcome: 'error', message: HTTP_MESSAGES[500] },
  { feature: 'image', fault: 'status:502:ollama', outcome: 'error', message: HTTP_MESSAGES[502] },
  { feature: 'image', fault: 'status:504:html', outcome: 'error', message: HTTP_MESSAGES[504] },
  {
    feature: 'image',
    fault: 'reset-before-first-token',
    outcome: 'error',
    message: STREAM_MESSAGES.resetBefore,
  },
  {
    feature: 'image',
    fault: 'image-url-expired',
    outcome: 'error',
    responseFormat: 'url',
    message: all('image link has expired', 'Generate the image again'),
  },
  {
    feature: 'image',
    fault: 'image-url-html',
    outcome: 'error',
    responseFormat: 'url',
    message: all('served text/html instead of an image'),
  },
  {
    feature: 'image',
    fault: 'image-url-redirect:4',
    outcome: 'error',
    responseFormat: 'url',
    message: all('redirected more than 3 times'),
  },
  { feature: 'image', fault: 'image-url-redirect:2', outcome: 'recovered', responseFormat: 'url' },
  {
    feature: 'image',
    fault: 'image-b64-for-url,image-no-revised',
    outcome: 'recovered',
    responseFormat: 'url',
  },
  { feature: 'image', fault: 'image-data-uri,image-jpeg', outcome: 'recovered' },
  {
    feature: 'image',
    fault: 'image-delay:125000',
    outcome: 'error',
    message: all('did not start answering within 120 s', 'raise the time-out in the settings'),
    timeoutMs: 150_000,
    background: true,
  },
];

/** Every host case, in run order (the long image time-out last). */
export const HOST_FAULT_CASES: readonly FaultCase[] = [...CODE, ...EXPLAIN, ...IMAGE];

/** The `it` title of a case. */
export function caseTitle(c: FaultCase): string {
  const how = c.outcome === 'recovered' ? 'recovers' : c.outcome === 'partial' ? 'fails mid-answer' : 'fails';
  return `${c.feature} · ${c.fault}${c.responseFormat === 'url' ? ' (url)' : ''} · ${how}`;
}
