// Entry of `npm run emulator`: starts the emulator on EMULATOR_PORT (default 8787) until SIGINT/SIGTERM.
import { DEFAULT_KEYS, startEmulator } from './index';

/** Starts the emulator and stops it cleanly on a signal. */
async function main(): Promise<void> {
  const port = Number(process.env.EMULATOR_PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid EMULATOR_PORT: ${process.env.EMULATOR_PORT}`);
  const emulator = await startEmulator({ port });
  console.log(`Model Gateway emulator listening on ${emulator.url}`);
  console.log(`It accepts the API keys ${DEFAULT_KEYS.join(' and ')}; any other key gets 401.`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => console.log(`Model Gateway emulator stopped (${signal})`),
      (err: unknown) => {
        console.error(err);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
