import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { Emulator } from '../gateway-emulator';
import { runCommand, webviewWith } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { until } from '../support/poll';
import { lastChatBody, type ChatBody } from '../support/emulatorRequests';

/** Opens the chat view through its command and returns the webview's frame. */
export async function openChat(page: Page): Promise<FrameLocator> {
  await runCommand(page, 'Model Gateway: Open Chat');
  const frame = await webviewWith(page, 'textarea[aria-label="Message"]', 30_000);
  await frame
    .getByRole('textbox', { name: 'Message', exact: true })
    .waitFor({ state: 'visible', timeout: 20_000 });
  return frame;
}

/**
 * Starts a new chat and waits until the panel shows it (empty), so what is typed next goes into it: typed
 * before, it would go into the old view's composer and be cleared with it.
 */
export async function newChat(frame: FrameLocator, page: Page = e2e().page): Promise<void> {
  await runCommand(page, 'Model Gateway: New Chat');
  const turns = frame.getByRole('article');
  await until(async () => (await turns.count()) === 0, 10_000, 'the new, empty chat');
}

/** Opens the chat view and starts a new, empty chat in it; returns the webview's frame. */
export async function openNewChat(page: Page): Promise<FrameLocator> {
  const frame = await openChat(page);
  await newChat(frame, page);
  return frame;
}

/** The chat's Mode select. */
export function modeSelect(frame: FrameLocator): Locator {
  return frame.getByRole('combobox', { name: 'Mode', exact: true });
}

/** Chooses a mode (its label: Ask, Agent or Plan) in the chat's Mode select. */
export async function chooseMode(frame: FrameLocator, label: 'Ask' | 'Agent' | 'Plan'): Promise<void> {
  await modeSelect(frame).selectOption({ label });
}

/** Opens the chat view on a new conversation in Agent mode. */
export async function openAgentChat(page: Page): Promise<FrameLocator> {
  const frame = await openNewChat(page);
  await chooseMode(frame, 'Agent');
  return frame;
}

/**
 * Types a message into the composer and sends it with Enter, once Send is enabled: while the previous answer is
 * still finishing (its turn saved, then ended) the composer is busy and Enter sends nothing, as for a user.
 */
export async function send(frame: FrameLocator, text: string): Promise<void> {
  const box = frame.getByRole('textbox', { name: 'Message', exact: true });
  await box.click();
  await box.fill(text);
  const sendButton = frame.getByRole('button', { name: 'Send', exact: true });
  await until(
    () => sendButton.isEnabled(),
    20_000,
    'the Send button to be enabled (the previous answer ended)',
  );
  // The host adds the question's turn and then its answer's (an image prompt is one turn) before the request
  // leaves, but the view draws them a relay later than the gateway answers: until then `.last()` would still be
  // the previous answer.
  const turns = frame.getByRole('article');
  const before = await turns.count();
  await box.press('Enter');
  await until(
    async () => (await turns.count()) > before && (await turns.last().getAttribute('aria-label')) !== 'You',
    20_000,
    'the new turn in the view',
  );
}

/** Sends `text` and waits for the end of its answer (the usage line comes with the end of the stream). */
export async function ask(frame: FrameLocator, text: string): Promise<void> {
  await send(frame, text);
  const answer = articles(frame, /^Assistant /).last();
  await until(
    async () => (await articles(frame, 'You').last().innerText()).includes(text),
    20_000,
    'the question shown',
  );
  await until(async () => /total \d+ tokens/.test(await answer.innerText()), 30_000, 'the whole answer');
}

/** The messages of the transcript with the given accessible name prefix. */
export function articles(frame: FrameLocator, name: RegExp | string): Locator {
  return frame.getByRole('article', { name });
}

/** The emulator of the fixture (the e2e runner starts one in-process). */
export function emulator(): Emulator {
  const emu = e2e().gateway.emulator;
  if (!emu) throw new Error('these tests need the in-process emulator');
  return emu;
}

/** The body of the last chat request the gateway received. */
export function lastChatRequest(): ChatBody {
  return lastChatBody(emulator());
}

export { until };

/** Normalises text as the DOM shows it, for comparing with the emulator's Markdown source. */
export function visibleWords(text: string): string {
  return text
    .replace(/```[a-z]*\n?/g, '')
    .replace(/[`*_#>|-]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
