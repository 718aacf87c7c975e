// Per-run resources shared by the runners: a temp copy of the fixture workspace and the gateway.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_KEY, startEmulator, type Emulator } from '../gateway-emulator';
import { repoRoot } from './paths';

/** The key the extension gets for the local emulator (one of the two it accepts by default). */
export const emulatorKey = EMULATOR_KEY;

/** A throw-away workspace folder. */
export interface Workspace {
  folder: string;
  dispose(): void;
}

/** Copies test/fixtures/workspace into a fresh temp folder. */
export function makeWorkspace(): Workspace {
  const parent = mkdtempSync(join(tmpdir(), 'mg-ws-'));
  const folder = join(parent, 'workspace');
  cpSync(join(repoRoot, 'test', 'fixtures', 'workspace'), folder, { recursive: true });
  return { folder, dispose: () => rmSync(parent, { recursive: true, force: true, maxRetries: 3 }) };
}

/** The gateway the editor talks to: an in-process emulator, or an external URL. */
export interface Gateway {
  url: string;
  /** True when the URL came from outside (nothing to stop). */
  external: boolean;
  /** The in-process emulator, so tests can read what it received; undefined for an external gateway. */
  emulator?: Emulator;
  close(): Promise<void>;
}

/** Uses `externalUrl` when given, else starts the emulator in-process on a free port. */
export async function startGateway(
  externalUrl?: string,
  port = 0,
  options: { agentDemo?: boolean } = {},
): Promise<Gateway> {
  if (externalUrl)
    return { url: externalUrl.replace(/\/+$/, ''), external: true, close: async () => undefined };
  const emulator = await startEmulator({ port, ...options });
  return { url: emulator.url, external: false, emulator, close: () => emulator.close() };
}
