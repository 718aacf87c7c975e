// Completion mode of the emulator: predictable answers to the extension's hole-filling prompts
// (src/complete/prompt.ts). Answers look like a chatty chat model's: fenced, with the line before the
// cursor repeated and a sentence after the fence, so clients must post-process them.
import { createHash } from 'node:crypto';
import { enclosingFunction, isNumeric, type FunctionShape } from './codeShapes';

/** The hole marker of the extension's prompt (the unit tests check that both agree). */
export const EMULATOR_HOLE_MARKER = '<|HOLE|>';

interface HoleRequest {
  messages: ReadonlyArray<{ role: string; content: string }>;
}

/** The parts of a hole prompt the answer depends on. */
export interface ParsedHole {
  language: string;
  before: string;
  after: string;
}

/** True when the request is a hole-filling prompt: a system message about holes and a marked user message. */
export function isHolePrompt(request: HoleRequest): boolean {
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  const user = request.messages.filter((m) => m.role === 'user').pop()?.content ?? '';
  return system.includes('code completion engine') && user.includes(EMULATOR_HOLE_MARKER);
}

/** Reads the language and the code around the hole from the prompt's user message. */
export function parseHole(request: HoleRequest): ParsedHole {
  const user = request.messages.filter((m) => m.role === 'user').pop()?.content ?? '';
  const language = /^Language: (.*)$/m.exec(user)?.[1] ?? 'plaintext';
  const body = user.slice(user.indexOf('\n\n') + 2);
  const at = body.indexOf(EMULATOR_HOLE_MARKER);
  return { language, before: body.slice(0, at), after: body.slice(at + EMULATOR_HOLE_MARKER.length) };
}

/**
 * A block for an empty line inside `fn` (ending with one braced block, where the client cuts a suggestion): a
 * check of its parameters, or a debug trace naming it when it has none.
 */
function blockInside(fn: FunctionShape, pad: string, python: boolean): string[] {
  const names = fn.params.map((p) => p.name);
  if (python)
    return names.length
      ? [
          `if ${names.map((n) => `${n} is None`).join(' or ')}:`,
          `${pad}    raise ValueError(f"${fn.name}: expected ${names.map((n) => `{${n}!r}`).join(', ')}")`,
        ]
      : ['if __debug__:', `${pad}    print("${fn.name}: starting")`];
  // Each block starts with a plain statement, so typing through its first characters meets no auto-closed bracket.
  if (!names.length)
    return [
      'const started = Date.now();',
      `${pad}if (process.env.DEBUG) {`,
      `${pad}  console.debug(\`${fn.name}: started at \${new Date(started).toISOString()}\`);`,
      `${pad}  console.debug(\`${fn.name}: node \${process.version}\`);`,
      `${pad}}`,
    ];
  const numeric = fn.params.every((p) => isNumeric(p.type));
  const check = numeric
    ? names.map((n) => `!Number.isFinite(${n})`).join(' || ')
    : names.map((n) => `${n} === undefined`).join(' || ');
  return [
    `const args = { ${names.join(', ')} };`,
    `${pad}if (${check}) {`,
    `${pad}  throw new ${numeric ? 'RangeError' : 'TypeError'}(\`${fn.name}: expected ${numeric ? 'finite numbers' : 'every argument'}, got \${JSON.stringify(args)}\`);`,
    `${pad}}`,
  ];
}

/**
 * The clean suggestion for a hole (what the editor should show). On an empty line inside a function, a block
 * that checks the function's parameters, or traces it when it has none; on an empty line
 * outside any function, a five-line function. After `return`, the parameters combined; elsewhere, the rest of
 * the line, which depends on the text before the cursor (and passes the enclosing function's parameters on).
 */
export function expectedCompletion(hole: ParsedHole): string {
  const linePrefix = hole.before.slice(hole.before.lastIndexOf('\n') + 1);
  const python = hole.language === 'python';
  const fn = enclosingFunction(hole.before);
  if (!linePrefix.trim()) {
    const pad = linePrefix;
    if (fn) return blockInside(fn, pad, python).join('\n');
    if (python)
      return [
        'def completed(value):',
        `${pad}    doubled = value * 2`,
        `${pad}    result = doubled + 1`,
        `${pad}    return result`,
      ].join('\n');
    return [
      'function completed(value) {',
      `${pad}  const doubled = value * 2;`,
      `${pad}  const result = doubled + 1;`,
      `${pad}  return result;`,
      `${pad}}`,
    ].join('\n');
  }
  const names = fn?.params.map((p) => p.name) ?? [];
  if (/\breturn $/.test(linePrefix) && names.length) return `${names.join(' + ')}${python ? '' : ';'}`;
  const tag = createHash('sha256').update(linePrefix.trim()).digest('hex').slice(0, 6);
  return `suggested_${tag}(${names.join(', ')})${python ? '' : ';'}`;
}

/** The answer text streamed for a hole prompt. */
export function completionAnswer(request: HoleRequest): string {
  const hole = parseHole(request);
  const linePrefix = hole.before.slice(hole.before.lastIndexOf('\n') + 1);
  const repeated = linePrefix.trimStart();
  return `\`\`\`${hole.language}\n${repeated}${expectedCompletion(hole)}\n\`\`\`\nThis completes the code at the cursor.`;
}
