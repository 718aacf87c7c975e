/** Prompts for the editor commands. Pure: the host passes in what it read from the editor. */
import type { TextMessage } from '../gateway/types';

interface CodeContext {
  fileName: string;
  languageId: string;
  /** Text of the selection to rewrite; empty when generating at the cursor. */
  selection: string;
  /** A few lines before and after the selection or cursor. */
  before: string;
  after: string;
}

/** Messages asking for code only, in the document's language, to insert at the cursor or replace the selection. */
export function codeGenerationMessages(instruction: string, context: CodeContext): TextMessage[] {
  const system =
    `You are a code generator inside an editor. CODE ONLY: answer with the code and nothing else — ` +
    `no Markdown fences, no explanations before or after. Match the surrounding indentation and style.\n` +
    `LANGUAGE: ${context.languageId}`;
  const around = `File: ${context.fileName}\n\nCode before:\n${fence(context.before)}\n\nCode after:\n${fence(context.after)}`;
  const user = context.selection
    ? `Rewrite the selected code according to the instruction. Answer with the replacement code only.\n\n` +
      `Instruction: ${instruction}\n\nSelected code:\n${fence(context.selection)}\n\n${around}`
    : `Write code to insert at the cursor according to the instruction. Answer with the new code only.\n\n` +
      `Instruction: ${instruction}\n\n${around}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** What Explain Selection reads from the editor: the code, where it is, and a few lines around it. */
export interface ExplainSource {
  fileName: string;
  languageId: string;
  code: string;
  /** 1-based inclusive lines of `code`. */
  startLine: number;
  endLine: number;
  before: string;
  after: string;
}

/** The name the selected code declares first (`add` for `export function add(…)`), if it declares one. */
export function declaredName(code: string): string | undefined {
  const declaration =
    /\b(?:function\*?|class|interface|type|enum|struct|trait|def|fn|func|const|let|var)\s+([A-Za-z_$][\w$]*)/.exec(
      code,
    );
  if (declaration) return declaration[1];
  // A method or a call-like head on the first line: `  async render(items) {`.
  const method = /^\s*(?:(?:public|private|protected|static|async|override)\s+)*([A-Za-z_$][\w$]*)\s*\(/.exec(
    code,
  );
  return method && !/^(if|for|while|switch|catch|return)$/.test(method[1]) ? method[1] : undefined;
}

/** The 1-based line range as Explain Selection names it: `3-7`, or `3` for one line. */
export function lineRangeLabel(startLine: number, endLine: number): string {
  return startLine === endLine ? `${startLine}` : `${startLine}-${endLine}`;
}

/**
 * What Explain Selection sends the model in place of the turn's text (which says what the user asked): the
 * instruction and the lines around the code; the code itself travels as the turn's attachment.
 */
export function explainModelText(source: ExplainSource): string {
  const lines = lineRangeLabel(source.startLine, source.endLine);
  const context = surroundingContext(source.languageId, source.before, source.after);
  return (
    `Explain the attached ${source.languageId} code from ${source.fileName} (lines ${lines}): ` +
    `what it does, how, and anything surprising.${context}`
  );
}

/** The `@gateway /explain` request: the instruction and the lines around the code, which follows it. */
export function explainRequestText(
  fileName: string,
  languageId: string,
  before: string,
  after: string,
): string {
  const context = surroundingContext(languageId, before, after);
  return `Explain this ${languageId} code from ${fileName}: what it does, how, and anything surprising.${context}`;
}

function surroundingContext(languageId: string, before: string, after: string): string {
  return before || after
    ? `\n\nSurrounding lines, for context only:\n${fence(`${before}\n…\n${after}`, languageId)}`
    : '';
}

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}${language}\n${text}\n${marker}`;
}
