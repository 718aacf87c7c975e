// §3 Secrets through the real UI: the key is typed into the Set API Key password box, then Test Connection,
// the chat (an answer, an in-stream error, a refused key), Explain Selection and Generate Image run from the
// palette and the webview. Then the key (raw, base64, URL-encoded) is searched for in the webview's DOM, the
// notifications, the browser's storage (where code-server keeps global and workspace state: IndexedDB and
// localStorage), every file of the editor's data folder and the workspace, and code-server's log, before
// and after a window reload.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { acceptInputBox, hideNotifications, runCommand, waitForNotification } from '../../harness/browser';
import { answerHeadline } from '../../gateway-emulator';
import { e2e } from '../../harness/e2eFixture';
import { resultsDir } from '../../harness/paths';
import { articles, emulator, newChat, openChat, send, until, openNewChat } from '../../e2e/chatHelpers';
import { answerImagePrompts } from '../../e2e/imagePrompts';
import { chatDocument, ensureFixtureGateway } from './xssFrame';
import { chatRequestsOf, untilAnsweredSince } from '../../support/emulatorRequests';
import { formsIn, forEachFile, keyForms } from '../../support/keySearch';
import { retrying } from '../../support/retry';
import { waitFor } from '../../support/poll';
import { openFile } from '../../e2e/editorHelpers';

const KEY = 'sk-uiSecret_Wq7+Lp/3=Zx9Tb';
const STATE_MARKER = 'secretsUiStateMarker';
const FORMS = keyForms(KEY);

/** path → key forms, for every file below `dir` (binary files included). */
function filesWithKey(dir: string, seen: { files: number }): string[] {
  const hits: string[] = [];
  forEachFile(dir, (full, bytes) => {
    seen.files++;
    const forms = formsIn(FORMS, bytes);
    if (forms.length) hits.push(`${full}: ${forms.join(', ')}`);
  });
  return hits;
}

/** Every IndexedDB record and localStorage/sessionStorage entry of the workbench origin, as `where → text`. */
function browserStorage(page: Page): Promise<{ where: string; text: string }[]> {
  return page.evaluate(async () => {
    const out: { where: string; text: string }[] = [];
    const decode = (value: unknown): string => {
      if (value instanceof Uint8Array || value instanceof ArrayBuffer)
        return new TextDecoder().decode(value instanceof ArrayBuffer ? new Uint8Array(value) : value);
      return typeof value === 'string'
        ? value
        : JSON.stringify(value, (_k, v: unknown) =>
            v instanceof Uint8Array ? new TextDecoder().decode(v) : v,
          );
    };
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const storeName of Array.from(db.objectStoreNames)) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        const [keys, values] = await Promise.all(
          [store.getAllKeys(), store.getAll()].map(
            (request) =>
              new Promise<unknown[]>((resolve, reject) => {
                request.onsuccess = () => resolve(request.result as unknown[]);
                request.onerror = () => reject(request.error);
              }),
          ),
        );
        keys.forEach((key, i) =>
          out.push({ where: `indexedDB ${info.name}/${storeName}/${decode(key)}`, text: decode(values[i]) }),
        );
      }
      db.close();
    }
    for (const [name, storage] of [
      ['localStorage', localStorage],
      ['sessionStorage', sessionStorage],
    ] as const) {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i) ?? '';
        out.push({ where: `${name} ${key}`, text: `${key} ${storage.getItem(key) ?? ''}` });
      }
    }
    return out;
  });
}

