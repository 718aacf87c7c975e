// Two windows of one editor share the extension's global storage, so both can hold the same conversation.
// Each window has its own extension host with its own copy. When both continue it, the second save must not
// erase the first window's turns: its copy is saved as a new conversation, and the user is told.
import * as assert from 'node:assert/strict';
import { articles, ask, newChat, openChat, until } from '../../e2e/chatHelpers';
import { screenshot, waitForNotification } from '../../harness/browser';
import { e2e, openWithExtension } from '../../harness/e2eFixture';
import { readConversations } from './durabilityFiles';

const FIRST = 'Two windows: the question both windows show';
const FROM_A = 'Two windows: asked in the first window';
const FROM_B = 'Two windows: asked in the second window';

/** The questions of each conversation on disk that starts with FIRST, with its title. */
function savedCopies(): Array<{ title: string; questions: string[] }> {
  return [...readConversations(e2e().server.userDataDir).values()]
    .filter((c) => c.turns[0]?.content === FIRST)
    .map((c) => ({
      title: c.title,
      questions: c.turns.filter((t) => t.role === 'user').map((t) => t.content),
    }));
}

describe('Two windows continuing one conversation (real editor, shared global storage)', function () {
  this.timeout(180_000);

  it("the later window's copy becomes a new conversation; neither window's turns are erased", async () => {
    const { page, server, folder, payload, browser } = e2e();
    const first = await openChat(page);
    await newChat(first);
    await ask(first, FIRST);

    const window2 = await browser.context.newPage();
    try {
      await openWithExtension(window2, server, folder, payload);
      const second = await openChat(window2);
      // The second window opens on the most recent conversation: the same one, loaded by its own host.
      await until(
        async () => (await articles(second, 'You').last().innerText()).includes(FIRST),
        30_000,
        'the second window showing the conversation',
      );

      await ask(first, FROM_A);
      await ask(second, FROM_B);

      await until(() => savedCopies().length === 2, 10_000, 'two conversations on disk');
      const copies = savedCopies().sort((a, b) => a.title.localeCompare(b.title));
      assert.deepEqual(
        copies.map((c) => c.questions),
        [
          [FIRST, FROM_A],
          [FIRST, FROM_B],
        ],
        "the first window's turns are kept in the conversation; the second window's are in the copy",
      );
      assert.match(copies[1].title, / \(copy\)$/);
      await waitForNotification(
        window2,
        /changed in another window, so your copy was saved as a new conversation/,
      );
      // The copy's new state reached the second window mid-answer: the answer still ended there.
      await until(
        async () => !(await second.getByRole('button', { name: 'Stop', exact: true }).isVisible()),
        5000,
        'the second window no longer busy',
      );
      await screenshot(window2, 'two-windows-copy-notice');
      // Each window goes on showing its own conversation.
      assert.ok((await articles(first, 'You').last().innerText()).includes(FROM_A));
      assert.ok((await articles(second, 'You').last().innerText()).includes(FROM_B));
    } finally {
      await window2.close().catch(() => undefined);
    }
  });
});
