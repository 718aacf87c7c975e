// §6 Conversation durability in the real editor:
// - the extension host is killed (SIGKILL, found in code-server's process group) while a long answer streams
//   into the chat view; the file left on disk is readable and holds most of what had arrived; after the
//   restart (a window reload starts a new extension host) the chat shows that text, marked interrupted;
// - a conversation file and the history index are corrupted in global storage; after a reload the user is
//   told which file, where its backup is, and the other conversations still list and open.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { AssistantTurn } from '../../../src/chat/types';
import { articles, emulator, openChat, send, until, visibleWords } from '../../e2e/chatHelpers';
import { answerHeadline, fixedAnswer, startEmulator, type Emulator } from '../../gateway-emulator';
import { hideNotifications, waitForNotification } from '../../harness/browser';
import { e2e } from '../../harness/e2eFixture';
import {
  alive,
  chatsDir,
  conversationStartingWith,
  savedConversationStartingWith,
  describeChats,
  hostThatSent,
} from './durabilityFiles';
import { ChatFileHistory } from './chatFileHistory';
import { untilChatRequestSince } from '../../support/emulatorRequests';
import { setUserSettings } from '../../support/userSettings';
import { sleep } from '../../support/poll';

const LONG_PROMPT = 'Durability: the long story [[answer:long]]';
const KEPT_PROMPT = 'Durability: a conversation to keep';
const STALLED_PROMPT = 'Durability: a question for a slow model [[fault:stall-first-byte]]';
const VICTIM_PROMPT = 'Durability: a conversation to corrupt';

async function newChat(frame: FrameLocator): Promise<void> {
  // The chat's own button: the command palette is occasionally slow to show its rows on a busy machine.
  await frame.getByRole('button', { name: 'New chat', exact: true }).click();
  await until(async () => (await frame.getByRole('article').count()) === 0, 10_000, 'an empty chat');
}

/** Sends `text` in a new chat and waits for the whole answer, shown and saved as complete. */
async function chatInFull(frame: FrameLocator, text: string): Promise<void> {
  await newChat(frame);
  await send(frame, text);
  const answer = articles(frame, /^Assistant /).last();
  // The usage line comes with the end of the stream: a new chat started before it would stop this answer.
  await until(async () => /total \d+ tokens/.test(await answer.innerText()), 20_000, 'the whole answer');
  assert.ok((await answer.innerText()).includes(answerHeadline(text)), 'the answer to this question');
  await until(
    () => {
      const turn = conversationStartingWith(e2e().server.userDataDir, text)?.turns[1];
      return turn?.role === 'assistant' && turn.status === 'complete';
    },
    10_000,
    'the complete conversation on disk',
  );
}

/** Sends short probes until one reaches `gateway` (bounded): proves which base URL the extension uses. */
async function untilGatewayIs(frame: FrameLocator, gateway: Emulator): Promise<void> {
  let attempt = 0;
  await until(
    async () => {
      const text = `Durability: which gateway? (${++attempt})`;
      await chatInFull(frame, text);
      return gateway.requests.some((r) => JSON.stringify(r.body ?? '').includes(text));
    },
    90_000,
    `the chat to use the gateway at ${gateway.url}`,
  );
}

