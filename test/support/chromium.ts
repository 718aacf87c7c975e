// The one Chromium launcher of the test suites: Debian's Chromium (or $CHROMIUM_PATH) driven by playwright-core.
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from 'playwright-core';

/** The Chromium binary the suites drive: $CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

// Quiet and deterministic: no sandbox (containers), no GPU, and none of the background traffic that would
// add noise to a benchmark or reach the network from a test.
const baseArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launch options for headless Chromium with the suites' flags, plus `extraArgs`. */
export function chromiumOptions(extraArgs: string[] = []): LaunchOptions & { executablePath: string } {
  return { executablePath: chromiumPath(), headless: true, args: [...baseArgs, ...extraArgs] };
}

/** Launches headless Chromium (one browser, pages in separate contexts). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch(chromiumOptions(extraArgs));
}

/** Options of {@link launchPersistentChromium}. */
export interface PersistentOptions {
  /** Show the window (needs a display); default headless. */
  headed?: boolean;
  viewport: { width: number; height: number };
}

/** Launches Chromium with a persistent profile in `profile`; the caller owns shutdown (no signal handlers). */
export function launchPersistentChromium(
  profile: string,
  options: PersistentOptions,
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    ...chromiumOptions(),
    headless: !options.headed,
    viewport: options.viewport,
    timeout: 60_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
