// Canned chat answers chosen by keywords of the question. Each rule is a small object in CHAT_RULES, tried in
// order; the first that matches writes the answer. New behaviour is one more rule in the list.
import { codeFor, withoutMarkers } from './codeAnswers';
import { enclosingFunction, functionsIn } from './codeShapes';
import { testTarget } from './intentTemplates';

/** What a chat rule sees: the last user message, plain and as sent. */
export interface ChatInput {
  /** The last user message exactly as sent. */
  raw: string;
  /** Its first line without `[[…]]` markers, for naming the topic. */
  firstLine: string;
  /** The code of a selection attached to the message (Explain Selection), read from its attachment block. */
  selection?: { language: string; code: string };
}

/** One keyword rule: `topic` returns the topic when the rule applies, undefined when it does not. */
export interface ChatRule {
  name: string;
  topic(input: ChatInput): string | undefined;
  /** The answer in Markdown; its first line is a plain sentence (tests match it in the rendered view). */
  answer(topic: string, input: ChatInput): string;
}

const MAX_TOPIC = 60;

/** The text after a keyword (or the whole line), cut at a word boundary and without closing punctuation. */
export function topicAfter(line: string, keyword?: RegExp): string {
  const found = keyword ? keyword.exec(line) : null;
  let topic = (found ? line.slice(found.index + found[0].length) : line).trim();
  topic = topic.replace(/^[:,\s-]+/, '').replace(/[\s.?!:;,]+$/, '');
  if (!topic) topic = line.replace(/[\s.?!:;,]+$/, '');
  if (!topic) return 'this';
  const points = Array.from(topic);
  if (points.length <= MAX_TOPIC) return topic;
  const cut = points.slice(0, MAX_TOPIC).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}

const FENCED = /(`{3,}|~{3,})([\w+#.-]*)\n([\s\S]*?)\n\1/;
const NAMED = /\b(?:function|def|class|func|fn|interface|type|const|let|var)\s+([A-Za-z_$][\w$]*)/g;

const QUOTE_HEADER = /starting at line \d+:\n/;

/** The selection attached or quoted in a message (src/chat/messages.ts withQuote), else its first fenced block. */
function fencedCode({ raw, selection }: ChatInput): { language: string; code: string } | undefined {
  if (selection) return selection;
  const quote = QUOTE_HEADER.exec(raw);
  const m = (quote ? FENCED.exec(raw.slice(quote.index)) : null) ?? FENCED.exec(raw);
  return m ? { language: m[2] || 'code', code: m[3] } : undefined;
}

const SURROUNDING = /Surrounding lines, for context only:\n(`{3,})[^\n]*\n([\s\S]*?)\n\1/;

/** The code before the selection, from Explain's "Surrounding lines" block (before its `…` line). */
function codeBefore(raw: string): string {
  const around = SURROUNDING.exec(raw)?.[2] ?? '';
  const cut = around.indexOf('\n…\n');
  return cut < 0 ? '' : around.slice(0, cut);
}

/** What an explanation is about: the selected symbol, and whether the selection defines it or sits inside it. */
interface Subject {
  name?: string;
  params: string[];
  relation: 'defines' | 'inside' | 'names' | 'snippet';
}

/**
 * The symbol a selection is about: a function it defines (the first with parameters, else the first), else
 * another name it defines, else the lone identifier selected, else the function it sits in (read from the
 * surrounding lines), else nothing.
 */
function subjectOf(code: string, before: string): Subject {
  const functions = functionsIn(code);
  const fn = functions.find((f) => f.params.length) ?? functions[0];
  if (fn) return { name: fn.name, params: fn.params.map((p) => p.name), relation: 'defines' };
  const named = new RegExp(NAMED.source).exec(code);
  if (named) return { name: named[1], params: [], relation: 'defines' };
  if (/^[A-Za-z_$][\w$]*$/.test(code.trim())) return { name: code.trim(), params: [], relation: 'names' };
  const outer = enclosingFunction(`${before}\n`);
  if (outer) return { name: outer.name, params: outer.params.map((p) => p.name), relation: 'inside' };
  return { params: [], relation: 'snippet' };
}

