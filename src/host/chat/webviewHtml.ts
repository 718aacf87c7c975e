import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { resolveInsideWorkspace } from '../../images/safePath';
import { escapeAttribute, L10N_ATTRIBUTE, l10nAttributeValue } from '../../l10nContents';
import { DEFAULT_IMAGES_FOLDER } from '../settings';
import { chatContentSecurityPolicy } from './chatCsp';

/** Webview options: scripts on, resources only from the bundle and media folders and the generated images' folder. */
export function chatWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist'),
      vscode.Uri.joinPath(extensionUri, 'media'),
      ...imageFolders(),
    ],
  };
}

/** The images folder (`modelGateway.images.folder`) in each workspace folder, when it stays inside it. */
function imageFolders(): vscode.Uri[] {
  const setting =
    vscode.workspace.getConfiguration('modelGateway').get<string>('images.folder')?.trim() ||
    DEFAULT_IMAGES_FOLDER;
  return (vscode.workspace.workspaceFolders ?? []).flatMap((root) => {
    const resolved = resolveInsideWorkspace(root.uri.path, setting);
    return resolved.ok ? [vscode.Uri.joinPath(root.uri, ...resolved.segments)] : [];
  });
}

/**
 * The chat page: `default-src 'none'`, one nonce'd script, styles and fonts from the extension only. `#app` carries
 * the display language's l10n bundle for the webview's @vscode/l10n (none in English: see l10nContents.ts).
 */
export function buildChatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64');
  const asset = (...path: string[]): string =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  const csp = chatContentSecurityPolicy(webview.cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'chat.css')}">
<title>${escapeAttribute(vscode.l10n.t('Model Gateway Chat'))}</title>
</head>
<body>
<div id="app" ${L10N_ATTRIBUTE}="${l10nAttributeValue(vscode.l10n.bundle)}"></div>
<script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}
