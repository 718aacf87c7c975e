/**
 * Turns parsed chat-completion chunks (or one whole completion) into normalised StreamEvents,
 * whatever dialect the server speaks: reasoning fields, inline think tags, usage, finish, errors.
 */

import * as l10n from '@vscode/l10n';
import { errorInfoFromJson } from './errorBody';
import { MalformedResponseError, StreamError, redactError } from './errors';
import { isThinkingModel } from './models';
import { type ThinkSegment, ThinkTagSplitter } from './thinkTags';
import { ToolCallAssembler } from './toolCalls';
import type { StreamEvent, Usage } from './types';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Normalises a `usage` object; undefined when the value is not one. */
function normaliseUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const prompt = count(value.prompt_tokens ?? value.input_tokens);
  const completion = count(value.completion_tokens ?? value.output_tokens);
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: count(value.total_tokens) || prompt + completion,
  };
  const details = value.completion_tokens_details ?? value.output_tokens_details;
  const reasoning = isObject(details) ? details.reasoning_tokens : value.reasoning_tokens;
  if (typeof reasoning === 'number' && Number.isFinite(reasoning)) usage.reasoning_tokens = reasoning;
  return usage;
}

/** Readable text of one `reasoning_details` entry; never an encrypted entry's opaque data. */
function detailText(detail: unknown): string | undefined {
  if (!isObject(detail) || detail.type === 'reasoning.encrypted') return undefined;
  return nonEmptyString(detail.text) ?? nonEmptyString(detail.summary);
}

/** Reasoning text of a delta or message: `reasoning_content`, `reasoning`, or `reasoning_details[]` text. */
function reasoningOf(delta: JsonObject): string | undefined {
  const direct = nonEmptyString(delta.reasoning_content) ?? nonEmptyString(delta.reasoning);
  if (direct) return direct;
  // Only when no plain field is present: OpenRouter sends both, and the text would be doubled.
  if (!Array.isArray(delta.reasoning_details)) return undefined;
  return delta.reasoning_details.map(detailText).filter(Boolean).join('') || undefined;
}

/**
 * True when the server sends reasoning apart from the content, even with no readable text in it
 * (OpenRouter's `reasoning_details` of type `reasoning.encrypted`, next to `reasoning: null`):
 * then the content is the answer.
 */
function hasReasoningField(delta: JsonObject): boolean {
  return Array.isArray(delta.reasoning_details) && delta.reasoning_details.some(isObject);
}

/**
 * An error sent as a flat object instead of a chunk, with no `error` wrapper: vLLM's
 * `{"object":"error","message":…,"type":…,"code":500}` and its family, a top-level `message` with
 * `type`, `code` or `status` and no `choices`. Taken as a chunk it would be an empty, successful answer.
 */
function isFlatError(value: JsonObject): boolean {
  if (Array.isArray(value.choices)) return false;
  if (value.object === 'error') return true;
  const fields = [value.type, value.code, value.status];
  return nonEmptyString(value.message) !== undefined && fields.some((f) => f !== undefined && f !== null);
}

/** Collects the state of one completion while its chunks arrive. */
export class CompletionAssembler {
  id = '';
  model: string;
  /** `created` of the completion (Unix seconds), when the server sent it. */
  created?: number;
  finishReason?: string;
  usage?: Usage;
  private readonly splitter: ThinkTagSplitter;
  private readonly toolCalls = new ToolCallAssembler();
  /** Some text or reasoning was handed on: an error now comes in the middle of the answer. */
  private started = false;

  constructor(
    private readonly requestedModel: string,
    private readonly secret?: string,
  ) {
    this.model = requestedModel;
    this.splitter = new ThinkTagSplitter(isThinkingModel(requestedModel));
  }

  /** One SSE event's parsed data. Throws StreamError for an in-stream error in any dialect. */
  acceptChunk(chunk: unknown, eventName?: string): StreamEvent[] {
    if (eventName === 'error') throw this.streamError(chunk, this.started);
    if (!isObject(chunk))
      throw new MalformedResponseError(l10n.t('The gateway sent a stream chunk that is not a JSON object.'));
    if ((chunk.error !== undefined && chunk.error !== null) || isFlatError(chunk))
      throw this.streamError(chunk, this.started);
    this.noteIdentity(chunk);
    const choice = this.firstChoice(chunk.choices);
    if (!choice) return [];
    if (choice.finish_reason === 'error') throw this.streamError(choice.error ?? choice, this.started);
    const delta = isObject(choice.delta)
      ? choice.delta
      : isObject(choice.message)
        ? choice.message
        : undefined;
    const events = delta ? this.acceptDelta(delta) : [];
    const finish = nonEmptyString(choice.finish_reason);
    if (finish) this.finishReason = finish;
    return events;
  }

