// Fuzzes the host side of the chat protocol in the real extension host: 10,000 malformed messages (every
// malformed shape of every type, then seeded random and mutated ones) go through a real chat session's
// `receive`, the entry point of the webview's messages, with the real dispatcher, store, gateway and log.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import * as vscode from 'vscode';
import type { Conversation } from '../../src/chat/types';
import type { Emulator } from '../gateway-emulator';
import { conversationsDir, errorEntries, gatewayLog } from '../reliability/host/faultProbes';
import { malformedMessages, randomMalformed, type Malformed } from '../support/webviewMessages';
import { eventually, setKey, useEmulator } from './helpers';
import { useSettingsRestored } from '../support/settings';

const TOTAL = 10_000;
const SEED = 0x15f00d;
const UNKNOWN = '(no known type)';

interface SessionApi {
  openChatSession(): Promise<{
    session: { conversation: Conversation; receive(raw: unknown): Promise<void> };
    release(): void;
  }>;
}

/** Every file under the chat store's folder, with its contents. */
function storedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(path, readFileSync(path, 'utf8'));
    }
  };
  walk(dirname(conversationsDir()));
  return files;
}

/** The first 10,000 messages of the fixed seed: each listed malformed shape once, then random ones. */
function fuzzMessages(): Malformed[] {
  const listed = malformedMessages();
  const random = fc.sample(randomMalformed(), { seed: SEED, numRuns: TOTAL - listed.length });
  return [...listed, ...random];
}

describe('chat protocol fuzz: 10,000 malformed webview messages through the real handler', function () {
  this.timeout(180_000);
  useSettingsRestored(['baseUrl']);
  let emulator: Emulator;
  let opened: Awaited<ReturnType<SessionApi['openChatSession']>>;

  before(async () => {
    const api = (await vscode.extensions.getExtension<SessionApi>('modelgateway.model-gateway')!.activate())!;
    emulator = await useEmulator();
    await setKey();
    opened = await api.openChatSession();
  });
  after(async () => {
    opened?.release();
    await emulator?.close();
  });

  it('no exception escapes, nothing stored changes, each invalid type is logged once', async () => {
    const { session } = opened;
    // A new, empty conversation: the session opens the latest stored one, which earlier suites may have used.
    await session.receive({ type: 'newChat' });
    await session.receive({ type: 'send', text: 'Name a colour' });
    assert.deepEqual(
      session.conversation.turns.map((t) => [t.role, t.role === 'assistant' ? t.status : 'sent']),
      [
        ['user', 'sent'],
        ['assistant', 'complete'],
      ],
      'a valid message reaches the real handler and is answered',
    );

    const log = gatewayLog();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): number => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    let memory = JSON.stringify(session.conversation);
    let disk = storedFiles();
    const claimed = new Set<string>();
    try {
      const messages = fuzzMessages();
      assert.equal(messages.length, TOTAL);
      for (const [i, { label, claims, message }] of messages.entries()) {
        claimed.add(claims ?? UNKNOWN);
        await session.receive(message);
        assert.equal(
          JSON.stringify(session.conversation),
          memory,
          `message ${i} (${label}) changed the chat`,
        );
        if (i % 1000 === 999) {
          assert.deepEqual(storedFiles(), disk, `the store changed by message ${i}`);
          // A valid message in between still acts: the session is alive, and the snapshot follows it.
          const model = `fuzz-model-${i}`;
          await session.receive({ type: 'setModel', model });
          assert.equal(session.conversation.model, model);
          await eventually(() =>
            assert.match(readFileSync(storePathOf(session.conversation), 'utf8'), /fuzz-model/),
          );
          memory = JSON.stringify(session.conversation);
          disk = storedFiles();
        }
      }
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    assert.deepEqual(storedFiles(), disk, 'the store is as the last valid message left it');
    assert.deepEqual(rejections, [], 'no unhandled rejection');

    // The log channel writes its file a moment later; each type that had invalid messages appears once.
    await eventually(() => {
      const counts = new Map<string, number>();
      for (const match of log
        .sinceMark()
        .matchAll(/Ignored an invalid chat message (?:"(\w+)"|of no known type)/g)) {
        const bucket = match[1] ?? UNKNOWN;
        counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
      }
      assert.deepEqual(
        [...counts].sort(),
        [...claimed].map((bucket) => [bucket, 1]).sort(),
        'one log line per message type',
      );
    }, 15_000);
    const errors = errorEntries(log.sinceMark());
    assert.deepEqual(errors, [], 'no action failed');
  });
});

/** The conversation's own file in the store. */
function storePathOf(conversation: Conversation): string {
  return join(conversationsDir(), `${conversation.id}.json`);
}
