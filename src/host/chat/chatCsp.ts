/**
 * The chat webview's Content-Security-Policy, kept free of the vscode API so the Chromium tests serve
 * the exact policy the host sets: nothing loads or runs except the nonce'd bundle and the extension's
 * own styles, fonts and images, and images only from the webview resource origin (the saved generated images
 * through asWebviewUri; never `data:` nor the gateway's URLs).
 */
export function chatContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}
