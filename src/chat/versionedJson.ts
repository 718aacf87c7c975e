/**
 * Reading a stored JSON record that carries a format version: the conversation store and the agent's
 * checkpoints both refuse a file cut short by a crash, edited by hand or written by a newer version, with a reason.
 */

/** The value, or why it was refused; `newer` marks a record written by a newer version of the extension. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string; newer?: boolean };

/** Parses `text` as a JSON object `{ version, … }` of exactly `version`. */
export function readVersionedJson(text: string, version: number): ParseResult<Record<string, unknown>> {
  if (text.trim() === '') return { ok: false, reason: 'the file is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'it is not a JSON object' };
  const record = value as Record<string, unknown>;
  const found = record.version;
  if (typeof found !== 'number') return { ok: false, reason: 'it has no format version' };
  if (found > version)
    return {
      ok: false,
      newer: true,
      reason: `it was written by a newer version of the extension (format ${found})`,
    };
  if (found !== version) return { ok: false, reason: `unknown format version ${found}` };
  return { ok: true, value: record };
}
