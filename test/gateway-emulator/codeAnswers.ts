// Canned but plausible code for Generate Code requests: a test when the instruction asks for one of a named
// function, else a new function named from the instruction, in the request's language; or the selected code
// rewritten in two separate places (intentTemplates.ts).
import { functionsIn } from './codeShapes';
import { isTestIntent, rewriteFunction, sentence, testCode, testTarget } from './intentTemplates';

/** What a code request asks for, as read from the prompt the extension sends (src/chat/prompts.ts). */
export interface CodeSpec {
  /** The document's language id (`LANGUAGE: <id>` in the system prompt). */
  language: string;
  /** The user's instruction, fault and answer markers removed. */
  instruction: string;
  /** The selected code to rewrite; undefined when code is inserted at the cursor. */
  selection?: string;
  /** The code around the cursor or selection (the prompt's "Code before" and "Code after"), '' when absent. */
  context?: string;
}

const MARKER = /\[\[[a-z]+:[^\]]*\]\]/g;
const STOPWORDS = new Set(
  (
    'a an the and or of to for in on with that which who it its this these new please me my some write ' +
    'add create make implement generate code function method func helper snippet returns return called named ' +
    'i want need can you should would'
  ).split(' '),
);
/** Words that pick an arithmetic operation, and its symbol. */
const MATH: Record<string, string> = {
  multiply: '*',
  multiplies: '*',
  product: '*',
  times: '*',
  subtract: '-',
  subtracts: '-',
  minus: '-',
  difference: '-',
  divide: '/',
  divides: '/',
  quotient: '/',
  sum: '+',
  sums: '+',
  plus: '+',
  adds: '+',
};

/** Removes `[[fault:…]]`-style markers and collapses whitespace. */
export function withoutMarkers(text: string): string {
  return text.replace(MARKER, ' ').replace(/\s+/g, ' ').trim();
}

/** The lower-case words of the instruction, letters and digits only. */
function words(instruction: string): string[] {
  return withoutMarkers(instruction)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** "multiplies" → "multiply", "returns" → "return": the first word reads as an imperative. */
function imperative(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/[^su]s$/.test(word) && word.length > 3) return word.slice(0, -1);
  return word;
}

/** Up to three words that name the function, e.g. ['multiply', 'two', 'numbers']. */
export function nameWords(instruction: string): string[] {
  const kept = words(instruction).filter((w) => !STOPWORDS.has(w));
  if (kept.length === 0) return ['generated'];
  const picked = kept.slice(0, 3);
  picked[0] = imperative(picked[0]);
  if (/^[0-9]/.test(picked[0])) picked.unshift('fn');
  return picked;
}

