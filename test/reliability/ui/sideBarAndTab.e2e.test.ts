// One window can show a conversation in two chats: the side bar and an editor tab ("Open Chat in Editor" opens
// the side bar's conversation). Both must hold the same conversation, not two copies: each shows what was asked
// in the other, a question asked in either goes out with the other's turns, and nothing is saved as a copy.
import * as assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import {
  articles,
  ask,
  emulator,
  lastChatRequest,
  newChat,
  openChat,
  send,
  until,
} from '../../e2e/chatHelpers';
import { untilChatRequestSince, untilClosedSince } from '../../support/emulatorRequests';
import { waitFor } from '../../support/poll';
import { runCommand, screenshot } from '../../harness/browser';
import { e2e } from '../../harness/e2eFixture';
import { readConversations } from './durabilityFiles';

const FIRST = 'Side bar and tab: the first question';
const IN_TAB = 'Side bar and tab: asked in the editor tab';
const IN_SIDE_BAR = 'Side bar and tab: asked in the side bar';

/** The content frames of the two chat webviews, the side bar's (left) and the editor tab's (right). */
async function sideBarAndTab(page: Page): Promise<{ side: FrameLocator; tab: FrameLocator }> {
  const webviews = page.locator('iframe.webview.ready');
  const lefts = await waitFor(
    async () => {
      const boxes = await Promise.all((await webviews.all()).map((w) => w.boundingBox()));
      const shown = boxes.flatMap((box, i) => (box && box.width > 0 ? [{ i, x: box.x }] : []));
      return shown.length === 2 ? shown.sort((a, b) => a.x - b.x) : undefined;
    },
    'the side bar chat and the chat tab, both shown',
    20_000,
  );
  const frame = (i: number): FrameLocator => webviews.nth(i).contentFrame().frameLocator('#active-frame');
  return { side: frame(lefts[0].i), tab: frame(lefts[1].i) };
}

/** The questions shown in a chat. */
async function questionsIn(frame: FrameLocator): Promise<string[]> {
  return (await articles(frame, 'You').allInnerTexts()).map((text) => text.trim());
}

describe('One conversation in the side bar and an editor tab of one window', function () {
  this.timeout(120_000);

  after(async () => {
    await runCommand(e2e().page, 'View: Close All Editors').catch(() => undefined);
  });

  it('both show every turn, each sends with the other’s turns, Stop in one stops the other’s answer, no copy is saved', async () => {
    const { page, server } = e2e();
    await runCommand(page, 'View: Close All Editors');
    const first = await openChat(page);
    await newChat(first);
    await ask(first, FIRST);

    await runCommand(page, 'Model Gateway: Open Chat in Editor');
    const { side, tab } = await sideBarAndTab(page);
    await until(
      async () => (await questionsIn(tab)).some((q) => q.includes(FIRST)),
      20_000,
      'the tab showing the conversation',
    );

    await ask(tab, IN_TAB);
    // The side bar draws the tab's turns, answer included, without being touched.
    await until(
      async () => {
        const shown = await questionsIn(side);
        const answer = await articles(side, /^Assistant /)
          .last()
          .innerText();
        return shown.some((q) => q.includes(IN_TAB)) && /total \d+ tokens/.test(answer);
      },
      20_000,
      "the side bar showing the tab's question and its answer",
    );

    await ask(side, IN_SIDE_BAR);
    const sent = lastChatRequest()
      .messages.filter((m) => m.role === 'user')
      .map((m) => String(m.content));
    assert.equal(sent.length, 3, `three questions in the side bar's request: ${JSON.stringify(sent)}`);
    assert.ok(sent[0].includes(FIRST) && sent[1].includes(IN_TAB) && sent[2].includes(IN_SIDE_BAR));
    await until(
      async () => (await questionsIn(tab)).some((q) => q.includes(IN_SIDE_BAR)),
      20_000,
      "the tab showing the side bar's question",
    );
    await screenshot(page, 'side-bar-and-tab');

    // On disk: one conversation with the three questions, and no "(copy)".
    await until(
      () => {
        const saved = [...readConversations(server.userDataDir).values()].filter(
          (c) => c.turns[0]?.content === FIRST,
        );
        return saved.length === 1 && saved[0].turns.filter((t) => t.role === 'user').length === 3;
      },
      10_000,
      'one conversation on disk holding the three questions',
    );
    // An answer asked for in the tab is stopped from the side bar: the request it started is closed.
    const before = emulator().requests.length;
    await send(tab, 'Side bar and tab: a long story [[fault:stall-mid-stream]]');
    await untilChatRequestSince(emulator(), before, 10_000, "the tab's request");
    const stop = side.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor({ state: 'visible', timeout: 10_000 });
    await stop.click();
    await untilClosedSince(emulator(), before, 'the gateway to see it closed');
    await articles(tab, /^Assistant /)
      .last()
      .getByText(/Stopped/)
      .waitFor({ timeout: 10_000 });
    await side.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 10_000 });

    const copies = [...readConversations(server.userDataDir).values()].filter((c) =>
      c.title.endsWith(' (copy)'),
    );
    assert.deepEqual(
      copies.map((c) => c.title),
      [],
      'no conversation saved as a copy',
    );
  });
});