describe('Conversation durability in the real editor', function () {
  this.timeout(180_000);
  let paced: Emulator | undefined;
  let restoreSettings: (() => void) | undefined;
  /** The conversation files' history during the kill test, printed when nothing was saved. */
  let history: ChatFileHistory | undefined;

  afterEach(async function () {
    history?.close();
    history = undefined;
    if (this.currentTest?.state !== 'failed') return;
    console.log(describeChats(e2e().server.userDataDir));
    // A test that failed after its kill left the window without a live extension host (or on the paced gateway):
    // the next test starts from a restarted one on the fixture's gateway, so one failure is reported once.
    restoreSettings?.();
    restoreSettings = undefined;
    await e2e()
      .reload()
      .catch(() => undefined);
  });

  after(async () => {
    if (restoreSettings) {
      // A test failed while the paced gateway was set: put the fixture's back, in a new extension host.
      restoreSettings();
      await e2e()
        .reload()
        .catch(() => undefined);
    }
    await paced?.close();
  });

  it('kill -9 of the extension host mid-answer: after the restart the chat shows what had arrived', async () => {
    const { page, server } = e2e();
    // 20 KB of Markdown at 8 characters every 25 ms: about a minute of streaming, cut after a few seconds.
    paced = await startEmulator({ port: 0, chunkDelayMs: 25 });
    restoreSettings = setUserSettings(server.userDataDir, { 'modelGateway.baseUrl': paced.url });
    // A new extension host reads the setting at start; the settings watcher alone is not reliable here.
    await e2e().reload(page);
    let frame = await openChat(page);
    await untilGatewayIs(frame, paced);
    await newChat(frame);
    history = new ChatFileHistory(server.userDataDir, server.pgid);
    history.start();
    history.mark('sending the long question');
    await send(frame, LONG_PROMPT);
    await untilChatRequestSince(paced, 0, 10_000, 'the request at the paced gateway');
    const answer = articles(frame, /^Assistant /).last();
    // The answer's text in the DOM: innerText leaves out groups scrolled off screen (content-visibility).
    const shownChars = async (article: typeof answer): Promise<number> =>
      visibleWords((await article.textContent()) ?? '').length;
    await until(async () => (await shownChars(answer)) > 1500, 60_000, 'a good part of the answer');
    const sent = paced.requests.filter((r) => JSON.stringify(r.body ?? '').includes(LONG_PROMPT));
    const host = await hostThatSent(server.pgid, paced.port, sent);
    const shownAtKill = await shownChars(answer);
    history.mark(`killing host ${host}`);
    process.kill(host, 'SIGKILL');
    let onDisk: ReturnType<typeof savedConversationStartingWith>;
    try {
      await until(() => !alive(host), 5000, 'the extension host to die');
      await paced.waitFor((requests) => requests.some((r) => r.clientClosed), 10_000);
      onDisk = savedConversationStartingWith(server.userDataDir, LONG_PROMPT);
      if (!onDisk)
        console.log(
          `      nothing saved of the long answer; the files since the question:\n${history.describe(undefined, 0)}`,
        );
    } finally {
      // Back to the fixture's gateway while no extension host runs: the restarted one reads it at start. Before
      // asserting, so a failure leaves a working editor to the next test.
      restoreSettings();
      restoreSettings = undefined;
      await e2e().reload(page);
    }
    assert.ok(onDisk, 'the conversation file is there and readable after the kill');
    const turn = onDisk.turns[1] as AssistantTurn;
    assert.equal(turn.status, 'streaming', 'saved mid-answer, as the kill left it');
    const long = fixedAnswer('long');
    assert.ok(long.startsWith(turn.content), 'the saved text is exactly what the gateway sent, in order');
    assert.ok(turn.content.length < long.length, 'the answer was really cut off');
    const savedShare = visibleWords(turn.content).length / shownAtKill;
    console.log(
      `      saved ${turn.content.length} of ${long.length} characters; ${(savedShare * 100).toFixed(0)}% of the text on screen at the kill`,
    );
    assert.ok(savedShare >= 0.8, `the file trails the screen by little (${(savedShare * 100).toFixed(0)}%)`);

    frame = await openChat(page);
    const restored = articles(frame, /^Assistant /).last();
    await until(async () => /Interrupted/.test(await restored.innerText()), 30_000, 'the interrupted answer');
    assert.ok(
      (await shownChars(restored)) >= 0.8 * shownAtKill,
      'the restored answer shows what had arrived',
    );
    assert.ok((await articles(frame, 'You').last().innerText()).includes(LONG_PROMPT), 'the question too');
  });

  it('kill -9 before the first token (a slow model): the question is kept and shown as interrupted', async () => {
    const { page, server } = e2e();
    const frame = await openChat(page);
    await newChat(frame);
    const before = emulator().requests.length;
    await send(frame, STALLED_PROMPT);
    await untilChatRequestSince(emulator(), before, 10_000, 'the request at the gateway');
    await sleep(1500); // three save intervals: long enough to be on disk
    const sent = emulator()
      .requests.slice(before)
      .filter((r) => JSON.stringify(r.body ?? '').includes(STALLED_PROMPT));
    const host = await hostThatSent(server.pgid, emulator().port, sent);
    process.kill(host, 'SIGKILL');
    await until(() => !alive(host), 5000, 'the extension host to die');

    const onDisk = savedConversationStartingWith(server.userDataDir, STALLED_PROMPT);
    await e2e().reload(page); // before asserting, so a failure leaves a working editor to the next test
    assert.ok(onDisk, 'the question was saved before any answer arrived');
    assert.equal(onDisk.turns[1]?.role, 'assistant');
    const restoredFrame = await openChat(page);
    await until(
      async () => (await articles(restoredFrame, 'You').last().innerText()).includes(STALLED_PROMPT),
      30_000,
      'the restored question',
    );
    const answer = articles(restoredFrame, /^Assistant /).last();
    await until(async () => /Interrupted/.test(await answer.innerText()), 10_000, 'the interrupted mark');
  });

  it('a corrupt conversation file and index: clear messages, backups kept, the other conversations load', async () => {
    const { page, server } = e2e();
    let frame = await openChat(page);
    await untilGatewayIs(frame, emulator());
    await chatInFull(frame, KEPT_PROMPT);
    await chatInFull(frame, VICTIM_PROMPT);
    await newChat(frame); // nothing of the victim is left to save
    const victim = conversationStartingWith(server.userDataDir, VICTIM_PROMPT)!;
    const kept = conversationStartingWith(server.userDataDir, KEPT_PROMPT)!;
    const chats = chatsDir(server.userDataDir);
    const victimFile = join(chats, 'conversations', `${victim.id}.json`);
    const victimBytes = '{"version":1,"conversation":{"id":"' + victim.id + '","title":"cut';
    writeFileSync(victimFile, victimBytes);
    writeFileSync(join(chats, 'index.json'), '{"version":1,"conversations":[{"id":');

    await e2e().reload(page);
    frame = await openChat(page);
    const indexNote = await waitForNotification(page, /history index .* could not be read/, 30_000);
    assert.match((await indexNote.textContent()) ?? '', /It was kept as ".*index\.json\.corrupt-.*\.bak"/);
    const fileNote = await waitForNotification(page, new RegExp(`${victim.id}\\.json" could not be read`));
    const fileText = (await fileNote.textContent()) ?? '';
    assert.match(fileText, /not valid JSON/);
    assert.match(fileText, /other conversations are not affected/);
    await hideNotifications(page);

    const backups = readdirSync(join(chats, 'conversations')).filter((n) =>
      n.startsWith(`${victim.id}.json.corrupt-`),
    );
    assert.equal(backups.length, 1, 'the corrupt file was kept as a backup');
    assert.equal(readFileSync(join(chats, 'conversations', backups[0]), 'utf8'), victimBytes);
    assert.ok(
      readdirSync(chats).some((n) => /^index\.json\.corrupt-.*\.bak$/.test(n)),
      'the index backup',
    );
    const rebuilt = JSON.parse(readFileSync(join(chats, 'index.json'), 'utf8')) as {
      conversations: { id: string }[];
    };
    const ids = rebuilt.conversations.map((c) => c.id);
    assert.ok(ids.includes(kept.id) && !ids.includes(victim.id), 'the index was rebuilt from the files');

    // The history lists the surviving conversations, and each opens.
    for (const [prompt, expected] of [
      [LONG_PROMPT, /Interrupted/],
      [KEPT_PROMPT, new RegExp(answerHeadline(KEPT_PROMPT).slice(0, 30))],
    ] as const) {
      await frame.getByRole('button', { name: 'History', exact: true }).click();
      const row = frame.locator('.history-list li').filter({ hasText: prompt.slice(0, 40) });
      await row.first().waitFor({ timeout: 10_000 });
      await row.first().getByRole('button', { name: 'Open', exact: true }).click();
      await until(
        async () => (await articles(frame, 'You').last().innerText()).includes(prompt),
        10_000,
        `the conversation "${prompt}" to open`,
      );
      assert.match(
        await articles(frame, /^Assistant /)
          .last()
          .innerText(),
        expected,
      );
    }
  });
});
