// `@gateway` passes the tools the user attached (`#tool` references) to the gateway, runs the model's calls
// through vscode.lm.invokeTool and sends their results back. The tool is one VS Code itself ships
// (renderMermaidDiagram, from the built-in Mermaid extension): a tool can only be registered by an extension
// that declares it, and this extension declares none.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../gateway-emulator';
import { setKey, setSetting, useEmulator } from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';

const TOOL = 'renderMermaidDiagram';

interface Body {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: string; tool_call_id?: string; tool_calls?: { id: string }[] }[];
}

describe('@gateway passes the #tools of the request through (real extension host)', function () {
  this.timeout(60_000);
  useSettingsRestored(['lm.toolCalling']);
  let emulator: Emulator;
  let handler: vscode.ChatRequestHandler;

  before(async () => {
    const extension = vscode.extensions.getExtension<{ gatewayChatHandler: vscode.ChatRequestHandler }>(
      'modelgateway.model-gateway',
    );
    handler = (await extension!.activate()).gatewayChatHandler;
    emulator = await useEmulator();
    await setKey();
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(() => emulator.reset());

  async function ask(
    prompt: string,
    toolNames: string[],
  ): Promise<{ text: string; result: vscode.ChatResult }> {
    let text = '';
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => (text += typeof v === 'string' ? v : v.value),
    };
    const request = {
      prompt,
      command: undefined,
      references: [],
      toolReferences: toolNames.map((name) => ({ name })),
      toolInvocationToken: undefined,
      model: undefined,
    } as unknown as vscode.ChatRequest;
    const result =
      (await handler(
        request,
        { history: [] },
        stream as unknown as vscode.ChatResponseStream,
        new vscode.CancellationTokenSource().token,
      )) ?? {};
    return { text, result };
  }

  function bodies(): Body[] {
    return chatRequestsOf(emulator).map((r) => r.body as Body);
  }

  it('the referenced tool goes out, its call runs in VS Code, the result goes back, and the answer follows', async () => {
    const tool = vscode.lm.tools.find((t) => t.name === TOOL);
    assert.ok(tool, `VS Code offers ${TOOL}: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    const { text, result } = await ask(`Use ${TOOL} for "graph TD; A-->B"`, [TOOL]);
    assert.equal(result.errorDetails, undefined);
    const [first, second] = bodies();
    assert.deepEqual(
      first.tools?.map((t) => t.function.name),
      [TOOL],
    );
    assert.ok(second, 'a second request carries the tool result');
    const call = second.messages.find((m) => m.role === 'assistant' && m.tool_calls?.length);
    const answer = second.messages.at(-1)!;
    assert.equal(answer.role, 'tool');
    assert.equal(answer.tool_call_id, call?.tool_calls?.[0].id);
    assert.ok(!answer.content.startsWith(`The tool ${TOOL} failed`), answer.content);
    assert.ok(text.length > 0, 'the final answer is streamed');
  });

  it('without #tool references, or with modelGateway.lm.toolCalling off, no tools go out', async () => {
    await ask('Use renderMermaidDiagram for "graph TD; A-->B"', []);
    await setSetting('lm.toolCalling', 'off');
    await ask('Use renderMermaidDiagram for "graph TD; A-->B"', [TOOL]);
    const sent = bodies();
    assert.equal(sent.length, 2);
    assert.ok(sent.every((b) => b.tools === undefined));
  });
});
