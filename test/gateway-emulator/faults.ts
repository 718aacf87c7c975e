// Parses fault specs from the X-Emulator-Fault header and [[fault:...]] markers into a typed set.

/** One parsed spec: `name` or `name:arg1:arg2`, plus the source text it came from (header or marker). */
export interface FaultSpec {
  name: string;
  args: string[];
  /** The whole header value or marker content that held the spec (the flaky counter key). */
  source: string;
}

/** Every fault name the emulator understands. */
export const FAULT_NAMES: ReadonlySet<string> = new Set([
  'status',
  'retry-after',
  'retry-after-ms',
  'retry-after-date',
  'flaky',
  'request-id',
  'in-stream-error',
  'reset-before-first-token',
  'reset-mid-stream',
  'stall-first-byte',
  'stall-mid-stream',
  'slow-first-byte',
  'no-done',
  'no-done-no-finish',
  'malformed-chunk',
  'json-instead-of-sse',
  'big-event',
  'crlf',
  'cr',
  'split-utf8',
  'keepalive',
  'think-tags',
  'reasoning-field',
  'usage-chunk',
  'role-first',
  'finish',
  'extra-fields',
  'no-tools',
  'image-delay',
  'image-b64-for-url',
  'image-data-uri',
  'image-jpeg',
  'image-webp',
  'image-noise',
  'image-no-revised',
  'image-url-cross-origin',
  'image-url-redirect',
  'image-url-html',
  'image-url-expired',
  'image-none',
  'image-not-image',
]);

const MARKER = /\[\[fault:([^\]]*)\]\]/g;

/** The faults chosen for one request, with typed look-ups. */
export class FaultSet {
  /** Specs whose name is not in FAULT_NAMES (the emulator refuses the request so typos surface). */
  readonly unknown: string[];

  constructor(readonly specs: FaultSpec[]) {
    this.unknown = specs.filter((s) => !FAULT_NAMES.has(s.name)).map((s) => [s.name, ...s.args].join(':'));
  }

  /** True when a spec with this name is present. */
  has(name: string): boolean {
    return this.specs.some((s) => s.name === name);
  }

  /** The first spec with this name. */
  get(name: string): FaultSpec | undefined {
    return this.specs.find((s) => s.name === name);
  }

  /** First argument of the named spec, or `fallback` when the spec is present without one. */
  arg(name: string, fallback?: string): string | undefined {
    const spec = this.get(name);
    if (!spec) return undefined;
    return spec.args[0] !== undefined && spec.args[0] !== '' ? spec.args[0] : fallback;
  }

  /** First argument of the named spec as a non-negative number (undefined when absent or not a number). */
  num(name: string): number | undefined {
    const raw = this.arg(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  }
}

/** Splits one fault text (`a,b:1,c:x:y`) into specs. */
export function parseFaultText(text: string): FaultSpec[] {
  const source = text.trim();
  return source
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [name, ...args] = part.split(':');
      return { name: name.trim().toLowerCase(), args: args.map((a) => a.trim()), source };
    });
}

/** Collects the contents of every `[[fault:...]]` marker in the texts. */
export function findMarkers(texts: readonly string[]): string[] {
  const found: string[] = [];
  for (const text of texts) {
    for (const match of text.matchAll(MARKER)) found.push(match[1]);
  }
  return found;
}

/**
 * Builds the fault set of a request from its header value and marker-bearing texts. The same source text
 * seen twice (a marker repeated in the conversation history) counts once, so replays keep their key.
 */
export function collectFaults(header: string | string[] | undefined, texts: readonly string[]): FaultSet {
  const sources: string[] = [];
  const headerValues = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const value of [...headerValues, ...findMarkers(texts)]) {
    const trimmed = value.trim();
    if (trimmed && !sources.includes(trimmed)) sources.push(trimmed);
  }
  const specs: FaultSpec[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    for (const spec of parseFaultText(source)) {
      const key = [spec.name, ...spec.args].join(':');
      if (seen.has(key)) continue;
      seen.add(key);
      specs.push(spec);
    }
  }
  return new FaultSet(specs);
}