/** Lower-cases the first letter of a sentence-like topic ("Think about x" → "think about x", "API" stays). */
function inSentence(topic: string): string {
  return /^[A-Z][a-z]/.test(topic) ? topic.charAt(0).toLowerCase() + topic.slice(1) : topic;
}

/**
 * A keyword rule over the first line: `pattern` must match; the topic is what follows it, or the whole line
 * when `wholeLine` (for keywords in the middle of a sentence).
 */
function keywordRule(name: string, pattern: RegExp, answer: ChatRule['answer'], wholeLine = false): ChatRule {
  return {
    name,
    topic: (input) =>
      pattern.test(input.firstLine)
        ? inSentence(topicAfter(input.firstLine, wholeLine ? undefined : pattern))
        : undefined,
    answer,
  };
}

const LIST_ITEMS: Array<[RegExp, string[]]> = [
  [
    /colou?r/i,
    [
      '**Teal** — calm, and readable on light and dark themes',
      '**Amber** — warm, good for warnings',
      '**Indigo** — deep, works for accents',
    ],
  ],
  [
    /name/i,
    [
      '**Atlas** — short and easy to say',
      '**Juniper** — friendly and distinctive',
      '**Relay** — says what it does',
    ],
  ],
];
const GENERIC_ITEMS = [
  '**Start small** — the simplest version that works',
  '**Compare two options** side by side before choosing',
  '**Write the decision down**, with the reason',
];

