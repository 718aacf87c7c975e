import { diffArrays } from 'diff';

/** A run of text both sides share, or a change: the original's text and the proposed text in its place. */
export type Segment = { kind: 'same'; text: string } | { kind: 'change'; oldText: string; newText: string };

/** Splits text into lines that keep their own endings ("\n" or "\r\n"), so joining them gives the text back. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * Line diff of two line arrays (jsdiff's Myers diff), as segments. Lines compare exactly, so a change in
 * whitespace or in line ending is a change too; a last line without a newline differs from the same line with one.
 */
export function diffLineArrays(oldLines: string[], newLines: string[]): Segment[];
/** The same, or undefined when the diff needs more than `maxEditLength` line edits. */
export function diffLineArrays(
  oldLines: string[],
  newLines: string[],
  maxEditLength: number,
): Segment[] | undefined;
export function diffLineArrays(
  oldLines: string[],
  newLines: string[],
  maxEditLength?: number,
): Segment[] | undefined {
  const parts =
    maxEditLength === undefined
      ? diffArrays(oldLines, newLines)
      : diffArrays(oldLines, newLines, { maxEditLength });
  if (!parts) return undefined;
  const segments: Segment[] = [];
  let change: { kind: 'change'; oldText: string; newText: string } | undefined;
  for (const part of parts) {
    const text = part.value.join('');
    if (!part.added && !part.removed) {
      change = undefined;
      segments.push({ kind: 'same', text });
      continue;
    }
    if (!change) {
      change = { kind: 'change', oldText: '', newText: '' };
      segments.push(change);
    }
    if (part.added) change.newText += text;
    else change.oldText += text;
  }
  return segments;
}

/** The changes that turn `original` into `proposed`, line by line. */
export function diffSegments(original: string, proposed: string): Segment[] {
  return diffLineArrays(splitLines(original), splitLines(proposed));
}
