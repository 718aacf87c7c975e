// Deterministic answers of the emulator, exported so tests can compute exactly what to expect.
import { attachmentEcho, selectionAttachment } from './attachmentEcho';
import { chatAnswer, chooseChatRule } from './chatAnswers';
import { codeFor, codeSpecOf, type CodeSpec } from './codeAnswers';
import { fixedAnswer } from './fixedAnswers';
import { completionAnswer, isHolePrompt } from './completionAnswers';
import { mergeAnswer } from './mergeAnswer';

export { fixedAnswer };

/** The parts of a chat request the answer depends on. */
export interface AnswerRequest {
  model: string;
  messages: ReadonlyArray<{ role: string; content: string }>;
}

/** Token accounting in the wire shape. */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details?: { reasoning_tokens: number };
}

const ANSWER_MARKER = /\[\[answer:([^\]]*)\]\]/;
const ECHO_MARKER = /\[\[echo\]\] ?/g;
const LANGUAGE = /LANGUAGE:\s*([A-Za-z0-9_+#.-]+)/;

/** Splits text into code points, so chunking and truncation never cut a surrogate pair. */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/** The text of the last user message ('' when there is none). */
export function lastUserText(request: AnswerRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    if (request.messages[i].role === 'user') return request.messages[i].content;
  }
  return '';
}

function systemText(request: AnswerRequest): string {
  return request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}

/** What every answer rule sees. */
export interface RuleInput {
  request: AnswerRequest;
  /** The last user message as sent. */
  user: string;
  /** The system messages, joined. */
  system: string;
}

/** One answer rule: `answer` returns the answer text, or undefined when the rule does not apply. */
export interface AnswerRule {
  name: string;
  answer(input: RuleInput): string | undefined;
}

/** The line before the question in a message with attachments (src/chat/context/format.ts). */
const QUESTION_LINE = 'Question:\n';

/** How many code points of the message the echo marker repeats. */
export const ECHO_LIMIT = 200;

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The echo ends with a closing fence when it was cut inside a fenced code block (a quoted selection, say),
 * so the rest of the answer is not swallowed into that block. The CommonMark rule: a fence closes with the
 * same character, at least as long, and nothing but spaces after it.
 */
export function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = FENCE_LINE.exec(line);
    if (!fence) continue;
    const [, marks, rest] = fence;
    if (open === undefined) {
      if (!(marks[0] === '`' && rest.includes('`'))) open = marks;
    } else if (marks[0] === open[0] && marks.length >= open.length && !rest.trim()) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}

/** The fence for a block: longer than any backtick run inside it. */
function fenceFor(code: string): string {
  const longest = Math.max(2, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/** The code-generation request of a system prompt with `CODE ONLY` and `LANGUAGE: <id>`, if it is one. */
function codeSpec(input: RuleInput): CodeSpec | undefined {
  const language = LANGUAGE.exec(input.system);
  if (!input.system.includes('CODE ONLY') || !language) return undefined;
  return codeSpecOf(language[1], input.user);
}

/**
 * Rules in order; the first that answers wins. A new behaviour (say, echoing attached context) is one more
 * entry, placed before the rules it should take precedence over.
 */
export const ANSWER_RULES: AnswerRule[] = [
  {
    // Inline completions ask for a hole to fill (completionAnswers.ts).
    name: 'completion',
    answer: ({ request }) => (isHolePrompt(request) ? completionAnswer(request) : undefined),
  },
  {
    name: 'named answer',
    answer: ({ user }) => {
      const named = ANSWER_MARKER.exec(user);
      return named ? fixedAnswer(named[1]) : undefined;
    },
  },
  {
    // Apply's merge request (src/host/editor/applyBlock.ts): the file with the block merged in (mergeAnswer.ts).
    name: 'apply merge',
    answer: ({ system, user }) => mergeAnswer(system, user),
  },
  {
    // Test-only: hostile-output tests need their Markdown to come back as model output.
    name: 'echo marker',
    answer: ({ user }) => {
      if (!user.includes('[[echo]]')) return undefined;
      const text = codePoints(user.replace(ECHO_MARKER, '')).slice(0, ECHO_LIMIT).join('');
      return `Echo: ${closeOpenFence(text)}`;
    },
  },
  {
    name: 'code generation',
    answer: (input) => {
      const spec = codeSpec(input);
      if (!spec) return undefined;
      const code = codeFor(spec);
      const fence = fenceFor(code);
      // Models wrap code in prose despite "CODE ONLY"; clients must strip it, so the emulator does it too.
      return `Here is the code you asked for ✅\n${fence}${spec.language}\n${code}\n${fence}\nHope this helps — 完成.`;
    },
  },
  {
    // Attachments travel as <attachment> blocks before "Question:"; naming each proves it arrived.
    name: 'attachments',
    answer: ({ user }) => {
      const received = attachmentEcho(user);
      if (!received) return undefined;
      const question = user.slice(user.lastIndexOf(QUESTION_LINE) + QUESTION_LINE.length);
      return `${received}\n\n${chatAnswer(question, selectionAttachment(user))}`;
    },
  },
  { name: 'chat', answer: ({ user }) => chatAnswer(user) },
];

/** The answer text (content only, no reasoning) for a request in non-fault mode. */
export function expectedAnswer(request: AnswerRequest): string {
  const input: RuleInput = { request, user: lastUserText(request), system: systemText(request) };
  for (const rule of ANSWER_RULES) {
    const answer = rule.answer(input);
    if (answer !== undefined) return answer;
  }
  throw new Error('unreachable: the chat rule always answers');
}

/** The code inside the fenced block of the answer to a code-generation request (see CONTRACT.md). */
export function expectedCode(request: AnswerRequest): string {
  const spec = codeSpec({ request, user: lastUserText(request), system: systemText(request) });
  if (!spec)
    throw new Error('expectedCode: not a code request (no CODE ONLY / LANGUAGE in the system prompt)');
  return codeFor(spec);
}

/** The answer to a one-message chat whose user text is `text` (chat answers depend on that text only). */
export function expectedChatAnswer(text: string): string {
  return chatAnswer(text);
}

/**
 * The first line of the answer to `text` as the chat view shows it (inline Markdown removed), for UI tests
 * that wait for a particular answer.
 */
export function answerHeadline(text: string): string {
  const first = chatAnswer(text).split('\n')[0];
  return first.replace(/\*\*|`/g, '');
}

/** True for the reasoning-output variants (`-thinking` suffix). */
export function isThinkingModel(model: string): boolean {
  return model.endsWith('-thinking');
}

/** The reasoning streamed before the answer; non-empty only for `-thinking` models. */
export function expectedReasoning(request: AnswerRequest): string {
  if (!isThinkingModel(request.model)) return '';
  const { rule, topic } = chooseChatRule(lastUserText(request));
  return [
    `The user asks about ${topic}, in a conversation of ${request.messages.length} message(s).`,
    `This reads as a ${rule.name} request, so a short, structured answer fits best 🤔.`,
    'I will keep it concrete and end with something they can try.',
  ].join('\n');
}

/** Usage as the contract defines it: ceil(chars / 4) for the prompt and for the answer. */
export function expectedUsage(request: AnswerRequest, answer = expectedAnswer(request)): WireUsage {
  const promptChars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
  const prompt = Math.ceil(promptChars / 4);
  const completion = Math.ceil(answer.length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Reasoning tokens as reported in `completion_tokens_details.reasoning_tokens`. */
export function reasoningTokens(reasoning: string): number {
  return Math.ceil(reasoning.length / 4);
}
