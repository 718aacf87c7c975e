/**
 * Extracts the gateway's own message from an error body, whatever the server's dialect:
 * OpenAI, OpenRouter, LiteLLM, vLLM (flat), Ollama (`{"error":"text"}`), Anthropic, reseller
 * gateways, HTML pages from proxies and CDNs, plain text, or nothing at all.
 */

interface ErrorBodyInfo {
  message?: string;
  code?: string;
  type?: string;
  /** Request id found inside the message (reseller gateways append `(request id: …)`). */
  requestId?: string;
  /** The body was an HTML page (proxy/CDN error) rather than an API answer. */
  html?: boolean;
}

/** Longest gateway message kept; bodies can be huge and a UI line is not. */
const MAX_GATEWAY_MESSAGE = 300;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns any JSON value into readable text; never `[object Object]`. */
function jsonToText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isObject(value)) {
    const inner = jsonToText(value.message) ?? jsonToText(value.msg) ?? jsonToText(value.error);
    if (inner) return inner;
  }
  if (Array.isArray(value)) {
    const parts = value.map((v) => jsonToText(v)).filter((v): v is string => !!v);
    if (parts.length) return parts.join('; ');
  }
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function codeToText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Reads message/code/type out of an already parsed body or in-stream error object. */
export function errorInfoFromJson(body: unknown): ErrorBodyInfo {
  if (Array.isArray(body)) return body.length ? errorInfoFromJson(body[0]) : {};
  if (typeof body === 'string') return finish({ message: body });
  if (!isObject(body)) return {};
  const error = body.error;
  if (typeof error === 'string') return finish({ message: error, code: codeToText(body.code) }); // Ollama native
  if (isObject(error)) {
    // OpenAI, OpenRouter (numeric code, metadata), LiteLLM (string code), Anthropic (type inside error).
    const info: ErrorBodyInfo = {
      message: jsonToText(error.message) ?? jsonToText(error.msg),
      code: codeToText(error.code),
      type: codeToText(error.type),
    };
    const metadata = error.metadata;
    if (isObject(metadata) && typeof metadata.provider_name === 'string' && info.message) {
      info.message = `${info.message} (provider: ${metadata.provider_name})`;
    }
    return finish(info);
  }
  // vLLM's flat body, and generic `{ message }` / FastAPI `{ detail }` shapes.
  return finish({
    message: jsonToText(body.message) ?? jsonToText(body.detail) ?? jsonToText(body.msg),
    code: codeToText(body.code),
    type: body.type === 'error' ? undefined : codeToText(body.type),
  });
}

/** Parses an error body of any shape. `contentType` helps tell HTML pages apart. */
export function parseErrorBody(text: string, contentType?: string): ErrorBodyInfo {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return {};
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed)) {
    return { html: true, message: htmlTitle(trimmed) };
  }
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"')) {
    try {
      return errorInfoFromJson(JSON.parse(trimmed) as unknown);
    } catch {
      // Not JSON after all (or cut off): fall through to plain text.
    }
  }
  if (/<\/?[a-z][^>]*>/i.test(trimmed)) return { html: true, message: htmlTitle(trimmed) };
  return finish({ message: trimmed });
}

/** The page title of an HTML error page, as plain text: enough to recognise "524: A timeout occurred". */
function htmlTitle(html: string): string | undefined {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!match) return undefined;
  const text = match[1]
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) =>
      e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === '#39' ? "'" : ' ',
    )
    .replace(/[<>]/g, '');
  return tidy(text);
}

const LITELLM_PREFIX = /^(?:litellm\.)?[A-Za-z]*(?:Error|Exception)\s*(?::|-)\s*/;
const REQUEST_ID_SUFFIX = /\s*[(（]\s*request id:\s*([^)）]+)[)）]\s*$/i;

function finish(info: ErrorBodyInfo): ErrorBodyInfo {
  let requestId: string | undefined;
  let message: string | undefined;
  if (info.message) {
    let text = info.message;
    // LiteLLM stacks exception names: "litellm.RateLimitError: RateLimitError: OpenAIException - text".
    for (let i = 0; i < 5 && LITELLM_PREFIX.test(text); i++) {
      const stripped: string = text.replace(LITELLM_PREFIX, '');
      if (!stripped.trim()) break;
      text = stripped;
    }
    const idMatch = REQUEST_ID_SUFFIX.exec(text);
    if (idMatch) {
      requestId = idMatch[1].trim();
      text = text.slice(0, idMatch.index);
    }
    message = tidy(text);
  }
  const out: ErrorBodyInfo = {};
  if (message) out.message = message;
  if (info.code) out.code = info.code;
  if (info.type) out.type = info.type;
  if (requestId) out.requestId = requestId;
  return out;
}

/** Collapses whitespace and truncates, so a message fits one readable line. */
export function tidy(text: string, max = MAX_GATEWAY_MESSAGE): string | undefined {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (!oneLine) return undefined;
  return oneLine.length > max ? `${oneLine.slice(0, max - 1).trimEnd()}…` : oneLine;
}
