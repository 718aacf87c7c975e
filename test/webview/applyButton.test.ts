// The Apply action of code blocks: the file its tooltip names and the message it posts, on the real bundle.
import * as assert from 'node:assert/strict';
import { assistant, user, viewState } from './fixtures';
import { type HarnessPage } from './harness';
import { usePagePerTest } from './pageHooks';

describe('chat webview: Apply on code blocks (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest((page) => (hp = page));

  it('names the file from the info string, the first comment, or says the active editor', async () => {
    const { page } = hp;
    const answer = assistant(
      [
        'Three blocks:',
        '```ts src/a.ts',
        'const a = 1;',
        '```',
        '- in a list:',
        '  ```py',
        '  # File: app/main.py',
        '  print(1)',
        '  ```',
        '```js',
        'let c = 3;',
        '```',
      ].join('\n'),
    );
    await hp.send({ type: 'state', state: viewState([user('Q'), answer]) });
    const buttons = page.locator('.answer .code-block').getByRole('button', { name: 'Apply', exact: true });
    assert.equal(await buttons.count(), 3);
    const titles: string[] = [];
    for (let i = 0; i < 3; i++) {
      await buttons.nth(i).hover();
      titles.push((await buttons.nth(i).getAttribute('title')) ?? '');
    }
    assert.match(titles[0], /^Apply to src\/a\.ts \(or to the active editor's file if src\/a\.ts is not/);
    assert.match(titles[1], /^Apply to app\/main\.py /);
    assert.equal(titles[2], "Apply to the active editor's file, with a review");

    await buttons.nth(0).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'codeAction',
      action: 'apply',
      code: 'const a = 1;',
      language: 'ts',
      target: 'src/a.ts',
      turnId: answer.id,
    });
    // Keyboard: focusing names the target too, Enter applies.
    await buttons.nth(2).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'codeAction',
      action: 'apply',
      code: 'let c = 3;',
      language: 'js',
      turnId: answer.id,
    });
  });
});