  /** A whole `chat.completion` object, e.g. a JSON body where a stream was expected. */
  acceptCompletion(body: unknown): StreamEvent[] {
    if (!isObject(body))
      throw new MalformedResponseError(
        l10n.t('The gateway answered with something other than a completion.'),
      );
    if ((body.error !== undefined && body.error !== null) || isFlatError(body))
      throw this.streamError(body, false);
    if (!Array.isArray(body.choices)) {
      throw new MalformedResponseError(
        l10n.t('The gateway answered without any choices. Try again or pick another model.'),
      );
    }
    return this.acceptChunk(body);
  }

  /** Releases text held back by the think-tag splitter; call once when the stream stops for any reason. */
  flush(): StreamEvent[] {
    return this.toEvents(this.splitter.end());
  }

  /**
   * The closing events: the tool calls (assembled now that every fragment is in; a malformed one throws),
   * usage (when the server sent it), then finish (when it sent a reason).
   */
  closing(): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const call of this.toolCalls.finish(this.requestedModel)) {
      events.push({
        type: 'toolCall',
        callId: call.id,
        name: call.name,
        input: call.input,
        id: this.id,
        model: this.model,
      });
    }
    if (this.usage) events.push({ type: 'usage', usage: this.usage, id: this.id, model: this.model });
    if (this.finishReason)
      events.push({ type: 'finish', reason: this.finishReason, id: this.id, model: this.model });
    return events;
  }

  private noteIdentity(chunk: JsonObject): void {
    this.id = nonEmptyString(chunk.id) ?? this.id;
    this.model = nonEmptyString(chunk.model) ?? this.model;
    if (typeof chunk.created === 'number' && Number.isFinite(chunk.created)) this.created = chunk.created;
    // Servers repeat or update usage; the last one wins. It may arrive on a chunk with empty choices.
    const usage = normaliseUsage(chunk.usage);
    if (usage) this.usage = usage;
  }

  private firstChoice(choices: unknown): JsonObject | undefined {
    if (!Array.isArray(choices)) return undefined;
    const objects = choices.filter(isObject);
    return objects.find((c) => c.index === undefined || c.index === 0) ?? objects[0];
  }

  private acceptDelta(delta: JsonObject): StreamEvent[] {
    const segments: ThinkSegment[] = [];
    const reasoning = reasoningOf(delta);
    if (reasoning || hasReasoningField(delta)) segments.push(...this.splitter.noteReasoningField());
    if (reasoning) segments.push({ kind: 'reasoning', text: reasoning });
    if (typeof delta.content === 'string' && delta.content)
      segments.push(...this.splitter.push(delta.content));
    if (Array.isArray(delta.tool_calls)) this.toolCalls.accept(delta.tool_calls);
    return this.toEvents(segments);
  }

  private toEvents(segments: ThinkSegment[]): StreamEvent[] {
    if (segments.length) this.started = true;
    const { id, model } = this;
    return segments.map((s) => {
      if (s.kind === 'retract') return { type: 'retractReasoning', id, model };
      if (s.kind === 'reasoning' && s.presumed)
        return { type: 'reasoning', text: s.text, presumed: true, id, model };
      return { type: s.kind, text: s.text, id, model };
    });
  }

  private streamError(source: unknown, midStream: boolean): StreamError {
    const info = errorInfoFromJson(source);
    const advice = midStream
      ? l10n.t('The gateway reported an error in the middle of the answer. Try again.')
      : l10n.t('The gateway reported an error instead of an answer.');
    const message = info.message ? `${advice} Gateway said: ${info.message}` : advice;
    const error = new StreamError(message, {
      code: info.code,
      type: info.type,
      requestId: info.requestId,
      gatewayMessage: info.message,
    });
    return redactError(error, this.secret);
  }
}
