/**
 * A view of a chat stream for consumers that cannot take back what they showed (a language-model
 * provider's progress, an agent's transcript): reasoning is handed on only once it is known to be
 * reasoning, and `retractReasoning` never appears.
 */

import type { StreamEvent } from './types';

type ReasoningEvent = Extract<StreamEvent, { type: 'reasoning' }>;

/**
 * Holds back `presumed` reasoning until the stream shows it was reasoning (anything else arrives, or the
 * stream ends or fails, without a retraction) and drops it at a `retractReasoning`, whose text follows as
 * text. The splitter retracts only presumed reasoning, so nothing already handed on is ever taken back.
 * At most PRESUME_LIMIT characters are held back while streaming.
 */
export async function* settledReasoning(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  let held: ReasoningEvent[] = [];
  const release = function* (): Generator<StreamEvent> {
    const confirmed = held;
    held = [];
    for (const { text, id, model } of confirmed) yield { type: 'reasoning', text, id, model };
  };
  try {
    for await (const event of events) {
      if (event.type === 'reasoning' && event.presumed) held.push(event);
      else if (event.type === 'retractReasoning') held = [];
      else {
        yield* release();
        yield event;
      }
    }
  } catch (error) {
    // The client retracts unconfirmed reasoning before it reports a failure: what is still held was confirmed.
    yield* release();
    throw error;
  }
  yield* release();
}
