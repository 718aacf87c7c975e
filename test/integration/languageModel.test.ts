import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { expectedAnswer, expectedReasoning, type Emulator } from '../gateway-emulator';
import { setKey, useEmulator, withGateway } from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';

describe('Language model provider (vscode.lm, real extension host)', () => {
  let emulator: Emulator;
  before(async () => {
    await vscode.extensions.getExtension('modelgateway.model-gateway')!.activate();
    emulator = await useEmulator();
    await setKey();
  });
  after(() => emulator.close());
  beforeEach(() => emulator.reset());

  async function model(id = 'alpha-sonnet-4-5-20250929'): Promise<vscode.LanguageModelChat> {
    const models = await vscode.lm.selectChatModels({ vendor: 'modelgateway', id });
    assert.equal(models.length, 1, `model ${id} is offered`);
    return models[0];
  }

  it('offers every catalogue model with a 200K input limit', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'modelgateway' });
    const ids = models.map((m) => m.id);
    for (const id of [
      'alpha-opus-4-5-20251101',
      'alpha-sonnet-4-5-20250929-thinking',
      'alpha-haiku-3-5-20241022',
    ]) {
      assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    }
    assert.ok(models.every((m) => m.maxInputTokens === 200_000));
  });

  it('streams exactly the gateway text through sendRequest, with system and assistant turns mapped', async () => {
    const chat = await model();
    const messages = [
      vscode.LanguageModelChatMessage.User('first question'),
      vscode.LanguageModelChatMessage.Assistant('first answer'),
      vscode.LanguageModelChatMessage.User('What is a closure?'),
    ];
    const response = await chat.sendRequest(messages, {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const piece of response.text) text += piece;
    const sent = chatRequestsOf(emulator).at(0)!.body as {
      model: string;
      messages: { role: string; content: string }[];
    };
    assert.equal(text, expectedAnswer(sent));
    assert.deepEqual(
      sent.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(sent.model, 'alpha-sonnet-4-5-20250929');
  });

  type ThinkingPart = new (value: string) => { value: string | string[] };

  /** Sends one user message to `id` and sorts the parts of the answer into text and thinking. */
  async function answerParts(id: string, prompt: string): Promise<{ text: string; thinking: string[] }> {
    const chat = await model(id);
    const response = await chat.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      {},
      new vscode.CancellationTokenSource().token,
    );
    // Newer than the 1.104 API types; the editor the tests run in has it.
    const Thinking = (vscode as unknown as { LanguageModelThinkingPart?: ThinkingPart })
      .LanguageModelThinkingPart;
    assert.ok(Thinking, 'this VS Code reports thinking parts');
    let text = '';
    const thinking: string[] = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) text += part.value;
      else if (part instanceof Thinking) thinking.push([part.value].flat().join(''));
    }
    return { text, thinking };
  }

  it('a thinking model that answers without think tags: the answer as text only, never as thinking', async () => {
    const prompt = 'What is a closure? [[fault:think-tags:none]]';
    const got = await answerParts('alpha-sonnet-4-5-20250929-thinking', prompt);
    const sent = chatRequestsOf(emulator).at(-1)!.body as {
      model: string;
      messages: { role: string; content: string }[];
    };
    assert.equal(got.text, expectedAnswer(sent));
    assert.deepEqual(got.thinking, []);
  });

  it('reasoning without an opening tag is reported as thinking once it is closed', async () => {
    const prompt = 'What is a closure? [[fault:think-tags:no-open]]';
    const got = await answerParts('alpha-sonnet-4-5-20250929-thinking', prompt);
    const sent = chatRequestsOf(emulator).at(-1)!.body as {
      model: string;
      messages: { role: string; content: string }[];
    };
    assert.equal(got.text, expectedAnswer(sent));
    assert.equal(got.thinking.join(''), expectedReasoning(sent));
  });

  it('cancellation closes the gateway connection', async () => {
    await withGateway({ chunkDelayMs: 50, chunkSize: 2 }, async (slow) => {
      const chat = await model();
      const source = new vscode.CancellationTokenSource();
      const response = await chat.sendRequest(
        [vscode.LanguageModelChatMessage.User('long please')],
        {},
        source.token,
      );
      const iterator = response.text[Symbol.asyncIterator]();
      await iterator.next();
      source.cancel();
      await slow.waitFor((requests) => requests.some((r) => r.clientClosed), 5000);
    });
  });

  it('a 401 surfaces the Set API Key message', async () => {
    const chat = await model();
    await assert.rejects(
      async () => {
        const response = await chat.sendRequest(
          [vscode.LanguageModelChatMessage.User('hi [[fault:status:401]]')],
          {},
          new vscode.CancellationTokenSource().token,
        );
        for await (const _ of response.text) void _;
      },
      (error: Error) => /Set API Key/.test(error.message),
    );
  });

  it('counts tokens with the documented estimate', async () => {
    const chat = await model();
    assert.equal(await chat.countTokens('abcdefgh'), 2);
  });
});
