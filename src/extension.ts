import * as vscode from 'vscode';
import { registerCommand } from './host/ourCommands';
import { ConversationStore } from './chat/store';
import { ApiKeyStore } from './host/apiKey';
import { ChatHub } from './host/chat/chatHub';
import type { ChatSession, SessionOptions } from './host/chat/chatSession';
import { registerChat } from './host/chat/chatViews';
import { type CompletionsHandle, registerCompletions } from './host/complete/registerCompletions';
import { registerApiKeyCommands } from './host/commands/apiKeyCommands';
import { registerSelectModel } from './host/commands/selectModel';
import { registerTestConnection } from './host/commands/testConnection';
import { ConfigState } from './host/configState';
import { registerEditorTracker } from './host/editorTracker';
import { registerContextCommands } from './host/context/contextCommands';
import { FileIndex } from './host/context/fileIndex';
import { TerminalCapture } from './host/context/terminalCapture';
import { registerExplainSelection } from './host/editor/explainSelection';
import type { ReviewSnapshot } from './host/editor/editReview';
import { registerApply } from './host/editor/applyBlock';
import { registerGenerateCode } from './host/editor/generateCode';
import { GatewayService } from './host/gatewayService';
import { LastConnection } from './host/lastConnection';
import { registerGenerateImage } from './host/images/generateImage';
import { registerLanguageModelProvider } from './host/lm/provider';
import { registerParticipant } from './host/lm/participant';
import { createLog } from './host/log';
import { configurePureLayerL10n } from './host/pureL10n';
import { registerStatusBar } from './host/statusBar';
import { ModelDirectory, registerModelDiscovery } from './host/modelDirectory';
import { registerWalkthrough } from './host/walkthrough';
import { workspaceStoreFs } from './host/workspaceStoreFs';
import { registerCheckpointDocuments } from './host/agent/checkpointDocuments';
import { CheckpointStore } from './host/agent/checkpointStore';
import { AgentTerminals } from './host/agent/agentTerminal';
import { ToolSupportMemory } from './host/lm/toolSupport';

/** globalState key: model and base URL pairs whose agent runs use the text protocol (auto switched them). */
const AGENT_TEXT_PROTOCOL_KEY = 'modelGateway.agent.textProtocol';

let hubForDeactivate: ChatHub | undefined;

export interface ModelGatewayApi {
  /** The `@gateway` participant's handler, for callers (and tests) where the built-in chat UI is unavailable. */
  readonly gatewayChatHandler: vscode.ChatRequestHandler;
  /** What the open edit review draws (added lines, removed lines), for tests; empty when none is open. */
  reviewSnapshot(): ReviewSnapshot;
  /** A chat session with no webview, as a chat webview's messages reach it: for tests of the protocol's host side. */
  readonly openChatSession: (options?: SessionOptions) => Promise<{ session: ChatSession; release(): void }>;
  /** The inline completion provider, its counters and status item, for tests and benchmarks. */
  readonly completions: CompletionsHandle;
}

/** Wires the shared objects and registers each feature; nothing here does I/O beyond registration. */
export function activate(context: vscode.ExtensionContext): ModelGatewayApi {
  const started = performance.now();
  configurePureLayerL10n();
  const log = createLog();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const config = new ConfigState(log);
  const keys = new ApiKeyStore(context.secrets);
  const gateway = new GatewayService(() => config.current, keys, log, `model-gateway-vscode/${version}`);
  const store = new ConversationStore(
    workspaceStoreFs(),
    vscode.Uri.joinPath(context.globalStorageUri, 'chats').fsPath,
    { onFork: (conversation, fromId) => hub.forked(conversation, fromId) },
  );
  const files = new FileIndex();
  const terminals = new TerminalCapture();
  context.subscriptions.push(files, terminals);
  const models = new ModelDirectory(context.globalState, gateway, config, keys, log);
  const checkpoints = new CheckpointStore(
    vscode.Uri.joinPath(context.globalStorageUri, 'agent-checkpoints'),
    log,
  );
  registerCheckpointDocuments(context, checkpoints);
  const agentTerminals = new AgentTerminals();
  context.subscriptions.push(agentTerminals);
  const hub = new ChatHub(
    store,
    gateway,
    config,
    keys,
    log,
    models,
    { files, terminals, apiKey: () => keys.get() },
    {
      toolEnv: { apiKey: () => keys.get(), log },
      checkpoints,
      terminals: agentTerminals,
      protocolMemory: new ToolSupportMemory(context.globalState, AGENT_TEXT_PROTOCOL_KEY),
    },
  );
  hubForDeactivate = hub;
  context.subscriptions.push(log, config, keys, gateway);

  registerEditorTracker(context);
  registerApiKeyCommands(context, keys);
  registerWalkthrough(context, keys, log, { gateway, store });
  const lastConnection = new LastConnection();
  context.subscriptions.push(lastConnection);
  registerTestConnection(context, gateway, () => config.current, lastConnection);
  registerModelDiscovery(context, models);
  registerSelectModel(context, () => config.current, models);
  registerStatusBar(context, () => config.current, models, lastConnection);
  const chat = registerChat(context, hub);
  registerExplainSelection(context, chat);
  registerContextCommands(context, chat);
  const review = registerGenerateCode(context, gateway, () => config.current);
  void review.recoverAutoSave(context.workspaceState);
  registerApply(context, gateway, () => config.current, review);
  registerGenerateImage(context, gateway, () => config.current);
  registerLanguageModelProvider(context, gateway, () => config.current, models);
  const gatewayChatHandler = registerParticipant(context, gateway, () => config.current);
  const completions = registerCompletions(context, gateway);
  context.subscriptions.push(registerCommand('modelGateway.showLog', () => log.show()));

  log.info(`Model Gateway ${version} activated in ${(performance.now() - started).toFixed(1)} ms.`);
  const openChatSession = async (options?: SessionOptions) => {
    const session = await hub.createSession(undefined, options);
    return { session, release: () => hub.release(session) };
  };
  return { gatewayChatHandler, openChatSession, reviewSnapshot: () => review.snapshot, completions };
}

/** Saves any conversation still waiting for its coalesced write. */
export async function deactivate(): Promise<void> {
  await hubForDeactivate?.flush();
}
