// The gateway's error messages, pure code without vscode, in the display language through @vscode/l10n: English
// until the host configures the bundle (host/pureL10n.ts), Chinese with the zh-cn one.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { modelNote } from '../../../src/gateway/discovery';
import { createHttpError } from '../../../src/gateway/errorFactory';
import { listChatModels } from '../../../src/gateway/models';
import { networkError, timeoutError } from '../../../src/gateway/networkErrors';
import { repoRoot } from '../../harness/paths';

const zhCn = JSON.parse(readFileSync(join(repoRoot, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;
const ctx = {
  origin: 'http://127.0.0.1:9',
  firstByteMs: 30_000,
  idleMs: 60_000,
  bodyStarted: false,
  responded: false,
};
const unauthorized = (): string =>
  createHttpError({ status: 401, headers: {}, body: '{"error":{"message":"bad key"}}' }).message;

describe('l10n: the pure layers through @vscode/l10n', () => {
  // The library's bundle is process-wide: every other test expects English.
  afterEach(() => l10n.config({ contents: {} }));

  it('unconfigured, the messages are the English ones', () => {
    assert.equal(
      unauthorized(),
      "The gateway rejected the API key (401). Run 'Model Gateway: Set API Key'. Gateway said: bad key",
    );
    assert.equal(
      timeoutError('first_byte', ctx).message,
      'The gateway did not start answering within 30 s. Try again, or raise the time-out in the settings.',
    );
  });

  it("with the zh-cn bundle, they are Chinese, with the gateway's own words and the numbers kept", () => {
    l10n.config({ contents: zhCn });
    assert.equal(
      unauthorized(),
      '网关拒绝了 API 密钥（401）。请运行“Model Gateway: 设置 API 密钥”。网关返回：bad key',
    );
    assert.equal(
      timeoutError('first_byte', ctx).message,
      '网关在 30 秒内没有开始回答。请重试，或在设置中调高超时时间。',
    );
    const refused = networkError(
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      ctx,
    );
    assert.equal(
      refused.message,
      '无法访问 http://127.0.0.1:9 上的网关（ECONNREFUSED）。请检查基础 URL、网络和代理设置。',
    );
  });

  it('every note of the model catalogue (and of added and unlisted models) has its Chinese text', () => {
    l10n.config({ contents: zhCn });
    const models = listChatModels(['my-extra-model']);
    const english = models.filter((m) => !/[\u4e00-\u9fff]/.test(modelNote(m))).map((m) => m.note);
    assert.deepEqual(english, [], 'add the note to noteInDisplayLanguage in gateway/discovery.ts');
    assert.match(modelNote({ ...models[0], unlisted: true }), /（服务器未列出）$/);
  });
});
