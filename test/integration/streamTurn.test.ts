// The chat's stream loop (src/host/chat/streamTurn.ts) against the emulator with the real client: the first
// token is posted to the webview as it arrives, not a timer later, and later tokens still coalesce.
import * as assert from 'node:assert/strict';
import { addUserTurn, createConversation, startAssistantTurn } from '../../src/chat/conversation';
import { createGatewayClient } from '../../src/gateway/client';
import { DEFAULT_CHAT_MODEL } from '../../src/gateway/models';
import { streamTurn } from '../../src/host/chat/streamTurn';
import type { HostToWebview } from '../../src/protocol';
import { expectedChatAnswer, type Emulator } from '../gateway-emulator';
import { TEST_KEY, keyedEmulator } from './helpers';

type Delta = Extract<HostToWebview, { type: 'delta' }>;

/** Streams one answer to `question`; `atFirstChange` sees the posts made when the first event was handled. */
async function run(emulator: Emulator, question: string) {
  const client = createGatewayClient({ baseUrl: emulator.url, apiKey: TEST_KEY, retry: { maxRetries: 0 } });
  const conversation = createConversation(DEFAULT_CHAT_MODEL);
  addUserTurn(conversation, question);
  const turn = startAssistantTurn(conversation, DEFAULT_CHAT_MODEL);
  const posted: HostToWebview[] = [];
  let atFirstChange: HostToWebview[] | undefined;
  /** What was posted when the finished turn was saved, and the turn as it was then. */
  let atSave: { posted: HostToWebview[]; status: string; text: string } | undefined;
  try {
    const outcome = await streamTurn({
      client,
      request: { model: DEFAULT_CHAT_MODEL, messages: [{ role: 'user', content: question }] },
      conversation,
      turn,
      signal: new AbortController().signal,
      post: (m) => posted.push(m),
      onChange: () => (atFirstChange ??= [...posted]),
      saveFinished: async () => {
        atSave = { posted: [...posted], status: turn.status, text: turn.content };
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
    return { outcome, posted, atFirstChange: atFirstChange ?? [], atSave, text: turn.content };
  } finally {
    await client.close();
  }
}

const deltas = (messages: HostToWebview[]): Delta[] => messages.filter((m): m is Delta => m.type === 'delta');

describe('Chat stream loop (streamTurn)', () => {
  let emulator: Emulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('posts the first token as soon as it arrives', async () => {
    emulator = await keyedEmulator({ chunkDelayMs: 50 });
    const result = await run(emulator, 'Explain what a ledger is.');
    assert.equal(result.outcome.status, 'complete');
    const first = deltas(result.atFirstChange);
    assert.equal(first.length, 1, 'a delta was posted while the first event was handled');
    assert.ok(first[0].text && result.text.startsWith(first[0].text), 'it carries the first token');
  });

  it('still coalesces tokens that arrive within a frame, and loses none', async () => {
    emulator = await keyedEmulator({ chunkDelayMs: 0, chunkSize: 2 });
    const question = 'Explain what a ledger is.';
    const result = await run(emulator, question);
    const sent = deltas(result.posted);
    const events = Math.ceil([...result.text].length / 2);
    assert.ok(sent.length < events, `${sent.length} deltas for about ${events} events`);
    assert.equal(sent.map((d) => d.text ?? '').join(''), result.text);
    assert.equal(result.text, expectedChatAnswer(question));
  });

  it('saves the finished turn before the webview is told it ended, with every delta already posted', async () => {
    emulator = await keyedEmulator({ chunkDelayMs: 0, chunkSize: 2 });
    const result = await run(emulator, 'Explain what a ledger is.');
    assert.ok(result.atSave, 'the finished turn was saved');
    assert.equal(result.atSave.status, 'complete');
    assert.equal(result.atSave.text, result.text);
    assert.ok(!result.atSave.posted.some((m) => m.type === 'turnFinished'), 'saved before turnFinished');
    assert.equal(
      deltas(result.atSave.posted)
        .map((d) => d.text ?? '')
        .join(''),
      result.text,
    );
    assert.equal(result.posted.at(-1)?.type, 'turnFinished');
  });
});
