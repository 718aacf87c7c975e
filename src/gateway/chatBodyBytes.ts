/**
 * The chat body as the UTF-8 bytes that go on the wire, the messages' bytes reused from the last body. A chat
 * sends its whole conversation with every question: joining 400 messages' JSON into one string and encoding it
 * again (undici encodes a string body) was a measurable part of the extension's time between Enter and the
 * request (issue 25). The next body of a conversation starts with the last one's messages, so only the new
 * messages are encoded. The bytes are always those of `chatBody`'s text.
 */
import { chatBodyParts } from './config';
import type { ChatCompletionRequest } from './types';

/**
 * The last body, its messages' JSON strings, and where their bytes (joined by commas) lie in it: a grown
 * conversation's body copies them from there.
 */
let last: { messages: string[]; body: Buffer; start: number; end: number } | undefined;

/** True when `earlier` is the start of `messages` (the same strings, compared as strings). */
function startsWith(messages: readonly string[], earlier: readonly string[]): boolean {
  if (earlier.length === 0 || earlier.length > messages.length) return false;
  for (let i = 0; i < earlier.length; i++) if (messages[i] !== earlier[i]) return false;
  return true;
}

/**
 * `Buffer.from(chatBody(request, stream))`, reusing the bytes of the messages the last body began with. The body
 * is one allocation and one copy of them: a 300 KB conversation's prefix was copied twice (joined with the new
 * messages, then with the head and tail), and each fresh large buffer costs its page faults.
 */
export function chatBodyBytes(request: ChatCompletionRequest, stream: boolean): Uint8Array {
  const { head, messages, tail } = chatBodyParts(request, stream);
  const earlier = last && startsWith(messages, last.messages) ? last : undefined;
  const added = earlier ? messages.slice(earlier.messages.length) : messages;
  const headBytes = Buffer.from(head);
  const addedBytes = Buffer.from(added.length ? `${earlier ? ',' : ''}${added.join(',')}` : '');
  const tailBytes = Buffer.from(tail);
  const kept = earlier ? earlier.end - earlier.start : 0;
  const body = Buffer.allocUnsafe(headBytes.length + kept + addedBytes.length + tailBytes.length);
  let at = headBytes.copy(body, 0);
  if (earlier) at += earlier.body.copy(body, at, earlier.start, earlier.end);
  at += addedBytes.copy(body, at);
  tailBytes.copy(body, at);
  // One body kept (the last): another conversation's request builds its own, as every body did before.
  last = { messages, body, start: headBytes.length, end: at };
  return body;
}
