import { appendToTurn, finishTurn, retractReasoning } from '../../chat/conversation';
import type { AssistantTurn, Conversation, TurnError, TurnStatus } from '../../chat/types';
import { isGatewayError } from '../../gateway';
import type { ChatCompletionRequest, GatewayClient, Usage } from '../../gateway/types';
import type { HostToWebview } from '../../protocol';
import { describeError } from '../errors';

/** What the stream ended with; the turn in the conversation is already updated. */
interface StreamOutcome {
  status: Exclude<TurnStatus, 'streaming'>;
  error?: TurnError;
}

interface StreamTurnArgs {
  client: GatewayClient;
  request: ChatCompletionRequest;
  conversation: Conversation;
  turn: AssistantTurn;
  signal: AbortSignal;
  post: (message: HostToWebview) => void;
  /** Called after every change so the store can coalesce a save. */
  onChange: () => void;
  /**
   * Saves the finished turn. It runs before the webview is told the turn ended, so an answer shown as finished
   * is on disk: a window reloaded (or a host killed) right after it cannot bring it back as interrupted.
   */
  saveFinished: () => Promise<void>;
}

/**
 * Posts deltas at most this often: one message per frame is plenty, and fewer keeps the webview calm. A delta
 * after a quiet spell goes at once (the first token included): waiting for the timer would add up to a frame
 * to every first token's way to the screen.
 */
const POST_INTERVAL_MS = 16;

/** Streams one assistant turn into the conversation and the webview, posting only deltas. */
export async function streamTurn(args: StreamTurnArgs): Promise<StreamOutcome> {
  const { conversation, turn, post } = args;
  let pendingText = '';
  let pendingReasoning = '';
  let retract = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPost = Number.NEGATIVE_INFINITY;
  let reasoningStarted: number | undefined;
  let reasoningMs: number | undefined;
  let usage: Usage | undefined;
  let finishReason: string | undefined;

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pendingText && !pendingReasoning && !retract) return;
    lastPost = performance.now();
    post({
      type: 'delta',
      turnId: turn.id,
      ...(retract ? { retractReasoning: true } : {}),
      ...(pendingText ? { text: pendingText } : {}),
      ...(pendingReasoning ? { reasoning: pendingReasoning } : {}),
    });
    pendingText = '';
    pendingReasoning = '';
    retract = false;
  };
  const schedule = (): void => {
    if (timer) return;
    const wait = lastPost + POST_INTERVAL_MS - performance.now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  };

  let outcome: StreamOutcome;
  try {
    for await (const event of args.client.streamChatCompletion(args.request, { signal: args.signal })) {
      if (event.type === 'text') {
        if (reasoningStarted !== undefined && reasoningMs === undefined)
          reasoningMs = Date.now() - reasoningStarted;
        appendToTurn(conversation, turn.id, { text: event.text });
        pendingText += event.text;
        schedule();
      } else if (event.type === 'reasoning') {
        reasoningStarted ??= Date.now();
        appendToTurn(conversation, turn.id, { reasoning: event.text });
        pendingReasoning += event.text;
        schedule();
      } else if (event.type === 'retractReasoning') {
        // It was the answer, which follows as text: the thinking section goes, with its clock.
        retractReasoning(conversation, turn.id);
        pendingReasoning = '';
        retract = true;
        reasoningStarted = undefined;
        reasoningMs = undefined;
        schedule();
      } else if (event.type === 'usage') {
        usage = event.usage;
      } else if (event.type === 'finish') {
        finishReason = event.reason;
      }
      args.onChange();
    }
    outcome = { status: 'complete' };
  } catch (error) {
    outcome = outcomeOf(error, args.signal);
  }
  if (reasoningStarted !== undefined && reasoningMs === undefined)
    reasoningMs = Date.now() - reasoningStarted;
  flush();
  finishTurn(conversation, turn.id, {
    status: outcome.status,
    usage,
    error: outcome.error,
    finishReason,
    reasoningMs,
  });
  await args.saveFinished();
  post({
    type: 'turnFinished',
    turnId: turn.id,
    status: outcome.status,
    usage,
    error: outcome.error,
    finishReason,
    reasoningMs,
  });
  return outcome;
}

function outcomeOf(error: unknown, signal: AbortSignal): StreamOutcome {
  if (signal.aborted || (isGatewayError(error) && error.kind === 'aborted')) return { status: 'stopped' };
  if (isGatewayError(error) && error.kind === 'truncated')
    return { status: 'truncated', error: describeError(error) };
  return { status: 'error', error: describeError(error) };
}
