// One streamed chat of the soak through the extension's real entry points: its `@gateway` handler (the
// API activate() returns) and its language model provider (`vscode.lm`), with real `vscode` objects and a
// stream that only records what the handler shows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { expectedAnswer } from '../../gateway-emulator/answers';

/** The system prompt the soak sets, so the expected answer can be computed exactly. */
export const SOAK_SYSTEM_PROMPT = 'You are the soak test assistant.';

/** A `ChatResponseStream` that keeps the Markdown text and counts the other calls. */
export class RecordingStream implements vscode.ChatResponseStream {
  text = '';
  calls = 0;
  /** Milliseconds since the epoch of the first Markdown piece (0 before it). */
  firstAt = 0;

  markdown(value: string | vscode.MarkdownString): void {
    this.calls++;
    this.firstAt ||= Date.now();
    this.text += typeof value === 'string' ? value : value.value;
  }
  anchor(): void {
    this.calls++;
  }
  button(): void {
    this.calls++;
  }
  filetree(): void {
    this.calls++;
  }
  progress(): void {
    this.calls++;
  }
  reference(): void {
    this.calls++;
  }
  push(): void {
    this.calls++;
  }
}

/** What one chat produced: its text, what the emulator's deterministic answer is, and timing. */
export interface ChatOutcome {
  via: 'participant' | 'lm';
  model: string;
  text: string;
  expected: string;
  firstAt: number;
  endedAt: number;
}

type Handler = vscode.ChatRequestHandler;

/** The extension's `@gateway` handler, from the API its activate() returns. */
export async function gatewayHandler(): Promise<Handler> {
  const extension = vscode.extensions.getExtension<{ gatewayChatHandler: Handler }>(
    'modelgateway.model-gateway',
  );
  assert.ok(extension, 'the extension is installed');
  const api = await extension.activate();
  assert.equal(typeof api.gatewayChatHandler, 'function');
  return api.gatewayChatHandler;
}

const models = new Map<string, vscode.LanguageModelChat>();

/** The provider's model object for `id` (looked up once). */
export async function gatewayModel(id: string): Promise<vscode.LanguageModelChat> {
  let model = models.get(id);
  if (!model) {
    [model] = await vscode.lm.selectChatModels({ vendor: 'modelgateway', id });
    assert.ok(model, `model ${id} is offered by the provider`);
    models.set(id, model);
  }
  return model;
}

/** A plain question to `@gateway`, as VS Code's chat would pass it. */
export async function chatThroughParticipant(
  handler: Handler,
  model: vscode.LanguageModelChat,
  prompt: string,
): Promise<ChatOutcome> {
  const request = {
    prompt,
    command: undefined,
    references: [],
    toolReferences: [],
    model,
  } as unknown as vscode.ChatRequest;
  const stream = new RecordingStream();
  const source = new vscode.CancellationTokenSource();
  try {
    const result = await handler(request, { history: [] }, stream, source.token);
    assert.equal(result?.errorDetails, undefined, `no error for "${prompt}"`);
  } finally {
    source.dispose();
  }
  const messages = [
    { role: 'system', content: SOAK_SYSTEM_PROMPT },
    { role: 'user', content: prompt },
  ];
  return {
    via: 'participant',
    model: model.id,
    text: stream.text,
    expected: expectedAnswer({ model: model.id, messages }),
    firstAt: stream.firstAt,
    endedAt: Date.now(),
  };
}

/** A one-message request through the language model provider (`LanguageModelChat.sendRequest`). */
export async function chatThroughLanguageModel(
  model: vscode.LanguageModelChat,
  prompt: string,
): Promise<ChatOutcome> {
  const source = new vscode.CancellationTokenSource();
  let text = '';
  let firstAt = 0;
  try {
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      {},
      source.token,
    );
    for await (const piece of response.text) {
      firstAt ||= Date.now();
      text += piece;
    }
  } finally {
    source.dispose();
  }
  const expected = expectedAnswer({ model: model.id, messages: [{ role: 'user', content: prompt }] });
  return { via: 'lm', model: model.id, text, expected, firstAt, endedAt: Date.now() };
}
