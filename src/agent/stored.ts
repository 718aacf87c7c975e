/**
 * Reading the agent's records back from the extension's storage: JSON with a format version, validated with
 * valibot, because a file cut short by a crash or edited by hand must be refused with a reason rather than
 * restore the wrong bytes later.
 */
import * as v from 'valibot';
import { readVersionedJson, type ParseResult } from '../chat/versionedJson';

export type { ParseResult };

/** Standard base64 (what Buffer writes), padding included. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Parses `text` as `{ version, … }` of the given version, checked against `schema`. */
export function parseVersioned<S extends v.GenericSchema>(
  text: string,
  version: number,
  schema: S,
): ParseResult<v.InferOutput<S>> {
  const read = readVersionedJson(text, version);
  if (!read.ok) return read;
  const value = read.value;
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, reason: result.issues.map(describeIssue).join('; ') };
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const field = v.getDotPath(issue) ?? 'the record';
  if (issue.kind !== 'schema') return `${field}: ${issue.message}`;
  return issue.input === undefined ? `${field}: missing` : `${field}: expected ${issue.expected}`;
}

/** True when no two items have the same key. */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => string): boolean {
  return new Set(items.map(key)).size === items.length;
}
