// §3 Secrets: a session of every feature in the real extension host (Test Connection, explain into the
// chat, Generate Code, Generate Image as b64 and as links through another origin with a redirect, the
// vscode.lm provider), with successes and with errors that echo the key, then a search for the key (raw,
// base64, URL-encoded) in every result and thrown error, every request other origins saw, and every file
// of the editor's data (settings.json, state.vscdb, globalStorage, workspaceStorage, logs) and workspace.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { expectedChatAnswer, startEmulator, type Emulator } from '../../gateway-emulator';
import { closeAllEditors, eventually, openFile, setSetting, workspaceRoot } from '../../integration/helpers';
import { type FrontGateway, type Listening, startFrontGateway, startOtherOrigin } from './secretsServers';
import { chatRequestsOf } from '../../support/emulatorRequests';
import { sleep } from '../../support/poll';
import { formsIn, forEachFile, keyForms } from '../../support/keySearch';

/** Distinctive, and with characters that base64 and URL encoding change. */
const KEY = 'sk-mgSecret_7Qx9+Zt/w=K2vR8';
const FORMS = keyForms(KEY);
/** Written by the session into the conversation, so the file search can prove it sees the session's files. */
const SESSION_MARKER = 'secretsSessionMarker_4c1e';

/** The code-server user-data folder: from the command line of the server that started this host. */
function userDataDir(): string {
  const pid = process.env.CODE_SERVER_PARENT_PID;
  assert.ok(pid, 'runs in code-server');
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const dir = args[args.indexOf('--user-data-dir') + 1];
  assert.ok(dir && statSync(dir).isDirectory(), `user-data dir from ${args.join(' ')}`);
  return dir;
}

/** path → key forms, for every file below `dir` (binary files included). */
function filesWithKey(dir: string, files: { count: number; marker: string[]; all: string[] }): string[] {
  const hits: string[] = [];
  forEachFile(dir, (full, bytes) => {
    files.count++;
    files.all.push(full);
    if (bytes.includes(SESSION_MARKER)) files.marker.push(full);
    const forms = formsIn(FORMS, bytes);
    if (forms.length) hits.push(`${full}: ${forms.join(', ')}`);
  });
  return hits;
}

/** Message, stack, fields and causes of anything thrown or returned, as text. */
function deepText(value: unknown): string {
  const seen = new Set<unknown>();
  const parts: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 6 || v === null || v === undefined || seen.has(v)) return;
    if (typeof v !== 'object') return void parts.push(String(v));
    seen.add(v);
    if (v instanceof Error) parts.push(v.message, v.stack ?? '', String(v));
    for (const key of Object.getOwnPropertyNames(v)) walk((v as Record<string, unknown>)[key], depth + 1);
  };
  walk(value, 0);
  return parts.join('\n');
}

