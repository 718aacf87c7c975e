/**
 * Case 7, webview side of the large attachment: the production chat bundle in Chromium receives the user turn
 * carrying a 1 MB attachment (as the host posts it when the message is sent) and the state of a conversation
 * holding it (as when the chat is reopened). Measured: the longest task (Long Tasks API) and the message
 * handler's own time, against the same messages with an empty attachment.
 */
import type { Attachment } from '../../src/chat/context';
import type { Conversation, UserTurn } from '../../src/chat/types';
import type { ChatViewState, HostToWebview } from '../../src/protocol';
import { largeSource } from './contextWorkspace';
import { type Row, fmtBytes, fmtMs, fmtRatio, verdict } from './report';
import { median } from './stats';
import type { WebBench } from './webPage';

const CASE = '7. Chat context';

interface Received {
  /** The app's message listener, from before it to after it (ms). */
  handlerMs: number;
  /** From the post until the next frame was painted (ms). */
  frameMs: number;
  longTasks: number[];
}

function userTurn(content: string): UserTurn {
  const attachment: Attachment = {
    id: 'att-1',
    kind: 'file',
    name: 'generated-module.ts',
    path: 'big/generated-module.ts',
    language: 'typescript',
    content,
    tokens: Math.ceil(content.length / 4),
  };
  return {
    id: 'u-large',
    role: 'user',
    content: 'Summarize what this module computes.',
    attachments: [attachment],
    createdAt: Date.UTC(2025, 0, 1),
  };
}

function state(turns: UserTurn[]): ChatViewState {
  const conversation: Conversation = {
    id: 'bench-attachment',
    title: 'Attachment',
    model: 'alpha-sonnet-4-5-20250929',
    createdAt: Date.UTC(2025, 0, 1),
    updatedAt: Date.UTC(2025, 0, 1),
    turns,
  };
  return {
    conversation,
    models: [{ id: conversation.model, label: 'Alpha Sonnet 4.5', thinking: false, extra: false }],
    history: [],
    onboarding: { hasApiKey: true, hasBaseUrl: true },
    busy: false,
    agent: { enabled: true },
  };
}

/** Posts `message` (stashed in the page beforehand, so Playwright's transfer is not measured) and times it. */
async function receive(web: WebBench, message: HostToWebview, first?: HostToWebview): Promise<Received> {
  const bp = await web.open('webview');
  try {
    if (first) await bp.page.evaluate((m) => window.postMessage(m, '*'), first);
    await bp.page.evaluate((m) => ((window as unknown as { __stash: unknown }).__stash = m), message);
    await bp.page.evaluate(() => (window as unknown as { gc(): void }).gc());
    return await bp.page.evaluate(
      () =>
        new Promise<Received>((resolve) => {
          const longTasks: number[] = [];
          const observer = new PerformanceObserver((list) =>
            list.getEntries().forEach((e) => longTasks.push(e.duration)),
          );
          observer.observe({ type: 'longtask', buffered: false });
          let before = 0;
          let handlerMs = 0;
          // A capture listener on the window runs before the app's, a later bubble listener after it.
          window.addEventListener('message', () => (before = performance.now()), {
            capture: true,
            once: true,
          });
          window.addEventListener('message', () => (handlerMs = performance.now() - before), { once: true });
          const started = performance.now();
          window.postMessage((window as unknown as { __stash: unknown }).__stash, '*');
          requestAnimationFrame(() =>
            setTimeout(() => {
              const frameMs = performance.now() - started;
              setTimeout(() => {
                observer.disconnect();
                resolve({ handlerMs, frameMs, longTasks });
              }, 100);
            }, 0),
          );
        }),
    );
  } finally {
    await bp.close();
  }
}

const longest = (r: Received): number => Math.max(r.handlerMs, r.frameMs, ...r.longTasks);

/** Rounds of both messages, with the 1 MB attachment and with an empty one. */
export async function attachmentWebviewRows(web: WebBench, rounds: number, bytes: number): Promise<Row[]> {
  const content = largeSource(bytes);
  const kinds = [
    {
      what: 'the user turn posted as it is sent (turnsAdded)',
      make: (c: string): [HostToWebview, HostToWebview] => [
        { type: 'turnsAdded', turns: [userTurn(c)] },
        { type: 'state', state: state([]) },
      ],
    },
    {
      what: 'the state of a chat holding it (reopened)',
      make: (c: string): [HostToWebview, HostToWebview] => [
        { type: 'state', state: state([userTurn(c)]) },
        { type: 'state', state: state([]) },
      ],
    },
  ];
  const rows: Row[] = [];
  for (const kind of kinds) {
    const ours: Received[] = [];
    const empty: Received[] = [];
    for (let round = 0; round < rounds; round++) {
      const [big, first] = kind.make(content);
      const [small] = kind.make('');
      ours.push(await receive(web, big, first));
      empty.push(await receive(web, small, first));
    }
    // The Long Tasks API reports tasks of 50 ms and more; below that, the time from the post to the next
    // frame bounds every task the message caused.
    const worst = Math.max(...ours.map(longest));
    const base = Math.max(...empty.map(longest));
    rows.push({
      case: CASE,
      figure: `webview receives ${kind.what} with a ${fmtBytes(bytes)} attachment: longest task (bounded by post → next frame)`,
      ours: fmtMs(worst),
      baseline: `${fmtMs(base)} (same message, empty attachment)`,
      ratio: fmtRatio(worst / base),
      budget: '≤ 50 ms',
      status: verdict(worst <= 50),
      note: `long tasks (≥ 50 ms): ${ours.flatMap((r) => r.longTasks).length}; the app's message listener ${fmtMs(median(ours.map((r) => r.handlerMs)))} median (it renders on the next frame); post → next frame ${fmtMs(median(ours.map((r) => r.frameMs)))} median`,
      data: { ours, empty },
    });
  }
  return rows;
}
