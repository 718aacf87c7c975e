/**
 * Case 7, the send path end to end in the real editor: Playwright drives code-server's workbench with the
 * staged production extension, as the e2e tests do. Two figures per send, on one wall clock: Enter in the
 * composer (the keydown's timestamp in the webview) → the whole request read by the emulator, and the first
 * token leaving the emulator → the frame that shows it in the webview (requestAnimationFrame after the DOM
 * holds it). A 400-message conversation (written to the store before the window opens) with three files
 * attached through the `#` picker, against an empty conversation without attachments.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { serializeConversation } from '../../src/chat/storeFormat';
import { messageBox, pickContext } from '../e2e/contextHelpers';
import { newChat, openChat } from '../e2e/chatHelpers';
import { EMULATOR_KEY, type Emulator, startEmulator } from '../gateway-emulator';
import { launchBrowser, openWorkbench, waitForCommand } from '../harness/browser';
import { remoteUri, startCodeServer } from '../harness/codeServer';
import { resultsDir } from '../harness/paths';
import { makeWorkspace } from '../harness/workspace';
import { until, waitFor } from '../support/poll';
import { conversation } from './corpus';
import { largeSource } from './contextWorkspace';
import { editorUnavailable } from './editor';
import { type Row, fmtMs, skippedRow, verdict } from './report';
import type { BenchSettings } from './settings';
import { median } from './stats';
import { productionStage } from './stage';
import { chatRequestsOf } from '../support/emulatorRequests';

const CASE = '7. Chat context';
const FILES = ['ledgerAlpha.ts', 'ledgerBeta.ts', 'ledgerGamma.ts'];
/** The extension's global storage folder in code-server's user data (publisher.name). */
const STORAGE = join('User', 'globalStorage', 'modelgateway.model-gateway', 'chats');

/** One send, on the wall clock (epoch ms with a fraction). */
interface Sent {
  enterAt: number;
  bodyAt: number;
  firstWriteAt: number;
  paintAt: number;
}

/**
 * Offset from `performance.timeOrigin + performance.now()` to the wall clock, taken at the instant
 * Date.now() ticks (so the fraction is exact to the resolution of performance.now()); median of 15.
 */
function offsetScript(): number {
  const samples: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = Date.now();
    let tick = start;
    while (tick === start) tick = Date.now();
    samples.push(tick - (performance.timeOrigin + performance.now()));
  }
  samples.sort((a, b) => a - b);
  return samples[7];
}

