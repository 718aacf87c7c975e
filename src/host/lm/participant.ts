import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import { extractCode } from '../../chat/codeExtract';
import { withAttachments } from '../../chat/context';
import { codeGenerationMessages, explainRequestText } from '../../chat/prompts';
import type { ChatMessage } from '../../gateway/types';
import { buildChatRequest } from '../chatRequest';
import type { ExtensionConfig } from '../config';
import { describeError, isUserAbort } from '../errors';
import type { GatewayService } from '../gatewayService';
import { lastActiveTextEditor } from '../editorTracker';
import { selectionOrBlock, surroundingLines } from '../editor/editorContext';
import { generateImage } from '../images/generateImage';
import { applyCode } from '../editor/codeActions';
import { referenceAttachments } from '../context/references';
import { referencedTools, streamWithTools } from './participantTools';
import { LM_VENDOR } from './provider';

const PARTICIPANT_ID = 'modelGateway.gateway';
const INSERT_COMMAND = 'modelGateway.insertGeneratedCode';

/** Result metadata, read back by the follow-up provider. */
interface GatewayChatResult extends vscode.ChatResult {
  metadata: { command: string };
}

/** Registers `@gateway` with /explain, /code and /image. */
export function registerParticipant(
  context: vscode.ExtensionContext,
  gateway: GatewayService,
  getConfig: () => ExtensionConfig,
): vscode.ChatRequestHandler {
  const handler = createGatewayChatHandler(gateway, getConfig);
  if (typeof vscode.chat?.createChatParticipant !== 'function') return handler;
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'model-gateway.svg');
  participant.followupProvider = {
    provideFollowups: (result: GatewayChatResult) => followupsFor(result.metadata?.command ?? ''),
  };
  context.subscriptions.push(
    participant,
    registerCommand(INSERT_COMMAND, (code: string, language: string) =>
      applyCode('insert', String(code), String(language ?? '')),
    ),
  );
  return handler;
}

/** The participant's request handler; exported so tests can call it with real `vscode` objects. */
function createGatewayChatHandler(
  gateway: GatewayService,
  getConfig: () => ExtensionConfig,
): vscode.ChatRequestHandler {
  return async (request, context, stream, token): Promise<GatewayChatResult> => {
    const command = request.command ?? '';
    const config = getConfig();
    const model = request.model?.vendor === LM_VENDOR ? request.model.id : config.chat.model;
    try {
      if (command === 'image') return await imageCommand(gateway, config, request.prompt, stream);
      const messages =
        command === 'explain'
          ? explainMessages(request, stream)
          : command === 'code'
            ? codeMessages(request, stream)
            : historyMessages(context, request, config);
      if (!messages) return { metadata: { command } };
      if (request.references?.length) await attachReferences(request.references, messages, gateway, stream);
      if (!(await gateway.requireKey())) {
        stream.markdown(vscode.l10n.t('Model Gateway has no API key. Run **Model Gateway: Set API Key**.'));
        stream.button({ command: 'modelGateway.setApiKey', title: vscode.l10n.t('Set API Key') });
        return { metadata: { command } };
      }
      const tools = command || config.lm.toolCalling === 'off' ? [] : referencedTools(request);
      const built = buildChatRequest(model, messages, config);
      const text = tools.length
        ? await streamWithTools(gateway, built, tools, { stream, token, invocation: request })
        : await streamAnswer(gateway, built, stream, token, command !== 'code');
      if (command === 'code') {
        const language = lastActiveTextEditor()?.document.languageId ?? '';
        const code = extractCode(text, true);
        stream.markdown(`\`\`\`\`${language}\n${code}\n\`\`\`\`\n`);
        stream.button({
          command: INSERT_COMMAND,
          title: vscode.l10n.t('Insert'),
          arguments: [code, language],
        });
      }
      return { metadata: { command } };
    } catch (error) {
      if (!isUserAbort(error) && !token.isCancellationRequested) {
        const described = describeError(error);
        return { errorDetails: { message: described.message }, metadata: { command } };
      }
      return { metadata: { command } };
    }
  };
}

/** Adds the request's `#` references to its last user message as attachment blocks; refusals are shown. */
async function attachReferences(
  references: readonly vscode.ChatPromptReference[],
  messages: ChatMessage[],
  gateway: GatewayService,
  stream: vscode.ChatResponseStream,
): Promise<void> {
  const { attachments, refused } = await referenceAttachments(references, await gateway.requireKey());
  for (const reason of refused) stream.markdown(`> ${vscode.l10n.t('Not attached: {0}', reason)}\n\n`);
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last || !attachments.length) return;
  last.content = withAttachments(last.content, attachments);
  for (const reference of references) {
    if (reference.value instanceof vscode.Uri || reference.value instanceof vscode.Location) {
      stream.reference(reference.value);
    }
  }
}

