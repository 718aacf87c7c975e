// Tool calling through vscode.lm, as agent mode does it. The tool is a real one: declared and registered with
// vscode.lm.registerTool by the test-only extension in test/fixtures/tool-extension (the runner loads it next
// to Model Gateway), offered through vscode.lm.tools and run through vscode.lm.invokeTool.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../gateway-emulator';
import { WEATHER_ANSWER_PREFIX } from '../gateway-emulator/agentRuns';
import type { ToolFixtureApi } from '../fixtures/tool-extension/extension';
import { eventually, keyedEmulator, setKey, setSetting } from './helpers';

const TOOL_FIXTURE = 'modelgateway-tests.tool-fixture';

/** A chat request body as the emulator received it. */
interface ChatBody {
  tools?: { type: string; function: { name: string; description: string; parameters: unknown } }[];
  tool_choice?: string;
  messages: {
    role: string;
    content: string;
    tool_call_id?: string;
    tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  }[];
}

/** The chat requests the emulator received (not the background model-list requests). */
function chatBodies(emulator: Emulator): ChatBody[] {
  return emulator.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatBody);
}

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
  const emulators: Emulator[] = [];
  let fixture: ToolFixtureApi;
  /** The fixture's tool as VS Code offers it to every extension (name, description, input schema). */
  let weather: vscode.LanguageModelToolInformation;

  async function gateway(tools: boolean): Promise<Emulator> {
    const emulator = await keyedEmulator({ tools, chunkSize: 4 });
    emulators.push(emulator);
    await setSetting('baseUrl', emulator.url);
    return emulator;
  }
  async function model(id: string): Promise<vscode.LanguageModelChat> {
    const [chat] = await vscode.lm.selectChatModels({ vendor: 'modelgateway', id });
    assert.ok(chat, `${id} is offered`);
    return chat;
  }

  before(async () => {
    await vscode.extensions.getExtension('modelgateway.model-gateway')!.activate();
    const extension = vscode.extensions.getExtension<ToolFixtureApi>(TOOL_FIXTURE);
    assert.ok(extension, `the runner loads the tool fixture extension ${TOOL_FIXTURE}`);
    fixture = await extension.activate();
    await eventually(() => {
      const tool = vscode.lm.tools.find((t) => t.name === fixture.toolName);
      assert.ok(
        tool,
        `vscode.lm.tools lists ${fixture.toolName}: ${vscode.lm.tools.map((t) => t.name).join(', ')}`,
      );
      weather = tool;
    });
    await setKey();
    await setSetting('network.retries', 0);
  });
  after(async () => {
    await setSetting('lm.toolCalling', undefined);
    await Promise.all(emulators.map((e) => e.close()));
  });

  it('a registered tool: its call arrives, vscode.lm.invokeTool runs it, its result goes back on the wire, and the final answer follows', async () => {
    const emulator = await gateway(true);
    const chat = await model('alpha-sonnet-4-5-20250929');
    const question = vscode.LanguageModelChatMessage.User(`Use ${weather.name} for "Lisbon" please`);
    const first = await ask(chat, [question], {
      tools: [weather],
      toolMode: vscode.LanguageModelChatToolMode.Required,
    });
    assert.equal(first.calls.length, 1);
    const [call] = first.calls;
    assert.equal(call.name, 'getWeather');
    assert.deepEqual(call.input, { city: 'Lisbon' });
    const [asked] = chatBodies(emulator);
    assert.deepEqual(asked.tools, [
      {
        type: 'function',
        function: { name: 'getWeather', description: weather.description, parameters: weather.inputSchema },
      },
    ]);
    assert.deepEqual(asked.tools[0].function.parameters, {
      type: 'object',
      properties: { city: { type: 'string', description: "The city's name" } },
      required: ['city'],
    });
    assert.equal(asked.tool_choice, 'required');

    const calledBefore = fixture.invocations.length;
    const result = await vscode.lm.invokeTool(
      call.name,
      { input: call.input, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    assert.deepEqual(fixture.invocations.slice(calledBefore), [{ city: 'Lisbon' }], 'the tool itself ran');
    const forecast = fixture.forecast('Lisbon');

    const second = await ask(
      chat,
      [
        question,
        vscode.LanguageModelChatMessage.Assistant([call]),
        vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelToolResultPart(call.callId, result.content),
        ]),
      ],
      { tools: [weather] },
    );
    assert.equal(second.text, `The tool getWeather returned: ${forecast}`);
    assert.deepEqual(second.calls, []);

    const bodies = chatBodies(emulator);
    assert.equal(bodies.length, 2, 'one request for the call, one with its result');
    const { messages } = bodies[1];
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.deepEqual(messages[1].tool_calls, [
      { id: call.callId, type: 'function', function: { name: 'getWeather', arguments: '{"city":"Lisbon"}' } },
    ]);
    assert.deepEqual(messages[2], { role: 'tool', tool_call_id: call.callId, content: forecast });
  });

  it('auto: a server that rejects tools with 400 gets the request again with the tools in the system prompt, and is remembered', async () => {
    const emulator = await gateway(false);
    await setSetting('lm.toolCalling', 'auto');
    const chat = await model('alpha-haiku-4-5-20251001');
    const reply = await ask(chat, [vscode.LanguageModelChatMessage.User('What is a closure?')], {
      tools: [weather],
    });
    assert.ok(reply.text.length > 0);
    const [rejected, retried] = chatBodies(emulator);
    assert.deepEqual(
      [rejected, retried].map((b) => 'tools' in b),
      [true, false],
    );
    assert.deepEqual(
      retried.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.ok(retried.messages[0].content.includes('<tool_call>'), retried.messages[0].content);
    emulator.reset();
    await ask(chat, [vscode.LanguageModelChatMessage.User('And a promise?')], { tools: [weather] });
    const again = chatBodies(emulator);
    assert.deepEqual(
      again.map((b) => 'tools' in b),
      [false],
      'remembered: no second 400',
    );
    assert.ok(again[0].messages[0].content.includes('- getWeather: '), 'still the text protocol');
  });

  it('auto, text protocol: a call block comes back as a LanguageModelToolCallPart, vscode.lm.invokeTool runs it, and its result goes back as a <tool_result>', async () => {
    const emulator = await gateway(false);
    await setSetting('lm.toolCalling', 'auto');
    const chat = await model('alpha-opus-4-5-20251101');
    const question = vscode.LanguageModelChatMessage.User('How is the weather in Lisbon? [[agent:weather]]');
    const first = await ask(chat, [question], { tools: [weather] });
    assert.equal(first.calls.length, 1, `one call: ${first.text}`);
    const [call] = first.calls;
    assert.equal(call.name, 'getWeather');
    assert.deepEqual(call.input, { city: 'Lisbon' });
    assert.equal(first.text, 'Checking the weather.\n', 'the text outside the block, and only it');

    const [rejected, retried] = chatBodies(emulator);
    assert.ok(rejected.tools?.length, 'native first');
    assert.ok(!('tools' in retried) && !('tool_choice' in retried), 'the retry carries no `tools`');
    const system = retried.messages[0];
    assert.equal(system.role, 'system');
    const listed = `- getWeather: ${weather.description}\n  ${JSON.stringify(weather.inputSchema)}`;
    assert.ok(system.content.includes(listed), system.content);

    const calledBefore = fixture.invocations.length;
    const result = await vscode.lm.invokeTool(
      call.name,
      { input: call.input, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    assert.deepEqual(fixture.invocations.slice(calledBefore), [{ city: 'Lisbon' }], 'the tool itself ran');
    const forecast = fixture.forecast('Lisbon');

    emulator.reset();
    const second = await ask(
      chat,
      [
        question,
        vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelTextPart(first.text), call]),
        vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelToolResultPart(call.callId, result.content),
        ]),
      ],
      { tools: [weather] },
    );
    assert.equal(second.text, `${WEATHER_ANSWER_PREFIX}${forecast}`);
    assert.deepEqual(second.calls, []);

    const bodies = chatBodies(emulator);
    assert.equal(bodies.length, 1, 'remembered: straight to the text protocol');
    const { messages } = bodies[0];
    assert.ok(!('tools' in bodies[0]));
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.ok(messages.every((m) => !m.tool_calls && !m.tool_call_id));
    assert.equal(
      messages[2].content,
      'Checking the weather.\n<tool_call>\n{"name":"getWeather","arguments":{"city":"Lisbon"}}\n</tool_call>',
    );
    assert.equal(
      messages[3].content,
      `<tool_result name="getWeather" id="${call.callId}">\n${forecast}\n</tool_result>`,
    );
  });

  it('auto, text protocol: a call block that cannot be read stays text, with a note saying why, and nothing is called', async () => {
    await gateway(false);
    await setSetting('lm.toolCalling', 'auto');
    const chat = await model('alpha-haiku-4-5-20251001');
    const reply = await ask(chat, [vscode.LanguageModelChatMessage.User('Go [[agent:malformed]]')], {
      tools: [weather],
    });
    assert.deepEqual(reply.calls, []);
    assert.ok(reply.text.includes('<tool_call>\n{"name": "read_file", "arguments": {path: }}'), reply.text);
    assert.match(reply.text, /\(Model Gateway could not run this tool call: The call is not valid JSON \(/);
  });

  it('off: no tool calling declared, and no tools sent', async () => {
    const emulator = await gateway(true);
    await setSetting('lm.toolCalling', 'off');
    const chat = await model('alpha-sonnet-4-5-20250929');
    assert.equal(supportsTools(chat), false);
    await ask(chat, [vscode.LanguageModelChatMessage.User('hello')], { tools: [weather] });
    assert.ok(!('tools' in chatBodies(emulator).at(-1)!));
    await setSetting('lm.toolCalling', 'on');
    assert.equal(supportsTools(await model('alpha-sonnet-4-5-20250929')), true);
  });
});
