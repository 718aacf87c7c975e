/** Validation of `modelGateway.network.headers`: extra headers sent with every gateway request (issue 18). */

/** Headers the client sets itself; a setting must not replace them (the key lives in SecretStorage). */
import * as l10n from '@vscode/l10n';

export const RESERVED_HEADERS: readonly string[] = [
  'Authorization',
  'Content-Type',
  'Content-Length',
  'Host',
];

/** RFC 9110 token characters: anything else is not a header name undici would send. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Printable ASCII and tabs, no line breaks: values that cannot smuggle a second header. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Values shaped like credentials: a bearer token, or an OpenAI-style `sk-` key. */
const SECRET_LIKE = /^\s*(bearer\s+\S|sk-[A-Za-z0-9_-]{6,})/i;

export interface CustomHeaders {
  /** The headers to send, names as the user wrote them. */
  headers: Record<string, string>;
  /** One line per problem, naming the header but never quoting its value. */
  warnings: string[];
}

/** Checks the setting's object; refused entries are left out and each gets a warning naming its header. */
export function validateCustomHeaders(value: unknown): CustomHeaders {
  const headers: Record<string, string> = {};
  const warnings: string[] = [];
  if (value === undefined || value === null) return { headers, warnings };
  if (typeof value !== 'object' || Array.isArray(value)) {
    warnings.push('modelGateway.network.headers must be an object of header names to values; it is ignored.');
    return { headers, warnings };
  }
  const seen = new Set<string>();
  for (const [rawName, raw] of Object.entries(value as Record<string, unknown>)) {
    const name = rawName.trim();
    const where = `modelGateway.network.headers: "${name}"`;
    const reserved = RESERVED_HEADERS.find((r) => r.toLowerCase() === name.toLowerCase());
    if (reserved) {
      const why =
        reserved === 'Authorization'
          ? l10n.t("the API key is sent as Authorization; set it with 'Model Gateway: Set API Key'")
          : 'the extension sets it itself';
      warnings.push(`${where} cannot be set this way (${why}); it is not sent.`);
      continue;
    }
    if (!HEADER_NAME.test(name)) {
      warnings.push(`${where} is not a valid header name; it is not sent.`);
      continue;
    }
    if (seen.has(name.toLowerCase())) {
      warnings.push(`${where} is given twice (header names ignore case); only the first is sent.`);
      continue;
    }
    if (typeof raw !== 'string') {
      warnings.push(`${where} must have a string value; it is not sent.`);
      continue;
    }
    if (!HEADER_VALUE.test(raw)) {
      warnings.push(`${where} has a value with line breaks or control characters; it is not sent.`);
      continue;
    }
    seen.add(name.toLowerCase());
    headers[name] = raw.trim();
    if (SECRET_LIKE.test(raw)) {
      warnings.push(
        l10n.t(
          "{0} looks like a secret. Settings are stored in plain text: keep API keys in SecretStorage with 'Model Gateway: Set API Key'.",
          where,
        ),
      );
    }
  }
  return { headers, warnings };
}