async function streamAnswer(
  gateway: GatewayService,
  request: ReturnType<typeof buildChatRequest>,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  show: boolean,
): Promise<string> {
  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort());
  let text = '';
  try {
    if (!show) stream.progress(vscode.l10n.t('Generating code…'));
    for await (const event of gateway.current().streamChatCompletion(request, { signal: abort.signal })) {
      if (event.type !== 'text') continue;
      text += event.text;
      if (show) stream.markdown(event.text);
    }
  } finally {
    cancel.dispose();
  }
  return text;
}

function explainMessages(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
): ChatMessage[] | undefined {
  const editor = lastActiveTextEditor();
  const range = editor && selectionOrBlock(editor);
  if (!editor || !range) {
    stream.markdown(vscode.l10n.t('Select some code in an editor first; `/explain` explains the selection.'));
    return undefined;
  }
  const doc = editor.document;
  const { before, after } = surroundingLines(doc, range, 3);
  stream.reference(new vscode.Location(doc.uri, range));
  const code = doc.getText(range);
  const ask = explainRequestText(vscode.workspace.asRelativePath(doc.uri), doc.languageId, before, after);
  const extra = request.prompt.trim() ? `\n\n${request.prompt.trim()}` : '';
  return [{ role: 'user', content: `${ask}${extra}\n\n\`\`\`\`${doc.languageId}\n${code}\n\`\`\`\`` }];
}

function codeMessages(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
): ChatMessage[] | undefined {
  if (!request.prompt.trim()) {
    stream.markdown(vscode.l10n.t('Say what code to write, e.g. `/code a function that parses ISO dates`.'));
    return undefined;
  }
  const editor = lastActiveTextEditor();
  const doc = editor?.document;
  if (doc) stream.reference(doc.uri);
  const { before, after } =
    editor && doc ? surroundingLines(doc, editor.selection, 20) : { before: '', after: '' };
  return codeGenerationMessages(request.prompt, {
    fileName: doc ? vscode.workspace.asRelativePath(doc.uri) : 'untitled',
    languageId: doc?.languageId ?? 'plaintext',
    selection: '',
    before,
    after,
  });
}

function historyMessages(
  context: vscode.ChatContext,
  request: vscode.ChatRequest,
  config: ExtensionConfig,
): ChatMessage[] {
  const messages: ChatMessage[] = config.chat.systemPrompt
    ? [{ role: 'system', content: config.chat.systemPrompt }]
    : [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn && turn.participant === PARTICIPANT_ID) {
      messages.push({ role: 'user', content: turn.prompt });
    } else if (turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID) {
      const content = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('');
      if (content) messages.push({ role: 'assistant', content });
    }
  }
  messages.push({ role: 'user', content: request.prompt });
  return messages;
}

async function imageCommand(
  gateway: GatewayService,
  config: ExtensionConfig,
  prompt: string,
  stream: vscode.ChatResponseStream,
): Promise<GatewayChatResult> {
  if (!prompt.trim()) {
    stream.markdown(vscode.l10n.t('Describe the image, e.g. `/image a watercolor fox in the snow`.'));
    return { metadata: { command: 'image' } };
  }
  stream.progress(vscode.l10n.t('Generating {0} image(s) at {1}…', config.images.count, config.images.size));
  const result = await generateImage(gateway, config, { prompt: prompt.trim() });
  if (result.status !== 'saved') {
    return {
      errorDetails: { message: result.error ?? vscode.l10n.t('Image generation was cancelled.') },
      metadata: { command: 'image' },
    };
  }
  stream.markdown(`${vscode.l10n.t('Saved {0} image(s):', result.files.length)}\n\n`);
  for (const file of result.files) {
    stream.markdown(`![${file.path.split('/').pop()}](${file.toString()})\n\n`);
    stream.anchor(file, vscode.workspace.asRelativePath(file));
    stream.markdown('\n\n');
    stream.reference(file);
  }
  if (result.revisedPrompts[0])
    stream.markdown(vscode.l10n.t('Revised prompt: _{0}_', result.revisedPrompts[0]));
  return { metadata: { command: 'image' } };
}

function followupsFor(command: string): vscode.ChatFollowup[] {
  if (command === 'explain')
    return [
      { prompt: vscode.l10n.t('Explain it more simply'), label: vscode.l10n.t('Explain more simply') },
      {
        prompt: vscode.l10n.t('write tests for the selected code'),
        command: 'code',
        label: vscode.l10n.t('Write tests'),
      },
    ];
  if (command === 'code')
    return [
      {
        prompt: vscode.l10n.t('add error handling'),
        command: 'code',
        label: vscode.l10n.t('Add error handling'),
      },
    ];
  if (command === 'image')
    return [
      {
        prompt: vscode.l10n.t('the same, in another style'),
        command: 'image',
        label: vscode.l10n.t('Another style'),
      },
    ];
  return [{ prompt: vscode.l10n.t('Show an example'), label: vscode.l10n.t('Show an example') }];
}
