import * as assert from 'node:assert/strict';
import {
  acceptInputBox,
  clickNotificationButton,
  hideNotifications,
  runCommand,
  screenshot,
  waitForNotification,
} from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { chatRequestsOf } from '../support/emulatorRequests';
import { forEachFile } from '../support/keySearch';

const GOOD_KEY = 'sk-e2e-typed-key-7d41b9c2';
const BAD_KEY = 'wrong-e2e-key-0a9f33';
/** Looks like a key (so Set API Key does not warn) but the emulator does not know it. */
const UNKNOWN_KEY = 'sk-e2e-plausible-but-unknown-51c2';

/** Types a key into the Set API Key password box, as a user would. */
async function setKeyThroughPalette(key: string): Promise<void> {
  const { page } = e2e();
  await runCommand(page, 'Model Gateway: Set API Key');
  // Waits for a password input: the box masks what is typed.
  await acceptInputBox(page, key, { password: true });
}

/** Every file below `dir` that contains `needle` (binary files included). */
function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  forEachFile(dir, (full, bytes) => bytes.includes(needle) && hits.push(full), 50_000_000);
  return hits;
}

describe('API key and Test Connection, through the UI', () => {
  before(() => {
    // The emulator accepts only its documented keys unless told otherwise: this distinctive key is added.
    e2e().gateway.emulator?.keys.add(GOOD_KEY);
  });

  it('sets a key in the password box, then Test Connection reports "connected"', async () => {
    const { page, gateway } = e2e();
    await setKeyThroughPalette(GOOD_KEY);
    await waitForNotification(page, /API key saved in SecretStorage/);
    await hideNotifications(page);
    await runCommand(page, 'Model Gateway: Test Connection');
    const note = await waitForNotification(page, /Model Gateway: connected, \d+ ms/);
    await screenshot(page, 'e2e-test-connection-ok');
    assert.match((await note.textContent()) ?? '', /connected/);
    const sent = gateway.emulator && chatRequestsOf(gateway.emulator).at(-1);
    assert.equal(sent?.headers.authorization, `Bearer ${GOOD_KEY}`);
    await hideNotifications(page);
  });

  it('a wrong key fails with a message that offers "Set API Key"', async () => {
    const { page } = e2e();
    await setKeyThroughPalette(BAD_KEY);
    await waitForNotification(page, /does not start with 'sk-'/);
    await hideNotifications(page);
    await runCommand(page, 'Model Gateway: Test Connection');
    const note = await waitForNotification(page, /rejected the API key/);
    await screenshot(page, 'e2e-test-connection-bad-key');
    const text = (await note.textContent()) ?? '';
    assert.ok(!text.includes(BAD_KEY), 'the key is not shown in the error');
    await clickNotificationButton(note, 'Set API Key');
    await acceptInputBox(page, GOOD_KEY, { password: true });
    await waitForNotification(page, /API key saved/);
    await hideNotifications(page);
  });

  it('a plausible sk- key the gateway does not know gets the 401 path, not "connected"', async () => {
    const { page } = e2e();
    await setKeyThroughPalette(UNKNOWN_KEY);
    await waitForNotification(page, /API key saved in SecretStorage/);
    await hideNotifications(page);
    await runCommand(page, 'Model Gateway: Test Connection');
    await waitForNotification(page, /rejected the API key/);
    await screenshot(page, 'e2e-test-connection-unknown-sk-key');
    await hideNotifications(page);
    await setKeyThroughPalette(GOOD_KEY);
    await waitForNotification(page, /API key saved/);
    await hideNotifications(page);
  });

  it('keeps the key out of every file under the user-data folder', async () => {
    const { server } = e2e();
    assert.deepEqual(filesContaining(server.userDataDir, GOOD_KEY), []);
    assert.deepEqual(filesContaining(server.userDataDir, BAD_KEY), []);
    assert.deepEqual(filesContaining(server.userDataDir, UNKNOWN_KEY), []);
  });
});
