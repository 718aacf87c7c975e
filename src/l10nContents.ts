// The chat webview's strings in VS Code's display language. The host hands the extension's translated l10n
// bundle (`vscode.l10n.bundle`, from l10n/bundle.l10n.<locale>.json) to the webview as a JSON attribute of the
// page's #app element, so the webview reads it before it draws anything; @vscode/l10n then translates there.
// The attribute is checked like any message from across the boundary: anything but a plain table of strings
// is ignored, and the webview stays in English.

/** The attribute of `#app` that carries the bundle. */
export const L10N_ATTRIBUTE = 'data-l10n';

/** Far above the bundle's size (a few hundred strings); a bigger table is not a bundle. */
const MAX_ENTRIES = 5000;
const MAX_LENGTH = 10_000;

/** A translation table: the English message (the key l10n-dev writes) to its translation. */
export type L10nContents = Record<string, string>;

/** Text made safe for a double-quoted HTML attribute (or an element's text). */
export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The attribute's value for a bundle: its JSON, escaped for a double-quoted HTML attribute. */
export function l10nAttributeValue(bundle: L10nContents | undefined): string {
  return escapeAttribute(JSON.stringify(bundle ?? {}));
}

/**
 * Reads the attribute's text (the browser has already undone the HTML escapes): a translation table, or
 * undefined when there is none (English) or it is not one (not JSON, not a plain object, a value that is not a
 * string, too large).
 */
export function parseL10nContents(text: string | null | undefined): L10nContents | undefined {
  if (!text || text.length > MAX_ENTRIES * MAX_LENGTH) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length === 0 || entries.length > MAX_ENTRIES) return undefined;
  const table: L10nContents = Object.create(null) as L10nContents;
  for (const [key, message] of entries) {
    if (typeof message !== 'string' || key.length > MAX_LENGTH || message.length > MAX_LENGTH)
      return undefined;
    table[key] = message;
  }
  return table;
}
