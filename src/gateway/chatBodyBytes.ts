/**
 * The chat body as the UTF-8 bytes that go on the wire, the messages' bytes reused from the last body. A chat
 * sends its whole conversation with every question: joining 400 messages' JSON into one string and encoding it
 * again (undici encodes a string body) was a measurable part of the extension's time between Enter and the
 * request (issue 25). The next body of a conversation starts with the last one's messages, so only the new
 * messages are encoded. The bytes are always those of `chatBody`'s text.
 */
import { chatBodyParts } from './config';
import type { ChatCompletionRequest } from './types';

/** The last body's messages' JSON strings and the UTF-8 bytes of them joined by commas. */
let last: { messages: string[]; bytes: Buffer } | undefined;

/** True when `earlier` is the start of `messages` (the same strings, compared as strings). */
function startsWith(messages: readonly string[], earlier: readonly string[]): boolean {
  if (earlier.length === 0 || earlier.length > messages.length) return false;
  for (let i = 0; i < earlier.length; i++) if (messages[i] !== earlier[i]) return false;
  return true;
}

function messagesBytes(messages: string[]): Buffer {
  let bytes: Buffer;
  if (last && startsWith(messages, last.messages)) {
    const added = messages.slice(last.messages.length);
    bytes = added.length ? Buffer.concat([last.bytes, Buffer.from(`,${added.join(',')}`)]) : last.bytes;
  } else {
    bytes = Buffer.from(messages.join(','));
  }
  // One body kept (the last): another conversation's request builds its own, as every body did before.
  last = { messages, bytes };
  return bytes;
}

/** `Buffer.from(chatBody(request, stream))`, reusing the bytes of the messages the last body began with. */
export function chatBodyBytes(request: ChatCompletionRequest, stream: boolean): Uint8Array {
  const { head, messages, tail } = chatBodyParts(request, stream);
  return Buffer.concat([Buffer.from(head), messagesBytes(messages), Buffer.from(tail)]);
}
