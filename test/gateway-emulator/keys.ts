// The API keys the emulator accepts by default. Anything else gets the real 401 path, so a mistyped key in
// "Set API Key" fails against the emulator just as it would against a real gateway.

/** The key `npm start` (test/harness/start.ts) gives the extension. */
export const EMULATOR_KEY = 'sk-emulator-local';

/** The one documented key for tests and scripts that talk to an emulator they did not configure. */
export const EMULATOR_TEST_KEY = 'sk-emulator-test';

/** The keys accepted when `startEmulator` gets neither `keys` nor `acceptKey`. */
export const DEFAULT_KEYS: readonly string[] = [EMULATOR_KEY, EMULATOR_TEST_KEY];
