/**
 * The chat body as the UTF-8 bytes that go on the wire, in parts, the messages' bytes reused from an earlier body.
 * A chat sends its whole conversation with every question: joining 400 messages' JSON into one string and
 * encoding it again (undici encodes a string body) was a measurable part of the extension's time between Enter
 * and the request (issue 25), and so was then copying the kept bytes into a fresh 300 KB buffer (its allocation
 * was a quarter of the sampled time of a send in the extension host). The next body of a conversation starts with
 * its last one's messages, so only the new messages are encoded, and the kept bytes go on the wire as they are.
 * The parts joined are always the bytes of `chatBody`'s text.
 */
import { chatBodyParts } from './config';
import type { ChatCompletionRequest } from './types';

/**
 * Runs of kept message bytes past this many are joined into one: the client writes each part to the socket on
 * its own, and a conversation adds a run with every question.
 */
const MAX_KEPT_RUNS = 8;

/**
 * A body under this many bytes goes out joined: undici writes one buffer with the headers in one call, and an
 * iterable one part at a time, each after an await (time to first token, case 1, read 1.07× bare undici with
 * every body in parts).
 */
const JOIN_BELOW = 64 * 1024;

/**
 * Large bodies kept at once, the latest first. More than one: a chat's next body must still find its own after
 * other requests were made in between (another chat, an agent run, a title), and small requests (inline
 * completions, a keystroke apart) are never kept, so they cannot push a chat's body out.
 */
const KEPT_BODIES = 4;

/**
 * Each kept body's messages' JSON strings, and their bytes joined by commas, in runs (one per body that added
 * messages). Never written to after they are made, so a request still on its way can share them.
 */
let kept: { messages: string[]; runs: Uint8Array[] }[] = [];

/** True when `earlier` is the start of `messages` (the same strings, compared as strings). */
function startsWith(messages: readonly string[], earlier: readonly string[]): boolean {
  if (earlier.length === 0 || earlier.length > messages.length) return false;
  for (let i = 0; i < earlier.length; i++) if (messages[i] !== earlier[i]) return false;
  return true;
}

/**
 * `Buffer.from(chatBody(request, stream))`, in parts when it is large (joined, they are those bytes), reusing the
 * bytes of the messages a kept large body began with: only the messages added since are encoded, and a large body's
 * kept bytes are not copied.
 */
export function chatBodyBytes(request: ChatCompletionRequest, stream: boolean): Uint8Array | Uint8Array[] {
  const { head, messages, tail } = chatBodyParts(request, stream);
  const index = kept.findIndex((body) => startsWith(messages, body.messages));
  const earlier = index < 0 ? undefined : kept[index];
  let runs = earlier?.runs ?? [];
  const added = messages.slice(earlier?.messages.length ?? 0);
  if (added.length) runs = [...runs, Buffer.from(`${runs.length ? ',' : ''}${added.join(',')}`)];
  if (runs.length > MAX_KEPT_RUNS) runs = [Buffer.concat(runs)];
  const parts = [Buffer.from(head), ...runs, Buffer.from(tail)];
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  if (length < JOIN_BELOW) return Buffer.concat(parts, length);
  // The body it grew is replaced by it; the others stay, the oldest dropped past the limit.
  const others = index < 0 ? kept : kept.filter((_, i) => i !== index);
  kept = [{ messages, runs }, ...others].slice(0, KEPT_BODIES);
  return parts;
}
