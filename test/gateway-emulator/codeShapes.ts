// Just enough reading of code for the emulator's templates: function headers, their parameters, and the
// function a position sits in. Heuristics over lines (no parser), deterministic, good for the demo's code.

/** One parameter of a function header: its name, its declared type ('' when untyped), and whether it may be left out. */
export interface Param {
  name: string;
  type: string;
  optional: boolean;
}

/** A function found in code: its name, parameters and the index of its header line. */
export interface FunctionShape {
  name: string;
  params: Param[];
  line: number;
}

const IDENT = '[A-Za-z_$][\\w$]*';
const NOT_FUNCTIONS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'with',
  'elif',
]);
/** Header forms: `function name(`, `def name(`, `name = (…) =>`, and a method `name(…) {`. */
const HEADERS: RegExp[] = [
  new RegExp(`\\bfunction\\s*\\*?\\s*(${IDENT})\\s*(?:<[^>]*>)?\\(([^)]*)\\)`),
  new RegExp(`^\\s*(?:async\\s+)?def\\s+(${IDENT})\\s*\\(([^)]*)\\)`),
  new RegExp(`\\b(${IDENT})\\s*=\\s*(?:async\\s*)?\\(([^)]*)\\)[^=]*=>`),
  new RegExp(
    `^\\s*(?:(?:public|private|protected|static|async|override)\\s+)*(${IDENT})\\s*\\(([^)]*)\\)[^;=]*\\{\\s*$`,
  ),
];

/** Splits a parameter list at top-level commas (generics, defaults and destructuring may nest). */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of list) {
    if ('<([{'.includes(ch)) depth++;
    if ('>)]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The parameters of a header's parameter list; `self`/`cls` and destructured parameters are left out. */
export function paramsOf(list: string): Param[] {
  const params: Param[] = [];
  for (const part of splitTopLevel(list)) {
    const cleaned = part.replace(/^(?:\.\.\.|readonly\s+|public\s+|private\s+|protected\s+)+/, '');
    const match = new RegExp(`^(${IDENT})(\\?)?\\s*(?::\\s*([^=]+))?(=)?`).exec(cleaned);
    if (!match || match[1] === 'self' || match[1] === 'cls') continue;
    params.push({ name: match[1], type: (match[3] ?? '').trim(), optional: Boolean(match[2] || match[4]) });
  }
  return params;
}

/** The function whose header is on `line`, if the line is one. */
export function headerOf(line: string, index = 0): FunctionShape | undefined {
  for (const pattern of HEADERS) {
    const match = pattern.exec(line);
    if (match && !NOT_FUNCTIONS.has(match[1]))
      return { name: match[1], params: paramsOf(match[2]), line: index };
  }
  return undefined;
}

/** Every function header in `code`, in order. */
export function functionsIn(code: string): FunctionShape[] {
  return code
    .split(/\r?\n/)
    .map((line, index) => headerOf(line, index))
    .filter((shape): shape is FunctionShape => shape !== undefined);
}

const indentOf = (line: string): number => /^[ \t]*/.exec(line)![0].length;

/**
 * The innermost function still open at the end of `before` (the code up to a cursor): for braces, the
 * innermost unclosed `{` whose header names a function; for Python, the last `def` indented less than the
 * cursor's line.
 */
export function enclosingFunction(before: string): FunctionShape | undefined {
  const lines = before.split(/\r?\n/);
  const last = lines[lines.length - 1];
  const open: Array<FunctionShape | undefined> = [];
  lines.forEach((line, index) => {
    for (const ch of line.replace(/(['"`])(?:\\.|(?!\1).)*\1|\/\/.*$/g, '')) {
      if (ch === '{')
        open.push(headerOf(line, index) ?? (index > 0 ? headerOf(lines[index - 1], index - 1) : undefined));
      if (ch === '}') open.pop();
    }
  });
  const braced = [...open].reverse().find((shape) => shape !== undefined);
  if (braced) return braced;
  for (let i = lines.length - 2; i >= 0; i--) {
    const def = /^\s*(?:async\s+)?def\s/.test(lines[i]) ? headerOf(lines[i], i) : undefined;
    if (def && indentOf(lines[i]) < indentOf(last) && lines[i].trimEnd().endsWith(':')) return def;
  }
  return undefined;
}

/** True when a type reads as numeric (TypeScript, Python, Java…). */
export function isNumeric(type: string): boolean {
  return /^(number|float|int|double|long|bigint|f64|f32|i32|i64|usize)$/.test(type.trim());
}

/** True when a type reads as text. */
export function isText(type: string): boolean {
  return /^(string|str|String|&str)$/.test(type.trim());
}
