/** Parsing of the chat composer's `/image <prompt> [--size …] [--quality …] [--n …] [--format …]` command. */
import * as l10n from '@vscode/l10n';
import {
  IMAGE_QUALITIES,
  IMAGE_RESPONSE_FORMATS,
  IMAGE_SIZES,
  type ImageQuality,
  type ImageResponseFormat,
  type ImageSize,
} from '../gateway/types';
import { MAX_IMAGES_PER_REQUEST, MAX_PROMPT_LENGTH } from './validate';

/** The options a `/image` command may override; the rest come from the image settings. */
export interface ImageOverrides {
  size?: ImageSize;
  quality?: ImageQuality;
  n?: number;
  responseFormat?: ImageResponseFormat;
}

/** A parsed `/image` command, or a message saying what is wrong and what is valid. */
export type SlashImageParse =
  { ok: true; prompt: string; overrides: ImageOverrides } | { ok: false; message: string };

const COUNTS = Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, i) => String(i + 1));

/** Each option, the values it accepts (from the gateway's tables) and where it goes. */
const OPTIONS = {
  size: { values: IMAGE_SIZES, set: (o: ImageOverrides, v: string) => (o.size = v as ImageSize) },
  quality: {
    values: IMAGE_QUALITIES,
    set: (o: ImageOverrides, v: string) => (o.quality = v as ImageQuality),
  },
  n: { values: COUNTS, set: (o: ImageOverrides, v: string) => (o.n = Number(v)) },
  format: {
    values: IMAGE_RESPONSE_FORMATS,
    set: (o: ImageOverrides, v: string) => (o.responseFormat = v as ImageResponseFormat),
  },
} as const satisfies Record<
  string,
  { values: readonly string[]; set: (o: ImageOverrides, v: string) => unknown }
>;

type OptionName = keyof typeof OPTIONS;
const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** How the command is written, for the slash menu and for messages. */
export const SLASH_IMAGE_USAGE = '/image <prompt> [--size …] [--quality …] [--n …] [--format url|b64_json]';

/** True when the composer's text is a `/image` command (so it is not sent to the chat model). */
export function isSlashImage(text: string): boolean {
  return /^\s*\/image(?:\s|$)/.test(text);
}

const list = (values: readonly string[]): string => values.join(', ');

/**
 * Parses `/image <prompt> [--option value]…`. Options may come anywhere after the command, as `--size 1024x1024`
 * or `--size=1024x1024`; every other word is the prompt. Values are checked against the gateway's allowed ones,
 * and a refusal names them.
 */
export function parseSlashImage(text: string): SlashImageParse {
  const match = /^\s*\/image(?:\s+|$)([\s\S]*)$/.exec(text);
  if (!match) return { ok: false, message: l10n.t('Not an image command. Usage: {0}', SLASH_IMAGE_USAGE) };
  const overrides: ImageOverrides = {};
  const seen = new Set<string>();
  const words: string[] = [];
  // Tokens keep the whitespace before them, so the prompt keeps its own spacing and line breaks.
  const tokens = match[1].match(/\s*\S+/g) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i].trim();
    const option = /^--([A-Za-z_-]*)(?:=(.*))?$/.exec(token);
    if (!option) {
      words.push(tokens[i]);
      continue;
    }
    const name = option[1];
    if (!(name in OPTIONS)) {
      return {
        ok: false,
        message: l10n.t(
          'Unknown option "--{0}". Valid options: {1}.',
          name,
          OPTION_NAMES.map((n) => `--${n}`).join(', '),
        ),
      };
    }
    const spec = OPTIONS[name as OptionName];
    const value = option[2] ?? tokens[i + 1]?.trim();
    if (option[2] === undefined) i++;
    if (!value || value.startsWith('--')) {
      return { ok: false, message: `--${name} needs a value. Valid values: ${list(spec.values)}.` };
    }
    if (seen.has(name)) return { ok: false, message: `--${name} is given twice; give it once.` };
    seen.add(name);
    if (!(spec.values as readonly string[]).includes(value)) {
      return {
        ok: false,
        message: `"${value.slice(0, 40)}" is not a valid --${name}. Valid values: ${list(spec.values)}.`,
      };
    }
    spec.set(overrides, value);
  }
  const prompt = words.join('').trim();
  if (!prompt)
    return { ok: false, message: l10n.t('Describe the image after /image. Usage: {0}', SLASH_IMAGE_USAGE) };
  if (prompt.length > MAX_PROMPT_LENGTH) {
    return {
      ok: false,
      message: l10n.t(
        'The prompt is {0} characters; the most is {1}.',
        prompt.length.toLocaleString('en-US'),
        MAX_PROMPT_LENGTH.toLocaleString('en-US'),
      ),
    };
  }
  return { ok: true, prompt, overrides };
}
