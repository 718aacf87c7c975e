// Chat webview entry; built for the browser. Wires the views to the host's messages.
// First: the display language's strings are loaded before any module below builds a view.
import './l10nSetup';
import * as l10n from '@vscode/l10n';
import { estimateTokens } from '../chat/tokens';
import type { PickerItem } from '../contextProtocol';
import type { ChatViewState, HostToWebview } from '../protocol';
import { applyTargetOf, nameApplyTarget } from './applyTarget';
import { codeBlockMessage } from './codeBlock';
import { showCopied } from './copyFeedback';
import { unfoldAt } from './longRuns';
import { Composer } from './composer';
import { ChipTray, formatTokens, NoticeLine } from './contextChips';
import { SlashMenu, slashToken } from './slashMenu';
import { ContextPicker } from './contextPicker';
import { contextRequest, hashToken } from './hashToken';
import { h } from './dom';
import { Header } from './header';
import { HistoryView } from './history';
import { isAllowedLink } from './markdown';
import { OnboardingView } from './onboarding';
import { Transcript } from './transcript';
import { ToolsPicker } from './agent/toolsPicker';
import { loadUiState, parseHostMessage, post, saveUiState } from './vscodeApi';

const ui = loadUiState();
let conversationId: string | undefined;
let historyOpen = false;

const liveRegion = h('div', { class: 'visually-hidden', 'aria-live': 'polite' });
let announceTimer: ReturnType<typeof setTimeout> | undefined;
/** Says something once to screen readers (answer finished, error), never per token. */
function announce(text: string): void {
  if (!text) return;
  // Clearing first makes a repeated message ("Answer complete" twice) be read again.
  liveRegion.textContent = '';
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => (liveRegion.textContent = text), 100);
}

let scrollSaveTimer: ReturnType<typeof setTimeout> | undefined;
const transcript = new Transcript({
  post,
  announce,
  totalChanged: (tokens) => header.setTotal(tokens),
  busyChanged: (busy) => composer.setBusy(busy),
  scrolled: (fromBottom) => {
    clearTimeout(scrollSaveTimer);
    scrollSaveTimer = setTimeout(() => saveUiState({ scrollFromBottom: fromBottom }), 200);
  },
});

const header = new Header({
  selectModel: (model) => post({ type: 'setModel', model }),
  selectMode: (mode) => post({ type: 'setMode', mode }),
  newChat: () => {
    setHistoryOpen(false);
    post({ type: 'newChat' });
  },
  toggleHistory: () => setHistoryOpen(!historyOpen),
});

const history = new HistoryView(post, () => {
  setHistoryOpen(false);
  header.focusHistoryButton();
});

const onboarding = new OnboardingView(post);

let draftTimer: ReturnType<typeof setTimeout> | undefined;
const composer: Composer = new Composer(
  {
    send: (text) => {
      // Posted first: closing the popups dirties the layout, and jumping to the latest message then lays out
      // the whole transcript (hundreds of messages) before the message could leave.
      post({ type: 'send', text });
      picker.close();
      slashMenu.close();
      notice.clear();
      transcript.jumpToLatest();
    },
    edited: (text, caret) => {
      updateMeter();
      const token = contextRequest(text, caret);
      if (token) picker.show(token.mode, token.query);
      else picker.close();
      const command = slashToken(text, caret);
      if (command !== undefined) slashMenu.show(command);
      else slashMenu.close();
    },
    interceptKey: (event): boolean => slashMenu.handleKey(event) || picker.handleKey(event),
    stop: () => post({ type: 'stop' }),
    draftChanged: (text) => {
      clearTimeout(draftTimer);
      draftTimer = setTimeout(() => saveUiState({ draft: text }), 300);
    },
  },
  ui.draft ?? '',
);

const picker: ContextPicker = new ContextPicker(
  {
    query: (requestId, mode, query) => post({ type: 'contextQuery', requestId, mode, query }),
    choose: (item) => choosePickerItem(item),
  },
  composer.element.querySelector<HTMLElement>('.composer-input') ?? composer.element,
);
const slashMenu: SlashMenu = new SlashMenu(
  composer.element.querySelector<HTMLElement>('.composer-input') ?? composer.element,
  (command) => {
    slashMenu.close();
    composer.replaceRange(0, composer.value.length, `/${command} `);
  },
);
const chips = new ChipTray({
  open: (id) => post({ type: 'openContext', id }),
  remove: (id) => post({ type: 'removeContext', id }),
  accept: () => post({ type: 'acceptSuggestion' }),
  dismiss: () => post({ type: 'dismissSuggestion' }),
});
const notice = new NoticeLine();
const toolsPicker = new ToolsPicker({
  open: () => post({ type: 'openTools' }),
  list: () => post({ type: 'listTools' }),
  setEnabled: (name, enabled) => post({ type: 'setToolEnabled', name, enabled }),
});
composer.addContextButton.after(toolsPicker.element);
let contextTokens = 200_000;
composer.element.prepend(slashMenu.element, picker.element, notice.element, chips.element);

/** A kind that searches switches the token to `#file:` / `#sym:`; anything else is attached and the token removed. */
function choosePickerItem(item: PickerItem): void {
  const token = hashToken(composer.value, composer.caret);
  if (!token) return picker.close();
  if (item.key === 'mode:files' || item.key === 'mode:symbols') {
    composer.replaceRange(token.start, composer.caret, item.key === 'mode:files' ? '#file:' : '#sym:');
    return;
  }
  post({ type: 'addContext', key: item.key });
  picker.close();
  composer.replaceRange(token.start, composer.caret, '');
}

