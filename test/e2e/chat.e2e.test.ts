import * as assert from 'node:assert/strict';
import { answerHeadline, expectedAnswer, expectedChatAnswer, expectedReasoning } from '../gateway-emulator';
import { expectedBlocks, shownBlocks } from './answerText';
import {
  clearNotifications,
  hideNotifications,
  quickInput,
  screenshot,
  waitForNotification,
} from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import {
  articles,
  emulator,
  lastChatRequest,
  openChat,
  send,
  until,
  visibleWords,
  openNewChat,
} from './chatHelpers';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatRequestsOf, untilChatRequestSince, untilClosedSince } from '../support/emulatorRequests';
import { toggleTheme } from './editorHelpers';

describe('Chat panel in the real editor', function () {
  this.timeout(120_000);

  it('streams the answer: the assistant message shows exactly the gateway text', async () => {
    const { page } = e2e();
    const frame = await openChat(page);
    await send(frame, 'What is a monad?');
    const answer = articles(frame, /^Assistant Sonnet 4\.5/).last();
    await answer.waitFor({ state: 'visible' });
    // The answer's article appears before its request reaches the gateway: wait for that request.
    await until(
      // No chat request may have reached the gateway yet (lastChatRequest throws then).
      () =>
        chatRequestsOf(emulator()).length > 0 &&
        lastChatRequest().messages.at(-1)?.content === 'What is a monad?',
      15_000,
      'the request at the gateway',
    );
    const expected = expectedAnswer(lastChatRequest());
    await until(
      async () =>
        visibleWords((await answer.innerText()).replace(/\n/g, ' ')).includes(
          visibleWords(expected).slice(-40),
        ),
      30_000,
      'the whole answer',
    );
    // Exactly the gateway's text: every block (paragraph, list item, code) as the Markdown renders it.
    const blocks = expectedBlocks(expected);
    assert.ok(blocks.length >= 4, 'paragraphs, list items and a code block');
    await until(
      async () => JSON.stringify(await shownBlocks(answer)) === JSON.stringify(blocks),
      10_000,
      'the rendered answer to settle',
    ).catch(() => undefined);
    assert.deepEqual(await shownBlocks(answer), blocks);
    await articles(frame, 'You').last().waitFor();
    const sent = lastChatRequest();
    assert.equal(sent.messages[0].role, 'system');
    assert.equal(sent.messages.at(-1)?.content, 'What is a monad?');
    await screenshot(page, 'e2e-chat-answer');
  });

  it('Stop closes the connection and keeps the partial answer, marked stopped', async () => {
    const { page } = e2e();
    const frame = await openChat(page);
    const before = emulator().requests.length;
    await send(frame, 'Tell me a long story [[fault:stall-mid-stream]]');
    const stop = frame.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor({ state: 'visible' });
    await untilChatRequestSince(emulator(), before, 10_000, 'the request');
    const answer = articles(frame, /^Assistant /).last();
    const opening = answerHeadline('Tell me a long story').slice(0, 12);
    await until(async () => (await answer.innerText()).includes(opening), 10_000, 'partial text');
    await stop.click();
    await untilClosedSince(emulator(), before, 'the gateway to see the socket close');
    await answer.getByText(/Stopped/).waitFor({ timeout: 10_000 });
    assert.ok((await answer.innerText()).includes(opening));
    await frame.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await screenshot(page, 'e2e-chat-stopped');
  });

  it('Stop while a thinking model answers without think tags keeps what arrived as the answer', async () => {
    const { page } = e2e();
    const frame = await openChat(page);
    const model = frame.getByRole('combobox', { name: 'Model', exact: true });
    await model.selectOption('alpha-sonnet-4-5-20250929-thinking');
    const before = emulator().requests.length;
    await send(frame, 'Tell me a long story [[fault:think-tags:none]] [[fault:stall-mid-stream]]');
    const stop = frame.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor({ state: 'visible' });
    await untilChatRequestSince(emulator(), before, 10_000, 'the request');
    const answer = articles(frame, 'Assistant Sonnet 4.5 · thinking').last();
    // Untagged content is presumed to be reasoning while it streams: the stream stalls inside it.
    await answer.locator('details > summary').waitFor({ timeout: 10_000 });
    await stop.click();
    await untilClosedSince(emulator(), before, 'the gateway to see the socket close');
    await answer.getByText(/Stopped/).waitFor({ timeout: 10_000 });
    const opening = answerHeadline('Tell me a long story').slice(0, 12);
    assert.ok((await answer.locator('.markdown.answer').innerText()).includes(opening));
    assert.equal(await answer.locator('details > summary').count(), 0, 'no Thinking section');
    await frame.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await model.selectOption('alpha-sonnet-4-5-20250929');
  });

  it('Regenerate asks again and replaces the last answer', async () => {
    const { page } = e2e();
    const frame = await openNewChat(page);
    await send(frame, 'Name a colour');
    const answer = articles(frame, /^Assistant /).last();
    await until(
      async () => (await answer.innerText()).includes(answerHeadline('Name a colour')),
      15_000,
      'the first answer',
    );
    const before = emulator().requests.length;
    const firstRequest = lastChatRequest();
    await frame.getByRole('button', { name: 'Regenerate' }).last().click();
    await untilChatRequestSince(emulator(), before, 10_000, 'the regenerate request');
    await until(
      async () =>
        (
          await articles(frame, /^Assistant /)
            .last()
            .innerText()
        ).includes(answerHeadline('Name a colour')),
      15_000,
      'the new answer',
    );
    assert.equal(await articles(frame, /^Assistant /).count(), 1);
    assert.deepEqual(lastChatRequest().messages, firstRequest.messages, 'the same question is asked again');
  });

  it('Edit and resend drops the turns after the edited message', async () => {
    const { page } = e2e();
    const frame = await openChat(page);
    const you = articles(frame, 'You').first();
    await you.getByRole('button', { name: /Edit/ }).click();
    const editor = you.getByRole('textbox');
    await editor.fill('What is a functor?');
    await you.getByRole('button', { name: /Save|Resend/ }).click();
    await until(
      async () =>
        (
          await articles(frame, /^Assistant /)
            .last()
            .innerText()
        ).includes(answerHeadline('What is a functor?')),
      15_000,
      'the edited answer',
    );
    assert.equal(await articles(frame, 'You').count(), 1);
    assert.equal(await articles(frame, /^Assistant /).count(), 1);
    assert.deepEqual(
      lastChatRequest()
        .messages.filter((m) => m.role === 'user')
        .map((m) => m.content),
      ['What is a functor?'],
    );
  });

  it('a thinking model shows its reasoning in a "Thinking" section, not sent back', async () => {
    const { page } = e2e();
    const frame = await openChat(page);
    await frame
      .getByRole('combobox', { name: 'Model', exact: true })
      .selectOption('alpha-sonnet-4-5-20250929-thinking');
    await send(frame, 'Think about primes');
    const answer = articles(frame, 'Assistant Sonnet 4.5 · thinking').last();
    await answer.waitFor();
    const summary = answer.locator('details > summary');
    await summary.waitFor();
    assert.match((await summary.innerText()).trim(), /^Thinking/);
    await until(
      async () => (await answer.innerText()).includes(answerHeadline('Think about primes')),
      15_000,
      'the answer',
    );
    const reasoning = expectedReasoning(lastChatRequest());
    assert.ok(reasoning.length > 0);
    // The section holds exactly the reasoning the gateway sent (shown when opened), and the answer holds none of it.
    const thinking = answer.locator('.thinking-body');
    await thinking.waitFor({ state: 'attached' });
    assert.deepEqual(
      await thinking.evaluate((root) =>
        Array.from(root.querySelectorAll('p, li, pre')).map((el) =>
          (el.textContent ?? '').replace(/\n$/, ''),
        ),
      ),
      expectedBlocks(reasoning),
    );
    assert.ok(!(await answer.locator('.markdown.answer').innerText()).includes(reasoning.split('\n')[0]));
    await send(frame, 'And now?');
    await until(() => lastChatRequest().messages.at(-1)?.content === 'And now?', 15_000, 'the follow-up');
    const history = lastChatRequest().messages.filter((m) => m.role === 'assistant');
    assert.ok(history.length >= 1);
    for (const m of history)
      assert.ok(!m.content.includes(reasoning.slice(0, 40)), 'reasoning is not sent back');
    await frame
      .getByRole('combobox', { name: 'Model', exact: true })
      .selectOption('alpha-sonnet-4-5-20250929');
    await screenshot(page, 'e2e-chat-thinking');
  });

  it('shows an error inline with the request id, and Retry succeeds', async () => {
    const { page } = e2e();
    const frame = await openNewChat(page);
    await send(frame, 'Hello [[fault:flaky:503:3]] [[fault:request-id:req_e2e_42]]');
    const answer = articles(frame, /^Assistant /).last();
    await answer.getByText(/req_e2e_42/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'e2e-chat-error');
    await answer.getByRole('button', { name: 'Retry' }).click();
    await until(
      async () => (await answer.innerText()).includes(answerHeadline('Hello')),
      20_000,
      'the retried answer',
    );
  });

  it('keeps the conversation across a window reload', async () => {
    const { page } = e2e();
    let frame = await openChat(page);
    // The earlier test's answer may still be finishing (its usage line not yet in); only a finished turn is the
    // state a reload must bring back.
    let lastText = '';
    await until(
      async () => {
        lastText = await articles(frame, /^Assistant /)
          .last()
          .innerText();
        return !lastText.includes('Generating…');
      },
      20_000,
      'the last answer to finish',
    );
    await e2e().reload(page);
    frame = await openChat(page);
    await until(
      async () => (await articles(frame, /^Assistant /).count()) > 0,
      20_000,
      'the restored conversation',
    );
    assert.equal(
      visibleWords(
        await articles(frame, /^Assistant /)
          .last()
          .innerText(),
      ),
      visibleWords(lastText),
    );
  });

  it('exports the conversation to a Markdown file', async () => {
    const { page, folder } = e2e();
    // Only the notification of this export may count.
    await clearNotifications(page);
    const frame = await openNewChat(page);
    await send(frame, 'Hello export');
    await until(
      async () =>
        (
          await articles(frame, /^Assistant /)
            .last()
            .innerText()
        ).includes(answerHeadline('Hello export')),
      15_000,
      'the answer',
    );
    await frame.getByRole('button', { name: 'History', exact: true }).click();
    await frame
      .getByRole('button', { name: /Export/ })
      .first()
      .click();
    const input = quickInput(page);
    await input.waitFor({ state: 'visible' });
    const target = join(folder, 'exported-chat.md');
    // The save dialog fills in its default path a moment after it opens: wait for that, then replace it.
    await until(async () => (await input.inputValue()).endsWith('.md'), 10_000, 'the default path');
    await input.fill(target);
    await until(async () => (await input.inputValue()) === target, 5_000, 'the typed path');
    await page.keyboard.press('Enter');
    const note = await waitForNotification(page, /Conversation exported/);
    const said = (await note.textContent()) ?? '';
    await hideNotifications(page);
    assert.ok(said.includes('exported-chat.md'), said);
    await until(() => existsSync(target), 10_000, 'the exported file');
    const markdown = readFileSync(target, 'utf8');
    assert.match(markdown, /### You/);
    assert.ok(markdown.includes(expectedChatAnswer('Hello export')), 'the answer, as Markdown');
  });

  it('screenshot step: the chat in the other theme (a picture for review; it asserts nothing)', async () => {
    const { page } = e2e();
    const frame = await openChat(page);
    const dark = await toggleTheme(page, frame);
    try {
      await screenshot(page, dark ? 'e2e-chat-dark' : 'e2e-chat-light');
    } finally {
      await toggleTheme(page, frame);
    }
  });
});
