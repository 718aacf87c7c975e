import type { FrameLocator } from 'playwright-core';
import { emulator, until } from './chatHelpers';
import { chatRequestsOf } from '../support/emulatorRequests';

export { openFile } from './editorHelpers';

/** The message box of the chat. */
export function messageBox(frame: FrameLocator) {
  return frame.getByRole('textbox', { name: 'Message', exact: true });
}

/** Types `#query` in the message box, waits for the picker's option matching `option`, and picks it with Enter. */
export async function pickContext(frame: FrameLocator, query: string, option: RegExp): Promise<void> {
  const box = messageBox(frame);
  await box.click();
  await box.fill(`#${query}`);
  const listbox = frame.getByRole('listbox', { name: 'Context' });
  await listbox.waitFor({ state: 'visible', timeout: 10_000 });
  const row = listbox.getByRole('option', { name: option }).first();
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  // Arrow down to the row, so the choice is made with the keyboard as the issue asks.
  for (let i = 0; i < 40 && (await row.getAttribute('aria-selected')) !== 'true'; i++)
    await box.press('ArrowDown');
  await box.press('Enter');
  await listbox.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Chat requests the emulator has recorded so far. */
export function chatRequestCount(): number {
  return chatRequestsOf(emulator()).length;
}

/** The last user message of the chat request that arrives after `before` requests, once it has arrived. */
export async function nextUserMessage(before: number, timeoutMs = 20_000): Promise<string> {
  await until(() => chatRequestCount() > before, timeoutMs, 'the chat request at the gateway');
  const request = chatRequestsOf(emulator())[before];
  const body = request.body as { messages: { role: string; content: string }[] };
  return body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}
