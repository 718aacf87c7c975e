/** Where a suggestion ends: the rest of the line, or a block of lines cut at its end or a line limit. */
import { widthOf } from './indent';

/** The most lines a multi-line suggestion shows; longer answers are cut here. */
export const MAX_SUGGESTION_LINES = 12;

/** How the suggestion is cut. */
export interface CutOptions {
  /** True when the cursor is on an empty line: only then may the suggestion span lines. */
  multiLine: boolean;
  /** The cursor's line before the cursor (its indentation, for a multi-line suggestion). */
  linePrefix: string;
  tabSize: number;
}

/** True for a string of whitespace only. */
export function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

const CLOSER = /^[\s]*([)\]}]|end\b|fi\b|done\b|esac\b)/;
const CONTINUATION = /^\s*(else\b|elif\b|except\b|finally\b|catch\b)/;

/** Bracket depth change of one line, ignoring brackets inside simple string literals and line comments. */
function depthChange(line: string): number {
  const code = line
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')
    .replace(/\/\/.*$/, '')
    .replace(/#.*$/, '');
  let d = 0;
  for (const c of code) {
    if (c === '(' || c === '[' || c === '{') d++;
    else if (c === ')' || c === ']' || c === '}') d--;
  }
  return d;
}

/**
 * Cuts `text` (already free of fences and overlaps). `complete` is true when a cut rule fired on
 * evidence in the text (a line break after a single line, a closed block, a line that leaves the
 * block), so that a stream can stop there.
 */
export function cutSuggestion(text: string, options: CutOptions): { text: string; complete: boolean } {
  const lines = text.split('\n');
  if (!options.multiLine) return { text: lines[0], complete: lines.length > 1 && !isBlank(lines[0]) };
  const base = widthOf(options.linePrefix + /^[ \t]*/.exec(lines[0])?.[0], options.tabSize);
  const kept: string[] = [];
  let depth = 0;
  let deeper = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const last = i === lines.length - 1;
    if (kept.length >= MAX_SUGGESTION_LINES) return { text: kept.join('\n'), complete: true };
    if (i > 0 && !isBlank(line)) {
      const width = widthOf(line, options.tabSize);
      // A line left of the block's indentation belongs to the code around the hole.
      if (width < base) return { text: kept.join('\n'), complete: true };
      // Back at the block's indentation after a deeper body, at depth 0: an indentation block ended
      // (Python), unless the line continues it (else, except…) or closes it (handled below).
      if (width === base && deeper && depth === 0 && !CLOSER.test(line) && !CONTINUATION.test(line))
        return { text: kept.join('\n'), complete: true };
      if (width > base) deeper = true;
    }
    if (i > 0 && isBlank(line) && depth === 0 && kept.some((l) => !isBlank(l))) {
      // A blank line at depth 0 ends a group of statements unless the block goes on deeper after it.
      const next = lines.slice(i + 1).find((l) => !isBlank(l));
      if (next === undefined && !last) continue;
      if (next === undefined || widthOf(next, options.tabSize) <= base)
        return { text: kept.join('\n'), complete: next !== undefined };
    }
    const change = depthChange(line);
    if (depth + change < 0) return { text: kept.join('\n'), complete: true };
    depth += change;
    kept.push(line);
    // The block opened in this suggestion closed on a line back at its own indentation: done.
    if (depth === 0 && change < 0 && widthOf(line, options.tabSize) <= base && i > 0 && !last)
      return { text: kept.join('\n'), complete: true };
  }
  // The last line may still be arriving, so reaching the end proves nothing.
  return { text: kept.join('\n'), complete: false };
}
