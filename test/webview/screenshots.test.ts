// Screenshots of a rich conversation in dark, light and high-contrast themes, for looking at by eye.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Turn } from '../../src/chat/types';
import { EDIT_ROW, FILES, METER, READ_ROW, SEARCH_ROW, storedRun, toolRow } from './agentFixtures';
import { assistant, MODEL, user, viewState } from './fixtures';
import { frames, ROOT } from './harness';
import { useHarness } from './pageHooks';
import type { ThemeKind } from './themes';

const ANSWER = `## Debouncing in TypeScript

A debounce delays a call until the input has been quiet for \`wait\` ms. See the
[MDN timers guide](https://developer.mozilla.org/docs/Web/API/setTimeout) for details.

1. Keep one timer per debounced function.
2. Reset it on every call.
   - the **last** arguments win
   - \`this\` is preserved

\`\`\`ts
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait = 200) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A): void => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait); // trailing edge
  };
}
\`\`\`

| Approach | Leading call | Cancel |
|:---------|:------------:|-------:|
| Hand-written | no | \`clearTimeout\` |
| lodash \`debounce\` | optional | \`.cancel()\` |

> Tip: throttle instead when you need a steady rate.`;

function richConversation(): Turn[] {
  return [
    user('How do I debounce a function? Compare the approaches.', {
      quote: {
        code: 'window.addEventListener("resize", () => layout());',
        language: 'typescript',
        fileName: '/work/app/src/ui/resize.ts',
        startLine: 42,
      },
    }),
    assistant(ANSWER, {
      model: 'alpha-opus-4-1',
      reasoning: 'The user wants a debounce. Consider trailing vs leading edge, and typing of the arguments.',
      reasoningMs: 8200,
      usage: { prompt_tokens: 812, completion_tokens: 365, total_tokens: 1177 },
    }),
    user('Now run it against the staging gateway.'),
    assistant('Connecting to the gateway', {
      status: 'error',
      error: {
        message: 'The gateway rejected the API key (401 Unauthorized). Set a valid key, then retry.',
        requestId: 'req_8f2a41c9d07e',
        action: 'setApiKey',
      },
    }),
  ];
}

