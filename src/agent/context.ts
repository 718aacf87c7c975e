/**
 * The agent's share of the model's context: estimating a request's prompt, and eliding the oldest tool
 * results when the conversation nears the context so that a long run goes on.
 */
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from '../chat/tokens';
import type { AgentMessage, AgentToolCall } from './types';

/**
 * Estimates prompts message by message. Messages are never changed in place (elision replaces the object),
 * so each one is estimated once: a step costs the new messages, not the whole conversation again.
 */
export class PromptMeter {
  private readonly cache = new WeakMap<AgentMessage, number>();

  constructor(private readonly estimateTokens: (text: string) => number) {}

  /** Estimated tokens of one message, its role and delimiters included. */
  messageTokens(message: AgentMessage): number {
    const cached = this.cache.get(message);
    if (cached !== undefined) return cached;
    let tokens = MESSAGE_OVERHEAD_TOKENS + this.estimateTokens(message.content);
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) tokens += this.callTokens(call);
    if (message.role === 'tool') tokens += this.estimateTokens(message.name);
    this.cache.set(message, tokens);
    return tokens;
  }

  /** Estimated tokens of a call as the model wrote it. */
  callTokens(call: AgentToolCall): number {
    return this.estimateTokens(call.name) + this.estimateTokens(call.raw ?? JSON.stringify(call.input));
  }

  /** Estimated prompt tokens of a request made of these messages. */
  promptTokens(messages: readonly AgentMessage[]): number {
    let tokens = REPLY_PRIMING_TOKENS;
    for (const message of messages) tokens += this.messageTokens(message);
    return tokens;
  }
}

/** What elision did, for the UI's meter. */
export interface Elision {
  messages: AgentMessage[];
  /** One note per elided result, e.g. "result of read_file src/a.ts elided to fit the context". */
  notes: string[];
  promptTokensBefore: number;
  promptTokensAfter: number;
}

/**
 * Replaces the oldest tool results by a one-line note until the prompt is within `limitTokens`. Results at
 * `protectFrom` and after (the latest step's) are kept: the model has not read them yet. Returns undefined
 * when nothing had to go; the prompt may still be over the limit when nothing more can go.
 */
export function elideOldToolResults(
  messages: readonly AgentMessage[],
  meter: PromptMeter,
  limitTokens: number,
  protectFrom: number,
  extraTokens = 0,
): Elision | undefined {
  const before = meter.promptTokens(messages) + extraTokens;
  if (before <= limitTokens) return undefined;
  const calls = new Map<string, AgentToolCall>();
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) calls.set(c.id, c);
  const result = [...messages];
  const notes: string[] = [];
  let tokens = before;
  for (let i = 0; i < Math.min(protectFrom, result.length) && tokens > limitTokens; i++) {
    const m = result[i];
    if (m.role !== 'tool') continue;
    const note = elisionNote(m.name, calls.get(m.callId));
    if (m.content === note) continue;
    const replacement: AgentMessage = { ...m, content: note };
    tokens += meter.messageTokens(replacement) - meter.messageTokens(m);
    result[i] = replacement;
    notes.push(note);
  }
  if (notes.length === 0) return undefined;
  return { messages: result, notes, promptTokensBefore: before, promptTokensAfter: tokens };
}

/** The note that stands for an elided result: the tool and its first text argument (a path, a query). */
export function elisionNote(toolName: string, call: AgentToolCall | undefined): string {
  const first = call ? Object.values(call.input).find((v) => typeof v === 'string' && v !== '') : undefined;
  const subject = typeof first === 'string' ? ` ${oneLine(first)}` : '';
  return `result of ${toolName}${subject} elided to fit the context; call the tool again if you need it`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