function updateMeter(): void {
  const tokens = estimateTokens(composer.value) + chips.tokens;
  composer.meter.textContent = tokens
    ? l10n.t('≈ {0} / {1} tokens', formatTokens(tokens), formatTokens(contextTokens))
    : '';
  composer.meter.title = l10n.t(
    'Estimated tokens of the message and its attachments, against the model’s context',
  );
}

// Files dragged from the Explorer arrive as a URI list (VS Code asks for Shift to drop into a webview).
document.addEventListener('dragover', (event) => {
  if (event.dataTransfer?.types.includes('text/uri-list')) event.preventDefault();
});
document.addEventListener('drop', (event) => {
  const list = event.dataTransfer?.getData('text/uri-list');
  if (!list) return;
  event.preventDefault();
  const uris = list.split(/\r?\n/).filter((line) => line && !line.startsWith('#'));
  if (uris.length) post({ type: 'dropFiles', uris });
});

function setHistoryOpen(open: boolean): void {
  historyOpen = open;
  header.setHistoryOpen(open);
  transcript.element.hidden = open;
  // The jump button belongs to the transcript: CSS keeps it hidden while History covers it.
  main.classList.toggle('history-open', open);
  history.setOpen(open);
  saveUiState({ historyOpen: open });
}

const main = h('main', { class: 'main' }, transcript.element, history.element, transcript.jumpButton);
const app = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
app.replaceChildren(header.element, onboarding.element, main, composer.element, liveRegion);

// Links and code-block buttons are handled once here, so rendered Markdown carries no listeners.
const answerSource = (turnId: string): string | undefined => transcript.answerSource(turnId);
document.addEventListener('click', (event) => {
  // A fold can sit inside a link (a long address): showing the rest must not follow the link.
  if (unfoldAt(event.target)) {
    event.preventDefault();
    return;
  }
  const codeMessage = codeBlockMessage(event.target, (block) => applyTargetOf(block, answerSource));
  if (codeMessage) {
    post(codeMessage);
    const button = (event.target as Element).closest<HTMLElement>('[data-code-action]');
    if (codeMessage.type === 'copy' && button) showCopied(button);
    return;
  }
  const link = event.target instanceof Element ? event.target.closest('a') : null;
  if (!link) return;
  // Never navigate the webview; the host decides whether and how to open the link.
  event.preventDefault();
  const href = link.getAttribute('href') ?? '';
  if (isAllowedLink(href)) post({ type: 'openLink', href });
});
// Apply's tooltip names its file, read when it is about to show (the answer may still have been streaming).
document.addEventListener('mouseover', (event) => nameApplyTarget(event.target, answerSource));
document.addEventListener('focusin', (event) => nameApplyTarget(event.target, answerSource));
document.addEventListener('auxclick', (event) => {
  if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
});

function applyState(state: ChatViewState): void {
  const saved = loadUiState();
  const same = saved.conversationId === state.conversation.id;
  conversationId = state.conversation.id;
  header.setModels(state.models, state.conversation.model);
  header.setMode(state.conversation.mode, state.agent);
  toolsPicker.setAvailable(header.modeValue === 'agent');
  history.update(state.history, conversationId);
  onboarding.update(state.onboarding);
  transcript.reset(state.conversation, state.busy, same ? saved.scrollFromBottom : undefined);
  saveUiState({ conversationId });
}

function handle(message: HostToWebview): void {
  switch (message.type) {
    case 'state':
      applyState(message.state);
      break;
    case 'turnsAdded':
      // A new turn (from the composer or a command such as Explain Selection) is what the user wants to see.
      if (historyOpen) setHistoryOpen(false);
      transcript.add(message.turns);
      break;
    case 'delta':
      transcript.delta(message);
      break;
    case 'turnFinished':
      transcript.finished(message);
      // A run starts the MCP servers: the Tools count takes in their tools.
      toolsPicker.refresh();
      break;
    case 'turnsRemoved':
      transcript.removeFrom(message.fromTurnId);
      break;
    case 'history':
      history.update(message.history, conversationId);
      break;
    case 'models':
      header.setModels(message.models, message.selected);
      break;
    case 'onboarding':
      onboarding.update(message.onboarding);
      break;
    case 'focusComposer':
      setHistoryOpen(false);
      composer.focus();
      break;
    case 'contextChips':
      contextTokens = message.contextTokens;
      chips.update(message.chips, message.suggestion);
      if (message.clearNotice) notice.clear();
      updateMeter();
      break;
    case 'contextResults':
      picker.results(message.requestId, message.items, message.pending);
      break;
    case 'notice':
      notice.show(message.level, message.message);
      break;
    case 'restoreDraft':
      composer.restore(message.text);
      break;
    case 'imageTurn':
      transcript.imageTurn(message);
      break;
    case 'imageSources':
      transcript.imageSources(message.sources);
      break;
    case 'agentRow':
    case 'agentFiles':
    case 'agentMeter':
    case 'agentPaused':
      transcript.agent(message);
      break;
    case 'checkpoint':
      transcript.checkpoint(message.turnId);
      break;
    case 'mode':
      header.setMode(message.mode, message.agent);
      toolsPicker.setAvailable(header.modeValue === 'agent');
      break;
    case 'tools':
      toolsPicker.show(message.tools);
      break;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (message) handle(message);
});

if (ui.historyOpen) setHistoryOpen(true);
post({ type: 'ready' });
