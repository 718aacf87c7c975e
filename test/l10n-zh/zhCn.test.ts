// The extension in the real editor with VS Code's display language set to zh-cn (code-server --locale zh-cn and
// the test language pack): `node out/test/harness/runExtensionTests.js --suite=l10n-zh --locale=zh-cn`.
// VS Code itself loads package.nls.zh-cn.json and l10n/bundle.l10n.zh-cn.json; nothing here loads them by hand.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { buildChatHtml } from '../../src/host/chat/webviewHtml';
import { L10N_ATTRIBUTE, parseL10nContents } from '../../src/l10nContents';
import type { ConnectionResult } from '../../src/host/commands/testConnection';
import { setKey, setSetting } from '../integration/helpers';

const EXTENSION_ID = 'modelgateway.model-gateway';

/** A localized title as VS Code puts it in the manifest: the translation with the English original beside it. */
type Title = string | { value: string; original: string };

interface Manifest {
  contributes: { commands: Array<{ command: string; title: Title; category?: Title }> };
}

const shown = (title: Title | undefined): string | undefined =>
  typeof title === 'object' ? title.value : title;

describe('zh-cn display language (real editor)', function () {
  this.timeout(60_000);
  let extension: vscode.Extension<unknown>;
  let root: string;

  before(async () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is loaded`);
    extension = found;
    await extension.activate();
    root = extension.extensionUri.fsPath;
  });

  it('VS Code runs in zh-cn', () => {
    assert.equal(vscode.env.language, 'zh-cn');
  });

  it('the command titles are Chinese: VS Code applied package.nls.zh-cn.json to the manifest', () => {
    const zh = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<
      string,
      string
    >;
    const commands = (extension.packageJSON as Manifest).contributes.commands;
    const title = (id: string): string | undefined => shown(commands.find((c) => c.command === id)?.title);
    assert.equal(title('modelGateway.setApiKey'), '设置 API 密钥');
    assert.equal(title('modelGateway.openChat'), zh['command.openChat.title']);
    assert.equal(title('modelGateway.generateCode'), '生成代码');
    const untranslated = commands
      .filter((c) => !/[\u4e00-\u9fff]/.test(shown(c.title) ?? ''))
      .map((c) => c.command);
    assert.deepEqual(untranslated, [], 'every command title is Chinese');
  });

  it('the host speaks Chinese: vscode.l10n.t finds bundle.l10n.zh-cn.json', async () => {
    assert.equal(vscode.l10n.t('Send'), '发送');
    await vscode.commands.executeCommand('modelGateway.clearApiKey');
    const result = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
    assert.deepEqual(result, { ok: false, message: '没有 API 密钥。' });
  });

  it("the gateway's errors are Chinese: the pure layer's @vscode/l10n got the bundle at activation", async () => {
    await setKey();
    await setSetting('network.retries', 0);
    const before = vscode.workspace.getConfiguration('modelGateway').get<string>('baseUrl');
    await setSetting('baseUrl', 'http://127.0.0.1:9');
    try {
      const result = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
      assert.equal(result.ok, false);
      assert.match(
        result.ok ? '' : result.message,
        /^无法访问 http:\/\/127\.0\.0\.1:9 上的网关（\w+）。请检查基础 URL、网络和代理设置。$/,
      );
    } finally {
      await setSetting('baseUrl', before);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  it('the chat page hands the zh-cn bundle to the webview, and says its language', () => {
    const webview = {
      cspSource: 'https://webview.test',
      asWebviewUri: (uri: vscode.Uri) => uri,
    } as unknown as vscode.Webview;
    const html = buildChatHtml(webview, extension.extensionUri);
    assert.match(html, /<html lang="zh-cn">/);
    const attribute = new RegExp(`${L10N_ATTRIBUTE}="([^"]*)"`).exec(html)?.[1];
    assert.ok(attribute, 'the #app element carries the bundle');
    const unescaped = attribute
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    const contents = parseL10nContents(unescaped);
    assert.equal(contents?.['Send'], '发送');
    assert.equal(contents?.['Message'], '消息');
  });
});
