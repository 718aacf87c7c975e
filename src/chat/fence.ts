/** Markdown code fences that the fenced text cannot close early. */

/** A backtick fence longer than any backtick run inside the code, so the code cannot close it early. */
export function fenceFor(code: string): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}
