// What a person sees with VS Code's display language set to zh-cn (runE2E --suite=e2e-zh --locale=zh-cn): the
// extension's command titles in the palette, and the chat in Chinese. VS Code's own words stay English (the test
// language pack translates nothing of VS Code).
import * as assert from 'node:assert/strict';
import { quickInput, runCommand, screenshot, webviewWith } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';

describe('zh-cn display language (UI)', () => {
  it('the command palette lists the commands with their Chinese titles', async () => {
    const { page } = e2e();
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await page.keyboard.press('F1');
    // The list is virtual: each title is filtered for, so its row is drawn.
    for (const title of [
      'Model Gateway: 设置 API 密钥',
      'Model Gateway: 生成代码',
      'Model Gateway: 打开聊天',
    ]) {
      await quickInput(page).fill(`>${title}`);
      await rows.filter({ hasText: title }).first().waitFor();
    }
    await quickInput(page).fill('>Model Gateway');
    await rows.filter({ hasText: 'Model Gateway: 测试连接' }).first().waitFor();
    console.log(`      screenshot: ${await screenshot(page, 'zh-cn-command-palette')}`);
    await page.keyboard.press('Escape');
  });

  it('the chat speaks Chinese: names, placeholder, empty state', async () => {
    const { page } = e2e();
    await runCommand(page, 'Model Gateway: 打开聊天');
    const chat = await webviewWith(page, 'textarea[aria-label="消息"]', 30_000);
    await chat.getByRole('textbox', { name: '消息', exact: true }).waitFor();
    await chat.getByRole('button', { name: '新建聊天', exact: true }).waitFor();
    await chat.getByRole('combobox', { name: '模型', exact: true }).waitFor();
    assert.equal(
      await chat.locator('.composer-input').getAttribute('placeholder'),
      '询问有关代码的问题（输入 # 附加上下文）',
    );
    assert.equal(await chat.getByRole('textbox', { name: 'Message', exact: true }).count(), 0);
    console.log(`      screenshot: ${await screenshot(page, 'zh-cn-chat')}`);
  });
});
