import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

/**
 * The pure layers (src/gateway, …) never import vscode: where they write text a person reads (the gateway's
 * error messages), they use @vscode/l10n, the standard library for code outside the extension host's API.
 * This hands it the extension's bundle for the display language, once, before anything runs; in English
 * VS Code loads no bundle and they stay as written.
 */
export function configurePureLayerL10n(): void {
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
}
