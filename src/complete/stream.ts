/** The gateway client as the completion engine uses it: answer text only. */
import type { ChatCompletionRequest, GatewayClient } from '../gateway/types';

/**
 * Streams the text of a chat answer through `client`. Reasoning is skipped (a suggestion is the answer
 * alone). Leaving the loop early or aborting `signal` closes the request, as the client guarantees.
 */
export async function* answerText(
  client: GatewayClient,
  request: ChatCompletionRequest,
  signal: AbortSignal,
): AsyncGenerator<string> {
  for await (const event of client.streamChatCompletion(request, { signal })) {
    if (event.type === 'text') yield event.text;
  }
}
