/** Readable model names derived from ids, for pickers and the status bar (issue 18, "Readable names"). */

/**
 * The spec's id shape: `<vendor>-<family>-<major>[-<minor>]-<yyyymmdd>[-thinking]`. The date is required, so
 * ids of other servers ("gpt-4o", "llama-3-8b", "my-model-2") never match and show as they are.
 */
const SPEC_ID = /^[a-z]+-([a-z]+)-(\d{1,2})(?:-(\d{1,2}))?-\d{8}(-thinking)?$/;

/** "Sonnet 4.5 · thinking" for `alpha-sonnet-4-5-20250929-thinking`, "Haiku 3.5" for `alpha-haiku-3-5-20241022`; other ids unchanged. */
export function readableModelName(id: string): string {
  const match = SPEC_ID.exec(id.trim());
  if (!match) return id;
  const [, family, major, minor, thinking] = match;
  const name = `${family.charAt(0).toUpperCase()}${family.slice(1)} ${minor ? `${major}.${minor}` : major}`;
  return thinking ? `${name} · thinking` : name;
}
