/**
 * The emulator's answer to an Apply merge request (system prompt "MERGE THE CHANGE", the file in `<file>`
 * and the block in `<change>`), deterministic so tests can compute it: the block replaces the file's lines
 * from the first line equal to the block's first non-blank line (trimmed) to the next line equal to its last
 * one; when the file has no such pair of lines, the block is appended at the end.
 */

const SECTION = (tag: string): RegExp =>
  new RegExp(`<${tag}>\\n(\`{3,})[^\\n]*\\n([\\s\\S]*?)\\n?\\1\\n</${tag}>`);

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The file with the block merged in, by the rule above. */
export function emulatedMerge(file: string, block: string): string {
  const fileLines = lines(file.endsWith('\n') || !file ? file : `${file}\n`);
  const blockLines = lines(block.endsWith('\n') ? block : `${block}\n`);
  const nonBlank = blockLines.filter((l) => l.trim() !== '');
  const first = nonBlank[0]?.trim();
  const last = nonBlank[nonBlank.length - 1]?.trim();
  const from = fileLines.findIndex((l) => l.trim() === first);
  const to = from < 0 ? -1 : fileLines.findIndex((l, i) => i >= from && l.trim() === last);
  if (from < 0 || to < 0) return [...fileLines, ...blockLines].join('');
  return [...fileLines.slice(0, from), ...blockLines, ...fileLines.slice(to + 1)].join('');
}

/** The whole answer to a merge request, or undefined when the request is not one. */
export function mergeAnswer(system: string, user: string): string | undefined {
  if (!system.includes('MERGE THE CHANGE')) return undefined;
  const file = SECTION('file').exec(user);
  const change = SECTION('change').exec(user);
  if (!file || !change) return undefined;
  const merged = emulatedMerge(file[2], change[2]);
  const fence = '`'.repeat(Math.max(3, ...(merged.match(/`+/g) ?? []).map((r) => r.length + 1)));
  return `${fence}\n${merged}${merged.endsWith('\n') ? '' : '\n'}${fence}`;
}
