// Deterministic answers of the emulator, exported so tests can compute exactly what to expect.
import { createHash } from 'node:crypto';
import { attachmentEcho } from './attachmentEcho';
import { fixedAnswer } from './fixedAnswers';
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

/** A short stable digest of the request, so different conversations get different bodies. */
function digest(request: AnswerRequest): string {
  const hash = createHash('sha256');
  hash.update(request.model);
  for (const m of request.messages) hash.update(`\u0000${m.role}\u0000${m.content}`);
  return hash.digest('hex').slice(0, 8);
}

const CODE: Record<string, string> = {
  typescript: 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}',
  javascript: 'function greet(name) {\n  return `Hello, ${name}!`;\n}\n\nmodule.exports = { greet };',
  python: 'def greet(name: str) -> str:\n    return f"Hello, {name}!"',
  go: 'func Greet(name string) string {\n\treturn "Hello, " + name + "!"\n}',
  rust: 'pub fn greet(name: &str) -> String {\n    format!("Hello, {}!", name)\n}',
  java: 'public static String greet(String name) {\n    return "Hello, " + name + "!";\n}',
  csharp: 'public static string Greet(string name)\n{\n    return $"Hello, {name}!";\n}',
  html: '<section class="greeting">\n  <h1>Hello, world!</h1>\n</section>',
  css: '.greeting {\n  color: #336699;\n  font-weight: bold;\n}',
  json: '{\n  "greeting": "Hello, world!"\n}',
  shellscript: '#!/bin/sh\ngreet() {\n  echo "Hello, $1!"\n}',
};
const CODE_ALIASES: Record<string, string> = {
  ts: 'typescript',
  js: 'javascript',
  py: 'python',
  cs: 'csharp',
};

/** The code inside the fenced block of a CODE ONLY answer for this language id. */
export function expectedCode(language: string): string {
  const id = language.toLowerCase();
  const known = CODE[CODE_ALIASES[id] ?? id];
  if (known !== undefined) return known;
  return `// ${language}: replacement code\n// line two of the ${language} snippet`;
}

/** The answer text (content only, no reasoning) for a request in non-fault mode. */
export function expectedAnswer(request: AnswerRequest): string {
  const user = lastUserText(request);
  const named = ANSWER_MARKER.exec(user);
  if (named) return fixedAnswer(named[1]);
  const merged = mergeAnswer(systemText(request), user);
  if (merged !== undefined) return merged;

  const system = systemText(request);
  const language = LANGUAGE.exec(system);
  if (system.includes('CODE ONLY') && language) {
    const id = language[1];
    return `Here is the code you asked for ✅\n\`\`\`${id}\n${expectedCode(id)}\n\`\`\`\nHope this helps — 完成.`;
  }

  const d = digest(request);
  const attached = attachmentEcho(user);
  if (attached)
    return `${attached}\n\nHere is a short answer ✨ from \`${request.model}\` — digest \`${d}\`.`;
  const echo = closeOpenFence(codePoints(user).slice(0, 200).join(''));
  return [
    `Echo: ${echo}`,
    '',
    `Here is a short answer ✨ from \`${request.model}\` — 这是回答.`,
    '',
    `- messages: ${request.messages.length}`,
    `- digest: \`${d}\``,
    '- emoji: 🎉👍',
    '',
    '```js',
    `const digest = '${d}';`,
    'console.log(`digest ${digest}`);',
    '```',
  ].join('\n');
}

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

/** True for the reasoning-output variants (`-thinking` suffix). */
export function isThinkingModel(model: string): boolean {
  return model.endsWith('-thinking');
}

/** The reasoning streamed before the answer; non-empty only for `-thinking` models. */
export function expectedReasoning(request: AnswerRequest): string {
  if (!isThinkingModel(request.model)) return '';
  const user = lastUserText(request);
  return [
    `The user sent ${request.messages.length} message(s); the last one has ${user.length} characters.`,
    'I should answer in Markdown, echo the request and add a short code sample 🤔.',
    `Checking the digest ${digest(request)} keeps the answer deterministic.`,
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
