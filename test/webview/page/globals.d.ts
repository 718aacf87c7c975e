// Globals the harness page defines (see harness.ts); typed for page.evaluate callbacks.
import type { WebviewToHost } from '../../../src/protocol';
import type { renderMarkdownOnce, StreamRenderer } from '../../../src/webview/streamRenderer';

declare global {
  interface Window {
    __md: {
      StreamRenderer: typeof StreamRenderer;
      renderMarkdownOnce: typeof renderMarkdownOnce;
      builtHtml: (text: string, bare?: boolean) => string | null;
      sanitisedHtml: (text: string) => string;
      highlighted: (
        code: string,
        language: string,
      ) => { html: string; built: string | null; sanitised: string };
      markup: (html: string) => { built: string | null; sanitised: string };
    };
    __posted: WebviewToHost[];
    __xss: () => void;
    __xssCount: number;
    __violations: string[];
    __uiState: () => unknown;
  }
}
