/**
 * Pulls the code out of a model answer that should have been code only, while it streams.
 * Models often wrap code in a Markdown fence and a line of prose despite being told not to.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const PROSE_LEAD = /^(here|sure|certainly|of course|below|this|the following|okay|ok)\b|:\s*$/i;

/** The code in `text` so far. With `final`, the answer is complete; otherwise text that may still change is held back. */
export function extractCode(text: string, final: boolean): string {
  const lines = text.split('\n');
  // The last line may be incomplete while streaming; it is only used once a newline (or the end) settles it.
  const complete = final ? lines : lines.slice(0, -1);
  const partial = final ? '' : (lines.at(-1) ?? '');
  const open = complete.findIndex((line) => FENCE.test(line));
  if (open >= 0) return fencedBody(complete, open, partial, final);
  if (!final && couldStartFence(partial)) return unfencedSoFar(complete, '');
  if (!final && complete.length === 0) return '';
  return final ? trimBlankEdges(unfencedSoFar(complete, '')) : unfencedSoFar(complete, partial);
}

function fencedBody(lines: string[], open: number, partial: string, final: boolean): string {
  const marker = FENCE.exec(lines[open])![1];
  const body: string[] = [];
  for (const line of lines.slice(open + 1)) {
    const close = FENCE.exec(line);
    if (close && close[1][0] === marker[0] && close[1].length >= marker.length && close[2].trim() === '') {
      return body.join('\n');
    }
    body.push(line);
  }
  if (!final && partial && !couldStartFence(partial)) return [...body, partial].join('\n');
  return body.join('\n');
}

/** Unfenced answers are code, less a first line that reads as a lead-in sentence. */
function unfencedSoFar(lines: string[], partial: string): string {
  const all = partial ? [...lines, partial] : lines;
  const first = all.findIndex((l) => l.trim() !== '');
  if (first >= 0 && PROSE_LEAD.test(all[first].trim()) && !/[;{}()=]/.test(all[first])) {
    return all.slice(first + 1).join('\n');
  }
  return all.join('\n');
}

function couldStartFence(partial: string): boolean {
  const t = partial.trimStart();
  return t.length > 0 && t.length <= 3 + 20 && /^(`{1,}|~{1,})/.test(t) && partial.length - t.length <= 3;
}

function trimBlankEdges(code: string): string {
  return code.replace(/^\s*\n/, '').replace(/\n\s*$/, '');
}
