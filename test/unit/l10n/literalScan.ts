// Finds user-facing string literals in src/host and src/webview that do not go through l10n's t().
// A literal counts as user-facing when it reaches a sink (a notification, a quick pick's title, a status bar item,
// an element's text or accessible name...) or when it reads like a sentence; t('…') and log lines are fine.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/** Calls whose arguments a person reads: from the given index on, or only the one index in brackets. */
const CALL_SINKS: Record<string, number | [number]> = {
  showInformationMessage: 0,
  showWarningMessage: 0,
  showErrorMessage: 0,
  setStatusBarMessage: 0,
  createOutputChannel: 0,
  markdown: 0,
  progress: 0,
  confirmInStatusBar: 0,
  showError: 1,
  warn: [0],
  refuse: 0,
  textButton: 0,
  iconButton: 1,
  note: 1,
  turnHeader: 1,
  setItems: 1,
  h: 2,
};

/** Properties (in object literals or assignments) whose value a person reads. */
const PROPERTY_SINKS = new Set([
  'title',
  'placeholder',
  'placeHolder',
  'prompt',
  'tooltip',
  'text',
  'textContent',
  'label',
  'detail',
  'description',
  'message',
  'openLabel',
  'aria-label',
  'ariaLabel',
  'name',
  'error',
  'refused',
  'unavailable',
  'validationMessage',
]);

/** Receivers of log lines: the Output channel's log stays in English, like VS Code's own. */
const LOG_METHODS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'appendLine']);

export interface Finding {
  file: string;
  line: number;
  text: string;
}

/** The text of a literal, with `${…}` for each substitution. */
function literalText(
  node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression,
): string {
  if (!ts.isTemplateExpression(node)) return node.text;
  return node.head.text + node.templateSpans.map((s) => '${…}' + s.literal.text).join('');
}

/** Letters a person reads: two or more letters in a row, outside `${…}` and codicon names like `$(diff)`. */
function hasWords(text: string): boolean {
  return /[A-Za-z]{2,}/.test(text.replace(/\$\{…\}|\$\([\w~-]+\)/g, ''));
}

/** Reads like a sentence or a label: starts with a capital and has a space between words, or ends in … or . */
function readsLikeProse(text: string): boolean {
  const plain = text.replace(/\$\{…\}|\$\([\w~-]+\)/g, '').trim();
  return /^[A-Z][a-z']*[ ,:][A-Za-z]/.test(plain) || /^[A-Z][a-z]+.*(…|\.)$/.test(plain);
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function isTranslateCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't';
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 't';
}

function isLogCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || !LOG_METHODS.has(callee.name.text)) return false;
  const receiver = callee.expression.getText();
  return /(^|\.)(log|channel|output|console)$/i.test(receiver);
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return undefined;
}

type Verdict = 'translated' | 'sink' | 'other';

/** Walks up from a literal through the expressions that pass it on, to the place that uses it. */
function classify(node: ts.Node): Verdict {
  let child: ts.Node = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isCallExpression(parent)) {
      if (isTranslateCall(parent)) return 'translated';
      if (isLogCall(parent)) return 'other';
      if (parent.expression === child) return 'other';
      const name = calleeName(parent);
      const sink = name === undefined ? undefined : CALL_SINKS[name];
      const index = parent.arguments.indexOf(child as ts.Expression);
      if (Array.isArray(sink) ? index === sink[0] : sink !== undefined && index >= sink) return 'sink';
      return 'other';
    }
    if (ts.isNewExpression(parent)) return 'other';
    if (ts.isPropertyAssignment(parent)) {
      const name = propertyName(parent.name);
      return parent.initializer === child && name && PROPERTY_SINKS.has(name) ? 'sink' : 'other';
    }
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const target = parent.left;
      const name = ts.isPropertyAccessExpression(target) ? target.name.text : undefined;
      return parent.right === child && name && PROPERTY_SINKS.has(name) ? 'sink' : 'other';
    }
    if (ts.isBinaryExpression(parent)) {
      const op = parent.operatorToken.kind;
      const passes =
        op === ts.SyntaxKind.PlusToken ||
        op === ts.SyntaxKind.QuestionQuestionToken ||
        op === ts.SyntaxKind.BarBarToken ||
        op === ts.SyntaxKind.AmpersandAmpersandToken;
      if (!passes) return 'other';
      continue;
    }
    if (ts.isConditionalExpression(parent)) {
      if (parent.condition === child) return 'other';
      continue;
    }
    if (
      ts.isParenthesizedExpression(parent) ||
      ts.isTemplateSpan(parent) ||
      ts.isTemplateExpression(parent) ||
      ts.isArrayLiteralExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isSpreadElement(parent)
    )
      continue;
    return 'other';
  }
  return 'other';
}

/** Literals that are never shown however they read: comparisons, keys, imports, types. */
function neverShown(node: ts.Node): boolean {
  const parent = node.parent;
  if (
    ts.isImportDeclaration(parent) ||
    ts.isExportDeclaration(parent) ||
    ts.isExternalModuleReference(parent)
  )
    return true;
  if (ts.isLiteralTypeNode(parent) || ts.isCaseClause(parent) || ts.isElementAccessExpression(parent))
    return true;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return true;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    return (
      op === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      op === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
      op === ts.SyntaxKind.InKeyword
    );
  }
  return false;
}

/** The user-facing literals of one file that do not go through t(). */
export function scanSource(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
  const found: Finding[] = [];
  const lines = source.split('\n');
  /** `// l10n-exempt: why` on the literal's line or the line above keeps it as it is (a product name, a prompt). */
  const exempt = (line: number): boolean =>
    /l10n-exempt:/.test(`${lines[line - 2] ?? ''}\n${lines[line - 1]}`);
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node)
    ) {
      const text = literalText(node);
      if (hasWords(text) && !neverShown(node)) {
        const verdict = classify(node);
        if (verdict === 'sink' || (verdict === 'other' && readsLikeProse(text) && !insideLogOrThrow(node))) {
          const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
          if (!exempt(line)) found.push({ file, line, text });
        }
      }
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Prose in a log line or a thrown internal error is for the log, not for a person's eyes. */
function insideLogOrThrow(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isCallExpression(parent) && (isLogCall(parent) || isTranslateCall(parent))) return true;
    if (ts.isThrowStatement(parent)) return true;
    if (ts.isStatement(parent) || ts.isFunctionLike(parent)) return false;
  }
  return false;
}

/** Every .ts file below a folder. */
export function tsFilesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFilesBelow(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Scans files, naming them relative to `root`. */
export function scanFiles(root: string, files: string[]): Finding[] {
  return files.flatMap((path) => scanSource(relative(root, path), readFileSync(path, 'utf8')));
}