describe('screenshots (Chromium, real bundle)', function () {
  const harness = useHarness();
  const dir = join(ROOT, 'test-results');

  before(() => {
    mkdirSync(dir, { recursive: true });
  });

  const themes: Array<[ThemeKind, string]> = [
    ['vscode-dark', 'dark'],
    ['vscode-light', 'light'],
    ['vscode-high-contrast', 'high-contrast'],
  ];
  for (const [theme, name] of themes) {
    it(`rich conversation, ${name} theme`, async () => {
      const hp = await harness.open({ theme, width: 440, height: 1500 });
      const history = [{ id: 'c1', title: 'Debounce', model: MODEL, updatedAt: Date.now(), turnCount: 4 }];
      await hp.send({ type: 'state', state: viewState(richConversation(), { history }) });
      await hp.page.evaluate(() => document.fonts.ready);
      await frames(hp.page, 3);
      await hp.page.screenshot({ path: join(dir, `webview-${name}.png`) });
      assert.deepEqual(hp.errors, []);
      await hp.close();
    });
  }

  it('streaming with thinking open and Jump to latest, dark', async () => {
    const hp = await harness.open({ theme: 'vscode-dark', width: 440, height: 700 });
    const turn = assistant('', { status: 'streaming', model: 'alpha-opus-4-1' });
    await hp.send({
      type: 'state',
      state: viewState([...richConversation().slice(0, 2), user('And a throttle?'), turn], { busy: true }),
    });
    await hp.send({
      type: 'delta',
      turnId: turn.id,
      reasoning: 'A throttle runs at most once per interval. ',
    });
    await hp.send({
      type: 'delta',
      turnId: turn.id,
      reasoning: 'I should show **leading** and trailing variants.',
    });
    await hp.send({
      type: 'delta',
      turnId: turn.id,
      reasoning: '\n\nCompare with `requestAnimationFrame` batching for UI work.',
    });
    await hp.page.evaluate(() => document.fonts.ready);
    await frames(hp.page, 3);
    await hp.page.screenshot({ path: join(dir, 'webview-dark-streaming.png') });
    const box = await hp.page.locator('.transcript').boundingBox();
    await hp.page.mouse.move((box?.x ?? 0) + 50, (box?.y ?? 0) + 50);
    await hp.page.mouse.wheel(0, -150);
    await hp.page.waitForTimeout(300);
    await hp.send({
      type: 'delta',
      turnId: turn.id,
      text: 'A throttle guarantees a steady rate:\n\n```ts\nexport function throttle(',
    });
    await frames(hp.page, 3);
    await hp.page.screenshot({ path: join(dir, 'webview-dark-scrolled-up.png') });
    assert.deepEqual(hp.errors, []);
    await hp.close();
  });

  it('history and onboarding, light', async () => {
    const hp = await harness.open({ theme: 'vscode-light', width: 440, height: 600 });
    const now = Date.now();
    const history = [
      { id: 'c1', title: 'Debounce helpers', model: MODEL, updatedAt: now - 4 * 60_000, turnCount: 4 },
      {
        id: 'c2',
        title: 'Why does the CSS grid overflow in the sidebar panel?',
        model: 'alpha-opus-4-1',
        updatedAt: now - 26 * 3600_000,
        turnCount: 12,
      },
      { id: 'c3', title: 'SQL window functions', model: MODEL, updatedAt: now - 9 * 86400_000, turnCount: 6 },
    ];
    await hp.send({
      type: 'state',
      state: viewState([], { history, onboarding: { hasApiKey: false, hasBaseUrl: true } }),
    });
    await hp.page.evaluate(() => document.fonts.ready);
    await frames(hp.page, 2);
    await hp.page.screenshot({ path: join(dir, 'webview-light-onboarding.png') });
    await hp.page.getByRole('button', { name: 'History', exact: true }).click();
    await frames(hp.page, 2);
    await hp.page.screenshot({ path: join(dir, 'webview-light-history.png') });
    assert.deepEqual(hp.errors, []);
    await hp.close();
  });

  for (const [theme, name] of themes) {
    it(`agent run with tool rows, an approval and changed files, ${name} theme`, async () => {
      const hp = await harness.open({ theme, width: 440, height: 1100 });
      const run = storedRun();
      const waiting = toolRow('call_4', 'Edit .vscode/settings.json', {
        name: 'edit_file',
        status: 'awaitingApproval',
        approval: 'Edit .vscode/settings.json? It configures the editor: it is written only after Approve.',
      });
      const failed = toolRow('call_5', 'Edit src/config.ts: oldText found 2 times', {
        name: 'edit_file',
        status: 'error',
        input: '{"path":"src/config.ts","edits":[{"oldText":"return x;","newText":"return y;"}]}',
        result: 'oldText is not unique in src/config.ts (2 matches, lines 14 and 40): add more context.',
      });
      const parts = [run.parts[0], READ_ROW, SEARCH_ROW, failed, EDIT_ROW, waiting, run.parts[4]];
      const turns = [
        user('Make parseConfig accept comments, with tests.', { checkpoint: true }),
        assistant('', {
          model: 'alpha-opus-4-1',
          agent: { ...run, parts, files: FILES, meter: METER, rules: ['AGENTS.md', 'rules/style.md'] },
        }),
      ];
      const state = viewState(turns);
      await hp.send({
        type: 'state',
        state: { ...state, conversation: { ...state.conversation, mode: 'agent' } },
      });
      await hp.page.getByRole('button', { name: /^Edit src\/config\.ts: oldText/ }).click();
      await hp.page.evaluate(() => document.fonts.ready);
      await frames(hp.page, 3);
      await hp.page.screenshot({ path: join(dir, `webview-agent-${name}.png`) });
      assert.deepEqual(hp.errors, []);
      await hp.close();
    });
  }
});
