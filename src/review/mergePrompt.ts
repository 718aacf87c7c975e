/** The request that asks a fast model to merge a chat code block into a file. */
import { fenceFor } from '../chat/fence';
import type { TextMessage } from '../gateway/types';

/** What the model is given: the file as it is now and the block to merge into it. */
export interface MergeInput {
  fileName: string;
  languageId: string;
  fileText: string;
  block: string;
}

function fenced(text: string, language: string): string {
  const fence = fenceFor(text);
  return `${fence}${language}\n${text}${text.endsWith('\n') || !text ? '' : '\n'}${fence}`;
}

/**
 * Messages for the merge. The file and the change travel in `<file>` and `<change>` sections, each one
 * fenced block; the answer must be the whole updated file in one fenced block.
 */
export function mergeMessages(input: MergeInput): TextMessage[] {
  const system =
    'You apply a code change to a file. MERGE THE CHANGE: the change may be a fragment, with comments such ' +
    'as "... existing code ..." standing for parts it leaves out. Answer with the whole updated file in one ' +
    'fenced code block and nothing else. Keep every line the change does not touch exactly as it is, with ' +
    'the same indentation, and do not add explanations or placeholders.';
  const user =
    `File: ${input.fileName}\n\n<file>\n${fenced(input.fileText, input.languageId)}\n</file>\n\n` +
    `<change>\n${fenced(input.block, input.languageId)}\n</change>`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
