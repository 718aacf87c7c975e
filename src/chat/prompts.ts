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

/** The user's request for an explanation; the code itself travels as the turn's quote. */
export function explainRequestText(
  fileName: string,
  languageId: string,
  before: string,
  after: string,
): string {
  const context =
    before || after
      ? `\n\nSurrounding lines, for context only:\n${fence(`${before}\n…\n${after}`, languageId)}`
      : '';
  return `Explain this ${languageId} code from ${fileName}: what it does, how, and anything surprising.${context}`;
}

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}${language}\n${text}\n${marker}`;
}
