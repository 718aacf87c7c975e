// What reached the emulator: its chat requests, and bounded waits for a request made after a given point.
import type { Emulator, RecordedRequest } from '../gateway-emulator';
import { until } from './poll';

/** The path of a chat completion request. */
export const CHAT_PATH = '/v1/chat/completions';

/** Whether a recorded request is a chat completion (not a model list, an image or a download). */
export const isChatRequest = (r: RecordedRequest): boolean => r.path === CHAT_PATH;

/** The path of an image generation request. */
export const IMAGES_PATH = '/v1/images/generations';

/** Whether a recorded request asks for images. */
export const isImageRequest = (r: RecordedRequest): boolean => r.path === IMAGES_PATH;

/** The chat requests `emulator` recorded, from the `since`-th recorded request on. */
export function chatRequestsOf(emulator: Pick<Emulator, 'requests'>, since = 0): RecordedRequest[] {
  return emulator.requests.slice(since).filter(isChatRequest);
}

/**
 * Waits until a request that `emulator` recorded after its first `since` (take `requests.length` before the
 * action) matches `match` (bounded).
 */
export function untilRequestSince(
  emulator: Pick<Emulator, 'requests'>,
  since: number,
  match: (r: RecordedRequest) => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  return until(() => emulator.requests.slice(since).some(match), timeoutMs, what);
}

/** Waits until a chat request reached `emulator` after its first `since` requests (bounded). */
export function untilChatRequestSince(
  emulator: Pick<Emulator, 'requests'>,
  since: number,
  timeoutMs = 10_000,
  what = 'the chat request at the gateway',
): Promise<void> {
  return untilRequestSince(emulator, since, isChatRequest, timeoutMs, what);
}

/** Waits until the emulator has sent the whole response to a request made after its first `since` (bounded). */
export function untilAnsweredSince(
  emulator: Pick<Emulator, 'requests'>,
  since: number,
  timeoutMs = 20_000,
  what = 'the answer to end at the gateway',
): Promise<void> {
  return untilRequestSince(emulator, since, (r) => r.responseEnded, timeoutMs, what);
}

/** Waits until the client closed a request made after the emulator's first `since`, before its end (bounded). */
export function untilClosedSince(
  emulator: Pick<Emulator, 'requests'>,
  since: number,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  return untilRequestSince(emulator, since, (r) => r.clientClosed, timeoutMs, what);
}

/** The body of a chat request as the tests read it. */
export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
}

/** The body of the last chat request `emulator` recorded; throws when none reached it. */
export function lastChatBody(emulator: Pick<Emulator, 'requests'>): ChatBody {
  const request = chatRequestsOf(emulator).at(-1);
  if (!request) throw new Error('no chat request reached the gateway');
  return request.body as ChatBody;
}