/** Rules in order; the last one always applies. */
export const CHAT_RULES: ChatRule[] = [
  keywordRule('thanks', /^\s*(thanks|thank you|thx)\b/i, () =>
    [
      'You are welcome! 😊',
      '',
      'Ask again any time — I can explain code, draft a function or review a change.',
    ].join('\n'),
  ),
  keywordRule('greeting', /^\s*(hello|hi|hey|good (morning|afternoon|evening)|你好)\b/i, () =>
    [
      'Hello! 👋 How can I help you today?',
      '',
      'A few things I can do:',
      '',
      '- **Explain** a selection: *Model Gateway: Explain Selection*',
      '- **Generate code** at the cursor: *Model Gateway: Generate Code*',
      '- **Answer questions** here, in English or 中文',
    ].join('\n'),
  ),
  {
    name: 'explain code',
    topic: (input) => {
      const block = fencedCode(input);
      return block ? block.language : undefined;
    },
    answer: (language, input) => {
      const { code } = fencedCode(input) ?? { code: '' };
      const subject = subjectOf(code, codeBefore(input.raw));
      const others = [...new Set(Array.from(code.matchAll(NAMED), (m) => m[1]))].filter(
        (n) => n !== subject.name,
      );
      const names = subject.relation === 'defines' ? [subject.name!, ...others].slice(0, 3) : [];
      const lines = code.split('\n').length;
      const count = `${lines} line${lines === 1 ? '' : 's'}`;
      const headline = {
        defines: `This ${language} code defines ${names.map((n) => `\`${n}\``).join(', ')} in ${count}. 🔍`,
        inside: `${lines === 1 ? 'This line' : `These ${count}`} of ${language} ${lines === 1 ? 'is' : 'are'} part of \`${subject.name}\`. 🔍`,
        names: `\`${subject.name}\` is a name in this ${language} code. 🔍`,
        snippet: `This ${language} code is a short snippet of ${count}. 🔍`,
      }[subject.relation];
      const signature = subject.name
        ? `\`${subject.name}${subject.params.length || subject.relation !== 'names' ? `(${subject.params.join(', ')})` : ''}\``
        : '';
      const takes = subject.params.length
        ? `takes ${subject.params.map((p) => `\`${p}\``).join(', ')} and returns a result`
        : 'runs its steps in order';
      return [
        headline,
        '',
        '**What it does**',
        '',
        `- ${signature ? `${signature} ${takes}` : 'It runs top to bottom'} without side effects.`,
        '- Nothing in it waits on I/O, so it is cheap to call often.',
        '',
        '**Worth knowing**',
        '',
        `- Add a test for ${signature || 'it'} with the edge cases (empty input, very large values).`,
        '- A one-line doc comment would help the next reader.',
      ].join('\n');
    },
  },
  keywordRule('write code', /\b(write|implement|create|generate)\b/i, (topic) =>
    [
      `Here is a small sketch for ${topic}. ✨`,
      '',
      '```ts',
      codeFor({ language: 'typescript', instruction: topic }),
      '```',
      '',
      'Rename it to fit your code base, and add a test for the edge cases.',
    ].join('\n'),
  ),
  {
    // "unit test for add()": a test of the named function, even without a verb.
    name: 'write test',
    topic: (input) => testTarget(input.firstLine),
    answer: (name) =>
      [
        `Here is a test for \`${name}\`. ✅`,
        '',
        '```ts',
        codeFor({ language: 'typescript', instruction: `a test for ${name}()` }),
        '```',
        '',
        'Run it with `node --test` (after compiling), and add a case for each edge you care about.',
      ].join('\n'),
  },
  keywordRule('explain', /\b(explain|what is|what are|what's|why|how does|how do)\b/i, (topic) =>
    [
      `In short: ${topic} comes down to three ideas. 💡`,
      '',
      '1. **The core idea** — what it is and the problem it solves.',
      '2. **How it works** — the moving parts, one at a time.',
      '3. **When to use it** — and when a simpler tool is enough.',
      '',
      '> Tip: try it on a tiny example first, then grow it.',
    ].join('\n'),
  ),
  keywordRule(
    'fix',
    /\b(error|bug|fix|broken|fails?|crash(es)?|exception)\b/i,
    (topic) =>
      [
        `Let's track down this problem: ${topic}. 🔧`,
        '',
        '1. Reproduce it with the smallest input you can.',
        '2. Read the first error in the log, not the last.',
        '3. Check the assumptions around it:',
        '',
        '```ts',
        'try {',
        '  run();',
        '} catch (error) {',
        "  console.error('run failed:', error);",
        '}',
        '```',
      ].join('\n'),
    true,
  ),
  keywordRule('list', /\b(name|list|suggest|ideas|give me)\b/i, (topic, input) => {
    const items = LIST_ITEMS.find(([pattern]) => pattern.test(input.firstLine))?.[1] ?? GENERIC_ITEMS;
    return [
      `Here are three suggestions for ${topic}: 🎯`,
      '',
      ...items.map((item, i) => `${i + 1}. ${item}`),
    ].join('\n');
  }),
  {
    name: 'fallback',
    topic: (input) => inSentence(topicAfter(input.firstLine)),
    answer: (topic) =>
      [
        `Good question — here is how I would approach ${topic}. 💡`,
        '',
        '- **Start** with the smallest version that works.',
        '- **Measure** before optimising: `console.time` is often enough.',
        '- **Write down** what you decided, so the next change is easy.',
        '',
        '| Step | Effort |',
        '| --- | --- |',
        '| Prototype | small |',
        '| Harden | medium |',
      ].join('\n'),
  },
];

/** The input rules see for a last user message. */
export function chatInput(raw: string, selection?: ChatInput['selection']): ChatInput {
  const firstLine = withoutMarkers(raw.split('\n').find((line) => withoutMarkers(line)) ?? '');
  return { raw, firstLine, selection };
}

/** The first rule that applies and its topic (the fallback always applies). */
export function chooseChatRule(
  raw: string,
  selection?: ChatInput['selection'],
): { rule: ChatRule; topic: string; input: ChatInput } {
  const input = chatInput(raw, selection);
  for (const rule of CHAT_RULES) {
    const topic = rule.topic(input);
    if (topic !== undefined) return { rule, topic, input };
  }
  throw new Error('unreachable: the fallback rule always applies');
}

/** The canned chat answer for a last user message (its question, and the code of a selection attached to it). */
export function chatAnswer(raw: string, selection?: ChatInput['selection']): string {
  const { rule, topic, input } = chooseChatRule(raw, selection);
  return rule.answer(topic, input);
}
