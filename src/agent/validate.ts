/**
 * Checks a tool call's input against the tool's JSON schema, in the subset our tools use: `type` (one or a
 * list), `required`, `properties`, `additionalProperties: false`, `items` and `enum`. The problems are
 * worded for the model, which reads them as a tool error and writes the call again.
 */
import type { JsonSchemaObject } from './types';

type Schema = Record<string, unknown>;

/** At most this many problems are listed: enough to fix a call, short enough to read. */
const MAX_PROBLEMS = 5;

/** The problems with `input`, empty when it is valid. */
export function inputProblems(input: unknown, schema: JsonSchemaObject): string[] {
  const problems: string[] = [];
  check(input, schema as unknown as Schema, '', problems);
  return problems.slice(0, MAX_PROBLEMS);
}

function check(value: unknown, schema: Schema, path: string, problems: string[]): void {
  if (problems.length >= MAX_PROBLEMS) return;
  const name = path === '' ? 'the input' : `"${path}"`;
  const types = typeList(schema.type);
  if (types && !types.some((t) => hasType(value, t))) {
    problems.push(`${name} must be ${types.map(article).join(' or ')}, not ${describe(value)}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => allowed === value)) {
    problems.push(`${name} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    return;
  }
  if (isPlainObject(value)) checkObject(value, schema, path, problems);
  else if (Array.isArray(value) && isPlainObject(schema.items))
    value.forEach((item, i) => check(item, schema.items as Schema, `${path}[${i}]`, problems));
}

function checkObject(value: Record<string, unknown>, schema: Schema, path: string, problems: string[]): void {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  const prefix = path === '' ? '' : `${path}.`;
  if (Array.isArray(schema.required)) {
    for (const key of schema.required)
      if (typeof key === 'string' && value[key] === undefined)
        problems.push(`missing required field "${prefix}${key}"`);
  }
  for (const [key, field] of Object.entries(value)) {
    const fieldSchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (fieldSchema && isPlainObject(fieldSchema)) check(field, fieldSchema, `${prefix}${key}`, problems);
    else if (schema.additionalProperties === false) {
      const known = Object.keys(properties);
      problems.push(
        `unknown field "${prefix}${key}"${known.length ? ` (the fields are ${known.map((k) => `"${k}"`).join(', ')})` : ''}`,
      );
    }
  }
}

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    case 'null':
      return value === null;
    default:
      // A type this checker does not know is not held against the call.
      return true;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return `${typeof value === 'number' ? 'the number' : typeof value} ${String(value)}`;
}
