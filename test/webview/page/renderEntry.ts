// Test-only bundle: exposes the incremental renderer so Chromium tests can drive it chunk by chunk.
import { renderMarkdownOnce, StreamRenderer } from '../../../src/webview/streamRenderer';

window.__md = { StreamRenderer, renderMarkdownOnce };
