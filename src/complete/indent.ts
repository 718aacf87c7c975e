/** Indentation of a suggestion in the file's own style (tabs or spaces). */

/**
 * Rewrites the leading whitespace of every line after the first in the style the editor uses: spaces
 * when `insertSpaces`, else tabs (and spaces for a remainder narrower than a tab). The first line
 * continues the cursor's line, so its whitespace is left alone.
 */
export function reindent(text: string, tabSize: number, insertSpaces: boolean): string {
  const size = Number.isInteger(tabSize) && tabSize > 0 ? tabSize : 4;
  return text
    .split('\n')
    .map((line, i) => {
      if (i === 0) return line;
      const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
      if (!lead) return line;
      let width = 0;
      for (const c of lead) width = c === '\t' ? width + size - (width % size) : width + 1;
      const rendered = insertSpaces
        ? ' '.repeat(width)
        : '\t'.repeat(Math.floor(width / size)) + ' '.repeat(width % size);
      return rendered + line.slice(lead.length);
    })
    .join('\n');
}

/** The display width of leading whitespace. */
export function widthOf(ws: string, tabSize: number): number {
  let width = 0;
  for (const c of ws) {
    if (c === '\t') width += tabSize - (width % tabSize);
    else if (c === ' ') width++;
    else break;
  }
  return width;
}