describe('Secrets through the real UI (code-server)', function () {
  this.timeout(300_000);

  /**
   * Searches everything for the key; returns the hits. `control` proves the search reaches a kind of state, and
   * the search waits for it (bounded): the workbench's workspace state (its editor history names sample.ts)
   * during the session, and the extension's global state (the instruction history's marker) after the reload.
   * The workbench writes its state to browser storage only when idle and focused (every 5 s), or as the page
   * unloads, which it may not finish: so the session's search first gives the workbench document the focus and
   * waits for that write, rather than searching storage the workbench has not written yet.
   */
  async function search(page: Page, label: string, control: 'workspace' | 'global'): Promise<string[]> {
    // A focused webview (the chat, the image preview) is an iframe: blurring it focuses the workbench document.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const [needle, what] =
      control === 'global'
        ? [STATE_MARKER, 'the instruction history (global state) among what is searched']
        : ['sample.ts', 'the editor history (workspace state) among what is searched'];
    const storage = await waitFor(
      async () => {
        const entries = await browserStorage(page);
        return entries.some((entry) => entry.text.includes(needle)) ? entries : undefined;
      },
      what,
      30_000,
    );
    const { server, folder } = e2e();
    const seen = { files: 0 };
    const hits = [
      ...filesWithKey(server.userDataDir, seen),
      ...filesWithKey(folder, seen),
      ...filesWithKey(join(resultsDir('logs')), seen),
    ];
    for (const entry of storage) {
      const forms = formsIn(FORMS, entry.text);
      if (forms.length) hits.push(`${entry.where}: ${forms.join(', ')}`);
    }
    console.log(`      ${label}: ${seen.files} files and ${storage.length} browser storage entries searched`);
    return hits;
  }

  after(async () => {
    // Later UI tests use the fixture's key again (the environment variable).
    const { page } = e2e();
    await runCommand(page, 'Model Gateway: Clear API Key');
    await waitForNotification(page, /API key cleared/);
    await hideNotifications(page);
  });

  it('a session of every feature leaves the key in no DOM, message, storage, state, log or file', async () => {
    await ensureFixtureGateway();
    const { page } = e2e();
    // The emulator accepts only its documented keys unless told otherwise: this distinctive key is added.
    emulator().keys.add(KEY);
    await runCommand(page, 'Model Gateway: Set API Key');
    await acceptInputBox(page, KEY, { password: true });
    await waitForNotification(page, /API key saved in SecretStorage/);
    await hideNotifications(page);

    await runCommand(page, 'Model Gateway: Test Connection');
    await waitForNotification(page, /connected, \d+ ms/);
    await hideNotifications(page);
    const sent = chatRequestsOf(emulator()).at(-1);
    assert.equal(sent?.headers.authorization, `Bearer ${KEY}`, 'the typed key is the one in use');

    const frame = await openNewChat(page);
    for (const [index, [message, expected]] of (
      [
        ['Hello there', new RegExp(answerHeadline('Hello there').slice(0, 12))],
        ['Break [[fault:in-stream-error]]', /Good question|rror/],
        ['Refuse [[fault:status:401]]', /API key/],
      ] as const
    ).entries()) {
      const before = emulator().requests.length;
      await send(frame, message);
      await untilAnsweredSince(emulator(), before, 20_000, message);
      // This message's own answer: `.last()` could still be the previous one while this one is on its way.
      const answer = articles(frame, /^Assistant /).nth(index);
      await until(
        async () => (await answer.count()) > 0 && expected.test(await answer.innerText()),
        20_000,
        `${message} shown`,
      );
    }

    // A new conversation, so the 401 marker above does not apply to the explanation.
    await newChat(frame, page);
    // Quick Open from the workbench, retried: the chat view taking focus as New Chat ends can close it.
    await openFile(page, 'sample.ts');
    await page.keyboard.press('Control+A');
    const beforeExplain = emulator().requests.length;
    await runCommand(page, 'Model Gateway: Explain Selection');
    await untilAnsweredSince(emulator(), beforeExplain, 20_000, 'explain');

    // Generate Code keeps its instruction history in global state: the marker proves that state is searched.
    await page.locator('.monaco-editor .view-lines').first().click();
    const beforeCode = emulator().requests.length;
    await runCommand(page, 'Model Gateway: Generate Code');
    await acceptInputBox(page, `${STATE_MARKER} add a comment`);
    await untilAnsweredSince(emulator(), beforeCode, 20_000, 'code');
    await runCommand(page, 'Model Gateway: Reject Edit');

    await runCommand(page, 'Model Gateway: Generate Image');
    await answerImagePrompts(page, 'a lock without a key');
    const images = join(e2e().folder, 'assets', 'generated');
    await until(
      () => existsSync(images) && readdirSync(images).some((n) => n.startsWith('a-lock-without-a-key')),
      30_000,
      'the image file',
    );
    // The image editor opening can close the palette under the helper: retry the notification centre.
    await retrying(
      3,
      () => waitForNotification(page, /Saved /, 10_000),
      () => page.keyboard.press('Escape'),
    );

    const doc = await chatDocument(page);
    const dom = await doc.evaluate(() => document.documentElement.outerHTML + document.body.innerText);
    assert.deepEqual(formsIn(FORMS, dom), [], 'the key is in the webview DOM');
    const notes =
      (await page
        .locator('.notifications-center')
        .innerText()
        .catch(() => '')) || '';
    assert.ok(notes.length > 0, 'the notification center was read');
    assert.deepEqual(formsIn(FORMS, notes), [], 'the key is in a notification');
    const workbench = await page.evaluate(() => document.body.innerText);
    assert.deepEqual(formsIn(FORMS, workbench), [], 'the key is shown in the workbench');
    await hideNotifications(page);

    assert.deepEqual(await search(page, 'during the session', 'workspace'), []);
    // A reload ends the extension host (conversations flushed, state written) and starts a new one.
    await e2e().reload();
    assert.deepEqual(await search(page, 'after a reload', 'global'), []);
    const reopened = await openChat(page);
    await until(
      async () => (await articles(reopened, /^Assistant /).count()) > 0,
      20_000,
      'the conversation after the reload',
    );
    const restored = await (await chatDocument(page)).evaluate(() => document.documentElement.outerHTML);
    assert.deepEqual(formsIn(FORMS, restored), [], 'the key is in the restored webview');
  });
});
