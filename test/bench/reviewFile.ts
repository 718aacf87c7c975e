/** Case 7's file and code block: shared by the runner (to size the chunks) and the extension-host entry. */
import { emulatedMerge } from '../gateway-emulator/mergeAnswer';

/** A file of `lines` numbered lines. */
export function benchFile(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `export const value${i} = ${i}; // line ${i} of the file\n`,
  ).join('');
}

/**
 * A block that rewrites every line but the first, every fourth one changed: not the whole file (its first
 * line differs), so Apply merges it through the model, and the merge has a hunk every four lines.
 */
export function benchBlock(lines: number): string {
  return benchFile(lines)
    .split('\n')
    .slice(1)
    .map((line, i) => ((i + 1) % 4 === 0 ? line.replace(/= (\d+);/, '= $1 * 2;') : line))
    .join('\n');
}

/** The length of the emulator's whole answer to the merge: the merged file in a fence. */
export function benchAnswerLength(lines: number): number {
  const merged = emulatedMerge(benchFile(lines), benchBlock(lines));
  return merged.length + '```\n'.length + '```'.length;
}
