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
import { registerContextCommands } from './host/context/contextCommands';
import { LazyFileIndex } from './host/context/lazyFileIndex';
import { TerminalCapture } from './host/context/terminalCapture';
import { registerExplainSelection } from './host/editor/explainSelection';
import type { ReviewSnapshot } from './host/editor/editReview';
import { registerEditReview } from './host/editor/editReviewHost';
import { lastActiveTextEditor, registerEditorTracker } from './host/editorTracker';
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
import { diskStoreFs } from './host/diskStoreFs';
import { registerCheckpointDocuments } from './host/agent/checkpointDocuments';
import { CheckpointStore } from './host/agent/checkpointStore';
import { agentToolCatalog, mcpToolLister } from './host/agent/toolCatalog';
import { AgentTerminals } from './host/agent/agentTerminal';
import { ToolSupportMemory } from './host/lm/toolSupport';
import { McpHub } from './host/agent/mcp/mcpHub';
import { AlwaysAllowedTools } from './host/agent/toolSources';

/** globalState key: model and base URL pairs whose agent runs use the text protocol (auto switched them). */
const AGENT_TEXT_PROTOCOL_KEY = 'modelGateway.agent.textProtocol';

let hubForDeactivate: ChatHub | undefined;
let mcpForDeactivate: McpHub | undefined;

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
  // Global storage is on the extension host's disk: Node's fs replaces a file in one step (see diskStoreFs).
  const local = context.globalStorageUri.scheme === 'file';
  const store = new ConversationStore(
    local ? diskStoreFs() : workspaceStoreFs(),
    vscode.Uri.joinPath(context.globalStorageUri, 'chats').fsPath,
    { onFork: (conversation, fromId) => hub.forked(conversation, fromId) },
  );
  const files = new LazyFileIndex(log);
  const terminals = new TerminalCapture();
  context.subscriptions.push(files, terminals);
  const models = new ModelDirectory(context.globalState, gateway, config, keys, log);
  const checkpoints = new CheckpointStore(
    vscode.Uri.joinPath(context.globalStorageUri, 'agent-checkpoints'),
    log,
  );
  registerCheckpointDocuments(context, checkpoints);
  const mcp = new McpHub({
    globalStorageUri: context.globalStorageUri,
    secrets: context.secrets,
    sdkPath: vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp.js').fsPath,
    version,
    log,
    setting: () => config.current.agent.mcpServers,
    callTimeoutMs: () => config.current.agent.mcpTimeoutSeconds * 1000,
  });
  mcpForDeactivate = mcp;
  context.subscriptions.push(mcp);
  // Generate Code's and Apply's review, where an agent run's changed files open too.
  const review = registerEditReview({
    context,
    gateway,
    getConfig: () => config.current,
    lastEditor: lastActiveTextEditor,
  });
  void review.recoverAutoSave(context.workspaceState);
  const agentTerminals = new AgentTerminals();
  context.subscriptions.push(agentTerminals);
  const hub = new ChatHub(
    store,
    gateway,
    config,
    keys,
    log,
    models,
    { files, terminals, apiKey: () => keys.get(), settings: () => config.current.context },
    {
      toolEnv: { apiKey: () => keys.get(), log },
      checkpoints,
      terminals: agentTerminals,
      protocolMemory: new ToolSupportMemory(context.globalState, AGENT_TEXT_PROTOCOL_KEY),
      tools: agentToolCatalog(context.workspaceState, [mcpToolLister(mcp)]),
      review,
      mcp,
      mcpAlways: new AlwaysAllowedTools(context.workspaceState),
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
  registerGenerateImage(context, gateway, () => config.current);
  registerLanguageModelProvider(context, gateway, () => config.current, models);
  const gatewayChatHandler = registerParticipant(context, gateway, () => config.current);
  const completions = registerCompletions(context, gateway);
  context.subscriptions.push(registerCommand('modelGateway.showLog', () => log.show()));

  log.info(`Model Gateway ${version} activated in ${(performance.now() - started).toFixed(1)} ms.`);
  log.info(
    `Chat history written ${local ? 'with Node fs' : 'through workspace.fs'} (${context.globalStorageUri.scheme}).`,
  );
  const openChatSession = async (options?: SessionOptions) => {
    const session = await hub.createSession(undefined, options);
    return { session, release: () => hub.release(session) };
  };
  return { gatewayChatHandler, openChatSession, reviewSnapshot: () => review.snapshot, completions };
}

/** Saves any conversation still waiting for its coalesced write and stops the MCP servers. */
export async function deactivate(): Promise<void> {
  await Promise.all([hubForDeactivate?.flush(), mcpForDeactivate?.close()]);
}
