// The `@gateway` participant's handler, called directly with real `vscode` objects: VS Code's built-in chat
// cannot send it requests here (see docs/architecture.md), so the handler comes from the API activate() returns.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readImageDimensions } from '../support/pngInfo';
import { expectedAnswer, chatRequestIn, expectedCode, type Emulator } from '../gateway-emulator';
import { openFile, setKey, setSetting, TEST_KEY, useEmulator, withGateway, workspaceRoot } from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';

const PARTICIPANT = 'modelGateway.gateway';

type ChatBody = { model: string; messages: { role: string; content: string }[] };

/** A `ChatResponseStream` that records every call, in order. */
class RecordingStream implements vscode.ChatResponseStream {
  readonly parts: { kind: string; value: unknown }[] = [];
  onMarkdown: (() => void) | undefined;

  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
    this.onMarkdown?.();
  }
  anchor(value: vscode.Uri | vscode.Location, title?: string): void {
    this.parts.push({ kind: 'anchor', value: { value, title } });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', value: command });
  }
  filetree(value: vscode.ChatResponseFileTree[]): void {
    this.parts.push({ kind: 'filetree', value });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'reference', value });
  }
  push(part: vscode.ChatResponsePart): void {
    this.parts.push({ kind: 'push', value: part });
  }

  all<T = string>(kind: string): T[] {
    return this.parts.filter((p) => p.kind === kind).map((p) => p.value as T);
  }
}

// The runtime classes have public constructors; the typings hide them because only VS Code creates turns.
const RequestTurn = vscode.ChatRequestTurn as unknown as new (
  prompt: string,
  command: string | undefined,
  references: vscode.ChatPromptReference[],
  participant: string,
  toolReferences: vscode.ChatLanguageModelToolReference[],
) => vscode.ChatRequestTurn;
const ResponseTurn = vscode.ChatResponseTurn as unknown as new (
  response: vscode.ChatResponseMarkdownPart[],
  result: vscode.ChatResult,
  participant: string,
) => vscode.ChatResponseTurn;

