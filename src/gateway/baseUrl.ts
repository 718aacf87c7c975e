/** Base URL handling: users paste the server root, the root with `/v1`, or either with a trailing slash. */

import * as l10n from '@vscode/l10n';

export interface NormalisedBaseUrl {
  /** Origin plus any path prefix, without a trailing slash or `/v1`, e.g. `https://host/api`. */
  root: string;
  /** `scheme://host:port`, used to decide whether a link may receive the API key. */
  origin: string;
}

/** Normalises a base URL, or returns a message saying what is wrong with it. */
export function normaliseBaseUrl(input: string): NormalisedBaseUrl | { problem: string } {
  const trimmed = (input ?? '').trim();
  if (!trimmed)
    return { problem: l10n.t('The gateway base URL is empty. Set it in the Model Gateway settings.') };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { problem: l10n.t('The gateway base URL "{0}" is not a valid URL.', trimmed.slice(0, 200)) };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      problem: l10n.t('The gateway base URL must start with http:// or https:// (got {0}).', url.protocol),
    };
  }
  // Credentials in the URL would travel in logs and error messages; the key belongs in the secret store.
  if (url.username || url.password) {
    return { problem: l10n.t('The gateway base URL must not contain a user name or password.') };
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) path = path.slice(0, -3);
  path = path.replace(/\/+$/, '');
  return { root: url.origin + path, origin: url.origin };
}

/** Joins the normalised root and an API path that starts with `/v1/`. */
export function endpointUrl(base: NormalisedBaseUrl, apiPath: string): URL {
  return new URL(base.root + apiPath);
}