type Case = 'camel' | 'pascal' | 'snake';
const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** Joins name words in a language's naming convention. */
export function functionName(instruction: string, style: Case): string {
  const w = nameWords(instruction);
  if (style === 'snake') return w.join('_');
  const pascal = w.map(cap).join('');
  return style === 'pascal' ? pascal : pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** The operation a generated function performs. */
type TextOp = 'greet' | 'upper' | 'lower' | 'reverse' | 'trim';
type Op = { kind: 'math'; symbol: string } | { kind: 'text'; does: TextOp };

/** Picks the operation from keywords of the instruction. */
function operation(instruction: string): Op {
  const w = words(instruction);
  for (const word of w) if (MATH[word]) return { kind: 'math', symbol: MATH[word] };
  if (w.some((x) => /^(numbers?|add|addition|total)$/.test(x))) return { kind: 'math', symbol: '+' };
  if (w.some((x) => /^(greet|greeting|greets|hello)$/.test(x))) return { kind: 'text', does: 'greet' };
  if (w.some((x) => /^(upper|uppercase|capitalize|shout)$/.test(x))) return { kind: 'text', does: 'upper' };
  if (w.some((x) => /^(lower|lowercase)$/.test(x))) return { kind: 'text', does: 'lower' };
  if (w.some((x) => /^(reverse|reverses|reversed)$/.test(x))) return { kind: 'text', does: 'reverse' };
  return { kind: 'text', does: 'trim' };
}

/** A one-line description from the name words, safe inside any comment ("Multiply two numbers."). */
function summary(instruction: string): string {
  return `${cap(nameWords(instruction).join(' '))}.`;
}

interface Language {
  style: Case;
  comment: (text: string) => string;
  fn?: (name: string, doc: string, op: Op) => string;
}

const slashes = (text: string): string => `// ${text}`;
const hash = (text: string): string => `# ${text}`;

/** Expression text for a text operation, per language. */
function textExpr(op: Extract<Op, { kind: 'text' }>, forms: Partial<Record<TextOp, string>>): string {
  return forms[op.does] ?? forms.trim ?? '';
}

const LANGUAGES: Record<string, Language> = {
  typescript: {
    style: 'camel',
    comment: slashes,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `/** ${doc} */\nexport function ${name}(a: number, b: number): number {\n  return a ${op.symbol} b;\n}`
        : `/** ${doc} */\nexport function ${name}(text: string): string {\n  return ${textExpr(op, { greet: '`Hello, ${text}!`', upper: 'text.toUpperCase()', lower: 'text.toLowerCase()', reverse: "[...text].reverse().join('')", trim: 'text.trim()' })};\n}`,
  },
  javascript: {
    style: 'camel',
    comment: slashes,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `/** ${doc} */\nfunction ${name}(a, b) {\n  return a ${op.symbol} b;\n}`
        : `/** ${doc} */\nfunction ${name}(text) {\n  return ${textExpr(op, { greet: '`Hello, ${text}!`', upper: 'text.toUpperCase()', lower: 'text.toLowerCase()', reverse: "[...text].reverse().join('')", trim: 'text.trim()' })};\n}`,
  },
  python: {
    style: 'snake',
    comment: hash,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `def ${name}(a: float, b: float) -> float:\n    """${doc}"""\n    return a ${op.symbol} b`
        : `def ${name}(text: str) -> str:\n    """${doc}"""\n    return ${textExpr(op, { greet: 'f"Hello, {text}!"', upper: 'text.upper()', lower: 'text.lower()', reverse: 'text[::-1]', trim: 'text.strip()' })}`,
  },
  go: {
    style: 'pascal',
    comment: slashes,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `// ${name}: ${doc}\nfunc ${name}(a, b float64) float64 {\n\treturn a ${op.symbol} b\n}`
        : `// ${name}: ${doc}\nfunc ${name}(text string) string {\n\treturn ${textExpr(op, { greet: '"Hello, " + text + "!"', upper: 'strings.ToUpper(text)', lower: 'strings.ToLower(text)', trim: 'strings.TrimSpace(text)' })}\n}`,
  },
  rust: {
    style: 'snake',
    comment: slashes,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `/// ${doc}\npub fn ${name}(a: f64, b: f64) -> f64 {\n    a ${op.symbol} b\n}`
        : `/// ${doc}\npub fn ${name}(text: &str) -> String {\n    ${textExpr(op, { greet: 'format!("Hello, {}!", text)', upper: 'text.to_uppercase()', lower: 'text.to_lowercase()', reverse: 'text.chars().rev().collect()', trim: 'text.trim().to_string()' })}\n}`,
  },
  java: {
    style: 'camel',
    comment: slashes,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `/** ${doc} */\npublic static double ${name}(double a, double b) {\n    return a ${op.symbol} b;\n}`
        : `/** ${doc} */\npublic static String ${name}(String text) {\n    return ${textExpr(op, { greet: '"Hello, " + text + "!"', upper: 'text.toUpperCase()', lower: 'text.toLowerCase()', reverse: 'new StringBuilder(text).reverse().toString()', trim: 'text.trim()' })};\n}`,
  },
  csharp: {
    style: 'pascal',
    comment: slashes,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `/// <summary>${doc}</summary>\npublic static double ${name}(double a, double b)\n{\n    return a ${op.symbol} b;\n}`
        : `/// <summary>${doc}</summary>\npublic static string ${name}(string text)\n{\n    return ${textExpr(op, { greet: '$"Hello, {text}!"', upper: 'text.ToUpper()', lower: 'text.ToLower()', trim: 'text.Trim()' })};\n}`,
  },
  shellscript: {
    style: 'snake',
    comment: hash,
    fn: (name, doc, op) =>
      op.kind === 'math'
        ? `# ${doc}\n${name}() {\n  echo $(( $1 ${op.symbol} $2 ))\n}`
        : `# ${doc}\n${name}() {\n  ${textExpr(op, { greet: 'echo "Hello, $1!"', upper: `printf '%s\\n' "$1" | tr '[:lower:]' '[:upper:]'`, lower: `printf '%s\\n' "$1" | tr '[:upper:]' '[:lower:]'`, trim: `printf '%s\\n' "$1" | xargs` })}\n}`,
  },
  html: { style: 'snake', comment: (t) => `<!-- ${t} -->` },
  css: { style: 'snake', comment: (t) => `/* ${t} */` },
  json: { style: 'camel', comment: () => '' },
  sql: { style: 'snake', comment: (t) => `-- ${t}` },
  yaml: { style: 'snake', comment: hash },
  ruby: { style: 'snake', comment: hash },
  markdown: { style: 'snake', comment: (t) => `<!-- ${t} -->` },
};
const ALIASES: Record<string, string> = {
  ts: 'typescript',
  typescriptreact: 'typescript',
  js: 'javascript',
  javascriptreact: 'javascript',
  py: 'python',
  cs: 'csharp',
  sh: 'shellscript',
  bash: 'shellscript',
  scss: 'css',
  less: 'css',
  xml: 'html',
};

function languageOf(id: string): Language {
  const key = id.toLowerCase();
  return LANGUAGES[ALIASES[key] ?? key] ?? { style: 'camel', comment: slashes };
}

/** Text safe inside a one-line comment of any syntax (no terminators, no newlines). */
function commentSafe(text: string): string {
  return withoutMarkers(text)
    .replace(/\*\/|-->|\r|\n/g, ' ')
    .slice(0, 100)
    .trim();
}

/** New code for an insertion: a function (or the language's closest equivalent) named from the instruction. */
function newCode(spec: CodeSpec): string {
  const lang = languageOf(spec.language);
  const name = functionName(spec.instruction, lang.style);
  const id = spec.language.toLowerCase();
  const kind = ALIASES[id] ?? id;
  const target = testTarget(spec.instruction);
  const test = target ? testCode(spec.language, target, spec.context ?? '') : undefined;
  if (test) return test;
  if (lang.fn) return lang.fn(name, summary(spec.instruction), operation(spec.instruction));
  if (kind === 'html')
    return `<section class="${name.replace(/_/g, '-')}">\n  <h2>${summary(spec.instruction)}</h2>\n</section>`;
  if (kind === 'css') return `.${name.replace(/_/g, '-')} {\n  display: flex;\n  gap: 0.5rem;\n}`;
  if (kind === 'json') return `{\n  "${name}": true\n}`;
  return `${lang.comment(summary(spec.instruction))}\n${lang.comment(`TODO: ${name}`)}`;
}

/**
 * The selection rewritten in two separate places, so a review shows two hunks: for a function with parameters,
 * a doc comment and a guard (intentTemplates.ts); otherwise a comment line above and one below (same
 * indentation). A test instruction keeps the selection and adds the test after it.
 */
function rewritten(spec: CodeSpec & { selection: string }): string {
  const { selection } = spec;
  const kind = ALIASES[spec.language.toLowerCase()] ?? spec.language.toLowerCase();
  if (kind === 'json') {
    // JSON has no comments: the visible change is a consistent two-space layout.
    try {
      return JSON.stringify(JSON.parse(selection), null, 2);
    } catch {
      return selection;
    }
  }
  const eol = selection.includes('\r\n') ? '\r\n' : '\n';
  const body = selection.replace(/(\r?\n)+$/, '');
  const lines = body.split(/\r?\n/);
  // "write tests for the selected code" names no function: the test is of the selection's first function.
  const selected = functionsIn(body);
  const target = isTestIntent(spec.instruction)
    ? (testTarget(spec.instruction) ?? (selected.find((f) => f.params.length) ?? selected[0])?.name)
    : undefined;
  const test = target ? testCode(spec.language, target, `${spec.context ?? ''}\n${body}`) : undefined;
  if (test) return [...lines, '', ...test.split('\n')].join(eol);
  const rewrite = rewriteFunction(spec.language, spec.instruction, lines);
  if (rewrite) return rewrite.join(eol);
  const indent = /^[ \t]*/.exec(selection)?.[0] ?? '';
  const comment = languageOf(spec.language).comment;
  const above = comment(sentence(commentSafe(spec.instruction)));
  const below = comment(`End of the change (${lines.length} line${lines.length === 1 ? '' : 's'} kept).`);
  return [`${indent}${above}`, ...lines, `${indent}${below}`].join(eol);
}

/** The code a code request gets (the text inside the fenced block of the answer). */
export function codeFor(spec: CodeSpec): string {
  return spec.selection !== undefined && spec.selection.trim()
    ? rewritten({ ...spec, selection: spec.selection })
    : newCode(spec);
}

const INSTRUCTION = /^Instruction: (.*)$/m;
const SELECTED = /Selected code:\n(`{3,})[^\n]*\n([\s\S]*?)\n\1(?:\n|$)/;
const AROUND = (label: string): RegExp =>
  new RegExp(`${label}:\\n(\`{3,})[^\\n]*\\n([\\s\\S]*?)\\n\\1(?:\\n|$)`);

/** Reads the instruction and selection from the user message of a code request. */
export function codeSpecOf(language: string, user: string): CodeSpec {
  const instruction = withoutMarkers(INSTRUCTION.exec(user)?.[1] ?? user.split('\n')[0] ?? '');
  const selected = SELECTED.exec(user);
  const context = ['Code before', 'Code after']
    .map((label) => AROUND(label).exec(user)?.[2] ?? '')
    .join('\n');
  return { language, instruction, selection: selected ? selected[2] : undefined, context };
}
