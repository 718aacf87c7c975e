// The chat webview's document inside the real workbench, as a playwright Frame (to evaluate in it), with a
// tripwire for script execution and a recorder of CSP violations installed in it; and a guard that the
// extension talks to the fixture's emulator.
import type { Frame, Page } from 'playwright-core';
import { e2e } from '../../harness/e2eFixture';
import { until, waitFor } from '../../support/poll';
import { setUserSettings } from '../../support/userSettings';

/** The frame whose document holds the chat composer (bounded wait). */
export function chatDocument(page: Page, timeoutMs = 20_000): Promise<Frame> {
  return waitFor(
    async () => {
      for (const frame of page.frames()) {
        const found = await frame
          .evaluate(() => document.querySelector('textarea[aria-label="Message"]') !== null)
          .catch(() => false);
        if (found) return frame;
      }
      return undefined;
    },
    'a frame holding the chat composer',
    timeoutMs,
  );
}

interface Tripwire {
  __xssCount: number;
  __xss: () => void;
  __violations: string[];
}

/** Defines `window.__xss` (counts calls) and records `securitypolicyviolation` events in the frame. */
export async function installTripwire(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const w = window as unknown as Tripwire;
    w.__xssCount = 0;
    w.__xss = () => {
      w.__xssCount++;
    };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}

/** What the tripwire saw. */
export function tripwire(frame: Frame): Promise<{ xss: number; violations: string[] }> {
  return frame.evaluate(() => {
    const w = window as unknown as Tripwire;
    return { xss: w.__xssCount, violations: w.__violations };
  });
}

/** Whether the status bar says the extension talks to the fixture's emulator. */
export function onFixtureEmulator(page: Page): Promise<boolean> {
  return page
    .locator('.statusbar-item')
    .filter({ hasText: '(emulator)' })
    .count()
    .then((n) => n > 0);
}

/**
 * Makes sure the extension talks to the fixture's emulator before a test starts, whatever an earlier test
 * left behind: if not, the user settings get the fixture's base URL back (by a rename, which the watcher
 * sees) and the window is reloaded, which re-reads them.
 */
export async function ensureFixtureGateway(): Promise<void> {
  const { page, server, gateway } = e2e();
  const ready = (timeoutMs: number): Promise<boolean> =>
    until(() => onFixtureEmulator(page), timeoutMs, 'the fixture gateway').then(
      () => true,
      () => false,
    );
  if (await ready(3000)) return;
  setUserSettings(server.userDataDir, { 'modelGateway.baseUrl': gateway.url });
  await e2e().reload();
  if (!(await ready(20_000))) throw new Error('the extension does not use the fixture emulator');
}