describe('@gateway participant handler (real extension host, real vscode objects)', function () {
  this.timeout(60_000);
  useSettingsRestored(['images.folder']);
  let emulator: Emulator;
  let handler: vscode.ChatRequestHandler;
  let model: vscode.LanguageModelChat;

  before(async () => {
    const extension = vscode.extensions.getExtension<{ gatewayChatHandler: vscode.ChatRequestHandler }>(
      'modelgateway.model-gateway',
    );
    handler = (await extension!.activate()).gatewayChatHandler;
    assert.equal(typeof handler, 'function', 'activate() returns the handler');
    emulator = await useEmulator();
    await setKey();
    [model] = await vscode.lm.selectChatModels({ vendor: 'modelgateway', id: 'alpha-haiku-3-5-20241022' });
    assert.ok(model, 'the provider offers the model');
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(() => emulator.reset());

  /** Calls the handler as VS Code's chat would. */
  async function ask(
    prompt: string,
    options: {
      command?: string;
      history?: vscode.ChatContext['history'];
      token?: vscode.CancellationToken;
      references?: vscode.ChatPromptReference[];
    } = {},
    stream = new RecordingStream(),
  ): Promise<{ result: vscode.ChatResult; stream: RecordingStream }> {
    const request = {
      prompt,
      command: options.command,
      references: options.references ?? [],
      toolReferences: [],
      model,
    } as unknown as vscode.ChatRequest;
    const token = options.token ?? new vscode.CancellationTokenSource().token;
    const result = (await handler(request, { history: options.history ?? [] }, stream, token)) ?? {};
    return { result, stream };
  }

  function chatBodies(): ChatBody[] {
    return chatRequestsOf(emulator).map((r) => r.body as ChatBody);
  }

  it('/explain explains the real selection and points to it', async () => {
    const editor = await openFile(
      'participant-explain.ts',
      'const a = 1;\nconst twice = (n: number) => n * 2;\nexport { a };\n',
      'typescript',
    );
    const line = editor.document.lineAt(1).range;
    editor.selection = new vscode.Selection(line.start, line.end);
    const { result, stream } = await ask('', { command: 'explain' });
    assert.equal(result.errorDetails, undefined);
    const [sent] = chatBodies();
    assert.ok(
      sent.messages.at(-1)!.content.includes('const twice = (n: number) => n * 2;'),
      'the selection was sent',
    );
    assert.equal(sent.model, 'alpha-haiku-3-5-20241022', 'the model chosen in the chat is used');
    assert.equal(stream.all('markdown').join(''), expectedAnswer(sent));
    const [reference] = stream.all<vscode.Location>('reference');
    assert.equal(reference.uri.toString(), editor.document.uri.toString());
    assert.ok(reference.range.isEqual(line), 'the reference is the selection');
  });

  it('sends #file and #selection references as attachment blocks, and refuses a secrets file with the reason', async () => {
    const editor = await openFile(
      'participant-refs.ts',
      'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n',
    );
    const secrets = vscode.Uri.joinPath(workspaceRoot(), '.env');
    await vscode.workspace.fs.writeFile(secrets, new TextEncoder().encode('TOKEN=participant-secret-8812\n'));
    try {
      const uri = editor.document.uri;
      const { result, stream } = await ask('What do these hold?', {
        references: [
          { id: 'vscode.file', value: uri } as vscode.ChatPromptReference,
          {
            id: 'vscode.selection',
            value: new vscode.Location(uri, new vscode.Range(1, 0, 2, 0)),
          } as vscode.ChatPromptReference,
          { id: 'vscode.file', value: secrets } as vscode.ChatPromptReference,
        ],
      });
      assert.equal(result.errorDetails, undefined);
      const [sent] = chatBodies();
      const last = sent.messages.at(-1)!.content;
      assert.match(last, /<attachment kind="file" path="participant-refs\.ts" language="typescript">/);
      assert.match(
        last,
        /<attachment kind="selection" path="participant-refs\.ts" lines="2-2" language="typescript">\n`{3,}typescript\nexport const two = 2;\n`{3,}/,
      );
      assert.ok(last.endsWith('Question:\nWhat do these hold?'), 'the question follows the attachments');
      assert.ok(!JSON.stringify(sent).includes('participant-secret-8812'), 'the .env content was not sent');
      const shown = stream.all('markdown').join('');
      assert.match(shown, /Not attached: \.env matches the secrets pattern "\*\*\/\.env"/);
      assert.ok(
        shown.includes(
          'Attachments received: file `participant-refs.ts`; selection `participant-refs.ts` lines 2-2.',
        ),
      );
    } finally {
      await vscode.workspace.fs.delete(secrets);
    }
  });

  it('/code answers with the code only and an Insert button that inserts it in the editor', async () => {
    const editor = await openFile('participant-code.py', 'import os\n\n', 'python');
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    const { result, stream } = await ask('a greeting function', { command: 'code' });
    assert.equal(result.errorDetails, undefined);
    const code = expectedCode(chatRequestIn(emulator.requests));
    assert.match(code, /^def greeting\(text: str\) -> str:/);
    assert.ok(stream.all('markdown').join('').includes(`\`\`\`\`python\n${code}\n\`\`\`\``));
    const [button] = stream.all<vscode.Command>('button');
    assert.equal(button.title, 'Insert');
    assert.deepEqual(button.arguments, [code, 'python']);
    assert.equal(stream.all<vscode.Uri>('reference')[0].toString(), editor.document.uri.toString());
    await vscode.commands.executeCommand(button.command, ...(button.arguments ?? []));
    // Inserted at the end of a file that ends with a line break, the code keeps one after it (issue 25, finding 4).
    assert.equal(editor.document.getText(), `import os\n\n${code}\n`);
  });

  it('/image writes valid PNG files in the workspace and links them', async () => {
    await setSetting('images.folder', 'assets/participant');
    const { result, stream } = await ask('a watercolor fox in the snow', { command: 'image' });
    assert.equal(result.errorDetails, undefined);
    const anchors = stream.all<{ value: vscode.Uri }>('anchor').map((a) => a.value);
    assert.equal(anchors.length, 1);
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'assets', 'participant');
    assert.ok(anchors[0].path.startsWith(`${folder.path}/a-watercolor-fox-in-the-snow`), anchors[0].path);
    const bytes = await vscode.workspace.fs.readFile(anchors[0]);
    assert.deepEqual(readImageDimensions(bytes), { format: 'png', width: 1024, height: 1024 });
    assert.ok(stream.all('markdown').join('').includes(`](${anchors[0].toString()})`), 'the image is shown');
    assert.equal(stream.all<vscode.Uri>('reference')[0].toString(), anchors[0].toString());
    await vscode.workspace.fs.delete(folder, { recursive: true });
  });

  it('a plain question is sent with the conversation history the chat API gives', async () => {
    const history = [
      new RequestTurn('What is a monad?', undefined, [], PARTICIPANT, []),
      new ResponseTurn(
        [new vscode.ChatResponseMarkdownPart('A monoid in the category of endofunctors.')],
        {},
        PARTICIPANT,
      ),
      new RequestTurn('not for us', undefined, [], 'someone.else', []),
      new ResponseTurn([new vscode.ChatResponseMarkdownPart('other participant')], {}, 'someone.else'),
    ];
    const { result, stream } = await ask('Give an example in TypeScript', { history });
    assert.equal(result.errorDetails, undefined);
    const [sent] = chatBodies();
    assert.deepEqual(
      sent.messages.filter((m) => m.role !== 'system'),
      [
        { role: 'user', content: 'What is a monad?' },
        { role: 'assistant', content: 'A monoid in the category of endofunctors.' },
        { role: 'user', content: 'Give an example in TypeScript' },
      ],
    );
    assert.equal(stream.all('markdown').join(''), expectedAnswer(sent));
  });

  it('without a key it says so, offers Set API Key and sends nothing', async () => {
    const fromEnv = process.env.MODEL_GATEWAY_API_KEY;
    delete process.env.MODEL_GATEWAY_API_KEY;
    await vscode.commands.executeCommand('modelGateway.clearApiKey');
    try {
      const { stream } = await ask('hello');
      assert.match(stream.all('markdown').join(''), /no API key.*Set API Key/);
      assert.deepEqual(
        stream.all<vscode.Command>('button').map((b) => b.command),
        ['modelGateway.setApiKey'],
      );
      assert.equal(chatBodies().length, 0);
    } finally {
      if (fromEnv !== undefined) process.env.MODEL_GATEWAY_API_KEY = fromEnv;
      await setKey(TEST_KEY);
    }
  });

  it('cancellation closes the gateway connection and keeps the text that arrived', async () => {
    await withGateway({ chunkDelayMs: 40, chunkSize: 2 }, async (slow) => {
      const source = new vscode.CancellationTokenSource();
      const stream = new RecordingStream();
      stream.onMarkdown = () => stream.all('markdown').length === 3 && source.cancel();
      const { result } = await ask('Tell me slowly', { token: source.token }, stream);
      assert.equal(result.errorDetails, undefined, 'a cancel is not an error');
      await slow.waitFor((requests) => requests.some((r) => r.clientClosed), 5000);
      const sent = chatRequestsOf(slow).at(0)!;
      assert.equal(sent.responseEnded, false, 'the answer was cut off');
      const text = stream.all('markdown').join('');
      assert.ok(text.length > 0 && expectedAnswer(sent.body as ChatBody).startsWith(text), text);
    });
  });
});
