// The one way unit tests get gateway clients backed by the emulator: mocha hooks that start one emulator per
// suite, reset it before each test, and close every client a test made after it.
import { createGatewayClient } from '../../src/gateway';
import type { GatewayClient, GatewayClientOptions } from '../../src/gateway/types';
import { startEmulator, type Emulator, type EmulatorOptions } from '../gateway-emulator';

/** What {@link useEmulatorClients} gives a suite. */
export interface EmulatorClients {
  /** The suite's emulator (started in `before`, reset before each test). */
  readonly emulator: Emulator;
  /** A client of the emulator (options override the suite's defaults), closed after the test. */
  client(options?: Partial<GatewayClientOptions>): GatewayClient;
}

/**
 * Registers the hooks in the calling `describe`: an emulator that accepts `key`, and clients with that key
 * and `defaults` (fast retries unless a suite says otherwise).
 */
export function useEmulatorClients(
  key: string,
  defaults: Partial<GatewayClientOptions> = {},
  emulatorOptions: EmulatorOptions = {},
): EmulatorClients {
  let emulator: Emulator | undefined;
  const clients: GatewayClient[] = [];
  const started = (): Emulator => {
    if (!emulator) throw new Error('the emulator starts in the suite’s before hook');
    return emulator;
  };
  before(async () => {
    emulator = await startEmulator({ keys: [key], ...emulatorOptions });
  });
  beforeEach(() => started().reset());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await emulator?.close();
    emulator = undefined;
  });
  return {
    get emulator() {
      return started();
    },
    client(options = {}) {
      const c = createGatewayClient({
        baseUrl: started().url,
        apiKey: key,
        retry: { baseDelayMs: 10 },
        ...defaults,
        ...options,
      });
      clients.push(c);
      return c;
    },
  };
}

/**
 * Registers a fresh emulator (started with `options`) for each test of the calling `describe`: handed to
 * `receive` (the suite keeps it) before the test, closed after it. For suites that test the emulator itself.
 */
export function useEmulatorPerTest(
  receive: (emulator: Emulator) => unknown,
  options: EmulatorOptions = {},
): void {
  let emulator: Emulator | undefined;
  beforeEach(async () => {
    emulator = await startEmulator(options);
    receive(emulator);
  });
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });
}