describe('Secrets: a session of every feature leaves the key nowhere (real extension host)', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let other: Listening;
  let front: FrontGateway;
  /** Every value a command returned and every error anything threw, to search afterwards. */
  const outcomes: { step: string; value: unknown }[] = [];

  async function step<T>(name: string, run: () => Thenable<T> | Promise<T>): Promise<T | undefined> {
    try {
      const value = await run();
      outcomes.push({ step: name, value });
      return value;
    } catch (error) {
      outcomes.push({ step: `${name} (thrown)`, value: error });
      return undefined;
    }
  }
  const chatRequests = (): number => chatRequestsOf(emulator).length;

  before(async () => {
    emulator = await startEmulator({ port: 0, keys: [KEY] });
    other = await startOtherOrigin();
    front = await startFrontGateway(emulator.url, other);
    await setSetting('baseUrl', front.origin);
    await setSetting('network.retries', 0);
    await setSetting('images.folder', 'assets/secrets-session');
    const saved = await vscode.commands.executeCommand<boolean>('modelGateway.setApiKey', { key: KEY });
    assert.equal(saved, true);
  });
  after(async () => {
    await vscode.commands.executeCommand('modelGateway.rejectEdit');
    await closeAllEditors();
    await setSetting('baseUrl', undefined);
    await setSetting('network.retries', undefined);
    await setSetting('images.folder', undefined);
    await front.close();
    await other.close();
    await emulator.close();
  });

  it('runs every feature, successes and failures, against the gateway', async () => {
    const connected = await step('test connection', () =>
      vscode.commands.executeCommand<{ ok: boolean }>('modelGateway.testConnection'),
    );
    assert.equal(connected?.ok, true, deepText(connected));

    const editor = await openFile('secrets-session.js', `// ${SESSION_MARKER}\nconst x = 1;\n`, 'javascript');
    editor.selection = new vscode.Selection(0, 0, 1, 12);
    const before = chatRequests();
    await step('explain selection', () => vscode.commands.executeCommand('modelGateway.explainSelection'));
    await eventually(() => assert.ok(chatRequests() > before, 'explain reached the gateway'), 15_000);
    await eventually(() => assert.ok(emulator.requests.at(-1)?.responseEnded), 15_000);

    await vscode.window.showTextDocument(editor.document);
    const code = await step('generate code', () =>
      vscode.commands.executeCommand<{ status: string }>('modelGateway.generateCode', {
        instruction: 'a sum',
      }),
    );
    assert.equal(code?.status, 'review', deepText(code));
    await vscode.commands.executeCommand('modelGateway.rejectEdit');

    for (const responseFormat of ['b64_json', 'url'] as const) {
      const image = await step(`generate image (${responseFormat})`, () =>
        vscode.commands.executeCommand<{ status: string }>('modelGateway.generateImage', {
          prompt: 'a key-shaped cloud',
          responseFormat,
        }),
      );
      assert.equal(image?.status, 'saved', deepText(image));
    }
    assert.ok(
      other.requests.some((r) => r.url.startsWith('/hop')),
      'the link went through the other origin',
    );
    assert.ok(
      emulator.requests.some((r) => r.path.startsWith('/files/')),
      'and was redirected to a third',
    );

    const [model] = await vscode.lm.selectChatModels({ vendor: 'modelgateway' });
    assert.ok(model, 'the provider offers models');
    const answer = await step('vscode.lm sendRequest', async () => {
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User('Say hello')],
        {},
        new vscode.CancellationTokenSource().token,
      );
      let text = '';
      for await (const piece of response.text) text += piece;
      return text;
    });
    assert.equal(String(answer), expectedChatAnswer('Say hello'));

    // Now the gateway answers with errors that echo the Authorization header back.
    front.inject.push('echo-401');
    const refused = await step('test connection, key echoed in a 401', () =>
      vscode.commands.executeCommand<{ ok: boolean; message?: string }>('modelGateway.testConnection'),
    );
    assert.equal(refused?.ok, false);
    front.inject.push('echo-401');
    const imageError = await step('generate image, key echoed in a 401', () =>
      vscode.commands.executeCommand<{ status: string }>('modelGateway.generateImage', { prompt: 'refused' }),
    );
    assert.equal(imageError?.status, 'failed');
    front.inject.push('echo-401');
    await step('generate code, key echoed in a 401', async () => {
      await vscode.window.showTextDocument(editor.document);
      return vscode.commands.executeCommand('modelGateway.generateCode', { instruction: 'refused' });
    });
    await vscode.commands.executeCommand('modelGateway.rejectEdit');
    for (const injected of ['echo-401', 'echo-in-stream'] as const) {
      front.inject.push(injected);
      const thrown = await step(`vscode.lm, ${injected}`, async () => {
        const response = await model.sendRequest(
          [vscode.LanguageModelChatMessage.User('refused')],
          {},
          new vscode.CancellationTokenSource().token,
        );
        for await (const piece of response.text) void piece;
        return 'no error';
      });
      assert.equal(thrown, undefined, `${injected} must fail the request`);
    }
    for (const injected of ['echo-401', 'echo-in-stream'] as const) {
      front.inject.push(injected);
      await vscode.window.showTextDocument(editor.document);
      editor.selection = new vscode.Selection(0, 0, 1, 12);
      await step(`explain, ${injected}`, () =>
        vscode.commands.executeCommand('modelGateway.explainSelection'),
      );
      await eventually(() => assert.equal(front.inject.length, 0, 'the chat request was made'), 15_000);
    }
    // The conversation store coalesces writes for 500 ms; give it time to put everything on disk.
    await sleep(2000);
    assert.ok(outcomes.length >= 12, `${outcomes.length} outcomes`);
  });

  it('no returned value or thrown error holds the key', () => {
    const leaks = outcomes.flatMap(({ step, value }) => {
      const forms = formsIn(FORMS, deepText(value));
      return forms.length ? [`${step}: ${forms.join(', ')}`] : [];
    });
    assert.deepEqual(leaks, []);
  });

  it('no request to another origin carried the key, in any header or in the URL', () => {
    const gatewayOrigin = new URL(front.origin).host;
    const elsewhere = [
      ...other.requests.map((r) => ({ where: 'other origin', r })),
      ...emulator.requests
        .filter((r) => r.path.startsWith('/files/'))
        .map((r) => ({
          where: 'emulator (image link)',
          r: { method: r.method, url: r.path, headers: r.headers },
        })),
    ];
    assert.ok(elsewhere.length >= 2);
    const leaks = elsewhere.flatMap(({ where, r }) => {
      const forms = formsIn(FORMS, JSON.stringify(r));
      return forms.length ? [`${where} ${r.url}: ${forms.join(', ')}`] : [];
    });
    assert.deepEqual(leaks, []);
    // The front (the configured gateway) did get it: the search would see it if it were sent elsewhere.
    assert.ok(
      front.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`),
      gatewayOrigin,
    );
  });

  it('no file of the editor (settings.json, extension storage, logs, all its data folders) or the workspace holds the key', () => {
    const dataDir = userDataDir();
    const seen = { count: 0, marker: [] as string[], all: [] as string[] };
    const hits = [...filesWithKey(dirname(dataDir), seen), ...filesWithKey(workspaceRoot().fsPath, seen)];
    assert.deepEqual(hits, []);
    const names = (paths: string[]): string => paths.map((p) => p.slice(dataDir.length)).join(', ');
    assert.ok(
      seen.marker.some((p) => p.startsWith(join(dataDir, 'User', 'globalStorage'))),
      `the saved conversation was searched (${seen.count} files; marker in ${names(seen.marker)})`,
    );
    assert.ok(readdirSync(join(dataDir, 'logs')).length > 0, 'the logs were searched');
    const kinds = {
      'state.vscdb': seen.all.filter((p) => p.endsWith('state.vscdb')).length,
      'settings.json': seen.all.filter((p) => p.endsWith(join('User', 'settings.json'))).length,
      logs: seen.all.filter((p) => p.startsWith(join(dataDir, 'logs'))).length,
      'extension storage': seen.all.filter((p) => /Storage[\\/].*modelgateway/i.test(p)).length,
    };
    // code-server keeps global and workspace state in the browser (IndexedDB): the UI suite searches it there.
    assert.ok(
      kinds['settings.json'] === 1 && kinds.logs >= 1 && kinds['extension storage'] >= 1,
      JSON.stringify(kinds),
    );
    console.log(
      `[integration] searched ${seen.count} files for ${Object.keys(FORMS).length} forms of the key: ${JSON.stringify(kinds)}`,
    );
  });
});
