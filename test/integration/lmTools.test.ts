import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../gateway-emulator';
import { setSetting, useOwnEmulators } from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';

const WEATHER: vscode.LanguageModelChatTool = {
  name: 'getWeather',
  description: 'The weather in a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** `capabilities` is newer than the typings this project builds against; the running editor has it. */
function supportsTools(chat: vscode.LanguageModelChat): boolean | undefined {
  return (chat as unknown as { capabilities?: { supportsToolCalling?: boolean } }).capabilities
    ?.supportsToolCalling;
}

interface Reply {
  text: string;
  calls: vscode.LanguageModelToolCallPart[];
}

async function ask(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  options: vscode.LanguageModelChatRequestOptions,
): Promise<Reply> {
  const response = await model.sendRequest(messages, options, new vscode.CancellationTokenSource().token);
  const reply: Reply = { text: '', calls: [] };
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) reply.text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) reply.calls.push(part);
  }
  return reply;
}

describe('Agent mode: tool calling through vscode.lm (real extension host)', () => {
  useSettingsRestored(['lm.toolCalling']);
  const start = useOwnEmulators();
  async function gateway(tools: boolean): Promise<Emulator> {
    const emulator = await start({ tools, chunkSize: 4 });
    await setSetting('baseUrl', emulator.url);
    return emulator;
  }
  async function model(id: string): Promise<vscode.LanguageModelChat> {
    const [chat] = await vscode.lm.selectChatModels({ vendor: 'modelgateway', id });
    assert.ok(chat, `${id} is offered`);
    return chat;
  }

  it('a tool call arrives, its result goes back, and the final answer follows', async () => {
    const emulator = await gateway(true);
    const chat = await model('alpha-sonnet-4-5-20250929');
    const question = vscode.LanguageModelChatMessage.User('Use getWeather for "Lisbon" please');
    const first = await ask(chat, [question], {
      tools: [WEATHER],
      toolMode: vscode.LanguageModelChatToolMode.Required,
    });
    assert.equal(first.calls.length, 1);
    const [call] = first.calls;
    assert.equal(call.name, 'getWeather');
    assert.deepEqual(call.input, { city: 'Lisbon' });
    const sent = emulator.requests.at(-1)!.body as {
      tools: { function: { name: string } }[];
      tool_choice: string;
    };
    assert.deepEqual(
      sent.tools.map((t) => t.function.name),
      ['getWeather'],
    );
    assert.equal(sent.tool_choice, 'required');

    const result = new vscode.LanguageModelToolResultPart(call.callId, [
      new vscode.LanguageModelTextPart('Cloudy, 17 °C'),
    ]);
    const second = await ask(
      chat,
      [
        question,
        vscode.LanguageModelChatMessage.Assistant([call]),
        vscode.LanguageModelChatMessage.User([result]),
      ],
      { tools: [WEATHER] },
    );
    assert.equal(second.text, 'The tool getWeather returned: Cloudy, 17 °C');
    const wire = emulator.requests.at(-1)!.body as { messages: Record<string, unknown>[] };
    assert.deepEqual(
      wire.messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.equal(wire.messages[2].tool_call_id, call.callId);
  });

  it('auto: a server that rejects tools with 400 gets the request again without them, and is remembered', async () => {
    const emulator = await gateway(false);
    await setSetting('lm.toolCalling', 'auto');
    const chat = await model('alpha-haiku-4-5-20251001');
    const reply = await ask(chat, [vscode.LanguageModelChatMessage.User('What is a closure?')], {
      tools: [WEATHER],
    });
    assert.ok(reply.text.length > 0);
    const chats = chatRequestsOf(emulator);
    assert.deepEqual(
      chats.map((r) => 'tools' in (r.body as object)),
      [true, false],
    );
    emulator.reset();
    await ask(chat, [vscode.LanguageModelChatMessage.User('And a promise?')], { tools: [WEATHER] });
    const again = chatRequestsOf(emulator);
    assert.deepEqual(
      again.map((r) => 'tools' in (r.body as object)),
      [false],
      'remembered: no second 400',
    );
  });

  it('off: no tool calling declared, and no tools sent', async () => {
    const emulator = await gateway(true);
    await setSetting('lm.toolCalling', 'off');
    const chat = await model('alpha-sonnet-4-5-20250929');
    assert.equal(supportsTools(chat), false);
    await ask(chat, [vscode.LanguageModelChatMessage.User('hello')], {});
    assert.ok(!('tools' in (emulator.requests.at(-1)!.body as object)));
    await setSetting('lm.toolCalling', 'on');
    assert.equal(supportsTools(await model('alpha-sonnet-4-5-20250929')), true);
  });
});