/** Listens for the Enter keydown and for the first text of the next assistant turn, then for its frame. */
function installScript(): void {
  const w = window as unknown as { __send: Record<string, number> };
  const record: Record<string, number> = {};
  w.__send = record;
  const answers = (): NodeListOf<HTMLElement> =>
    document.querySelectorAll('.turn-assistant .markdown.answer');
  const before = answers().length;
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.key === 'Enter') record.enterAt = performance.timeOrigin + e.timeStamp;
    },
    { capture: true, once: true },
  );
  const observer = new MutationObserver(() => {
    const list = answers();
    if (list.length <= before || !(list[list.length - 1].textContent ?? '').trim()) return;
    observer.disconnect();
    record.domAt = performance.timeOrigin + performance.now();
    requestAnimationFrame(() => (record.paintAt = performance.timeOrigin + performance.now()));
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
}

async function frameOf(locator: FrameLocator): Promise<Frame> {
  const handle = await messageBox(locator).elementHandle();
  const frame = await handle?.ownerFrame();
  if (!frame) throw new Error('the chat webview has no frame');
  return frame;
}

/** Sends one message (after attaching `attach`) and measures it; waits until the answer has ended. */
async function sendOnce(page: Page, chat: FrameLocator, emulator: Emulator, attach: string[]): Promise<Sent> {
  for (const name of attach) {
    const base = name.replace(/\.ts$/, '');
    await pickContext(chat, base, new RegExp(base));
    await chat.getByRole('button', { name: `Remove ${name}` }).waitFor({ timeout: 10_000 });
  }
  const frame = await frameOf(chat);
  const chatRequests = (): Emulator['requests'] => chatRequestsOf(emulator);
  const before = chatRequests().length;
  await messageBox(chat).fill('How do these ledgers add up totals?');
  await frame.evaluate(installScript);
  await messageBox(chat).press('Enter');
  const record = await waitFor(
    async () => {
      const r = chatRequests()[before];
      return r?.firstWriteAt !== undefined && r.bodyAt !== undefined ? r : undefined;
    },
    'the request at the emulator',
    30_000,
  );
  const seen = await waitFor(
    () =>
      frame.evaluate(() => {
        const s = (window as unknown as { __send: Record<string, number> }).__send;
        return s.paintAt !== undefined && s.enterAt !== undefined ? s : undefined;
      }),
    'the first token on screen',
    30_000,
  );
  await waitFor(async () => (record.responseEnded ? true : undefined), 'the end of the answer', 60_000);
  const [nodeOffset, pageOffset] = [offsetScript(), await frame.evaluate(offsetScript)];
  await page.waitForTimeout(300);
  return {
    enterAt: seen.enterAt + pageOffset,
    paintAt: seen.paintAt + pageOffset,
    bodyAt: (record.bodyAt ?? 0) + nodeOffset,
    firstWriteAt: (record.firstWriteAt ?? 0) + nodeOffset,
  };
}

/** Writes the workspace files to attach. */
function writeFiles(folder: string): void {
  mkdirSync(join(folder, 'ledgers'), { recursive: true });
  FILES.forEach((name, i) => writeFileSync(join(folder, 'ledgers', name), largeSource(3000 + i * 1000)));
}

function figures(sent: Sent[]): { request: number; paint: number } {
  return {
    request: median(sent.map((s) => s.bodyAt - s.enterAt)),
    paint: median(sent.map((s) => s.paintAt - s.firstWriteAt)),
  };
}

/** Runs the send-path part of case 7. */
export async function contextSendRows(settings: BenchSettings): Promise<Row[]> {
  const c = settings.context;
  const unavailable = editorUnavailable();
  if (unavailable)
    return [skippedRow(CASE, 'send path in the real editor', '≤ 10 ms / ≤ 16 ms', unavailable)];
  const stage = await productionStage();
  // Paced like a model's stream, so the first token arrives on its own.
  const emulator = await startEmulator({ chunkDelayMs: 20 });
  const workspace = makeWorkspace();
  writeFiles(workspace.folder);
  const server = await startCodeServer({
    folder: workspace.folder,
    settings: { 'modelGateway.baseUrl': emulator.url, 'modelGateway.chat.suggestCurrentFile': false },
    env: { MODEL_GATEWAY_API_KEY: EMULATOR_KEY },
    logFile: join(resultsDir('logs'), 'bench-send-code-server.log'),
  });
  const history = conversation(c.messages, 300_000);
  history.updatedAt = Date.now();
  const store = join(server.userDataDir, STORAGE, 'conversations');
  mkdirSync(store, { recursive: true });
  writeFileSync(join(store, `${history.id}.json`), serializeConversation(history));
  const browser = await launchBrowser();
  try {
    const page = browser.page;
    await openWorkbench(page, server.url, workspace.folder, [
      ['extensionDevelopmentPath', remoteUri(server.url, stage.dir)],
    ]);
    await waitForCommand(page, 'Model Gateway', 120_000);
    const chat = await openChat(page);
    const turns = chat.locator('.turn');
    // Older turns load lazily: the last answer on screen says the stored conversation is open.
    const last = `End of answer ${Math.ceil(c.messages / 2) - 1}.`;
    await until(
      async () =>
        (
          await turns
            .last()
            .innerText()
            .catch(() => '')
        ).includes(last),
      30_000,
      'the stored conversation',
    );
    const long: Sent[] = [];
    // One unmeasured send warms both paths up (the first request opens the connection).
    for (let i = 0; i <= c.sends; i++) {
      const sent = await sendOnce(page, chat, emulator, FILES);
      if (i > 0) long.push(sent);
    }
    const empty: Sent[] = [];
    for (let i = 0; i <= c.sends; i++) {
      await newChat(chat, page);
      const sent = await sendOnce(page, chat, emulator, []);
      if (i > 0) empty.push(sent);
    }
    const ours = figures(long);
    const base = figures(empty);
    const label = `${c.messages}-message conversation, 3 files attached`;
    return [
      {
        case: CASE,
        figure: `${label}: Enter → request read by the emulator (median of ${long.length})`,
        ours: fmtMs(ours.request),
        baseline: `${fmtMs(base.request)} (empty conversation, no attachment)`,
        ratio: `${(ours.request / base.request).toFixed(2)}×`,
        budget: '≤ 10 ms',
        status: verdict(ours.request <= 10),
        data: { long, empty },
      },
      {
        case: CASE,
        figure: `${label}: first token leaving the emulator → painted in the webview (median of ${long.length})`,
        ours: fmtMs(ours.paint),
        baseline: `${fmtMs(base.paint)} (empty conversation)`,
        ratio: `${(ours.paint / base.paint).toFixed(2)}×`,
        budget: '≤ 16 ms',
        status: verdict(ours.paint <= 16),
        note: 'clocks: the webview and the bench process each map performance.now() to the wall clock at a Date.now() tick',
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
    await emulator.close();
    workspace.dispose();
  }
}
