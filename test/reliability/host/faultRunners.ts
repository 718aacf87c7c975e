// Runs one fault case per command through the real command, then runs the command again without the fault.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isPartialName } from '../../../src/images/atomicWrite';
import { parseConversationFile } from '../../../src/chat/storeFormat';
import type { AssistantTurn, Conversation } from '../../../src/chat/types';
import {
  chatRequestIn,
  expectedAnswer,
  expectedCode,
  keptAnswerText,
  type Emulator,
  type RecordedRequest,
} from '../../gateway-emulator';
import { closeAllEditors, openFile, workspaceRoot } from '../../integration/helpers';
import type { FaultCase } from './faultCases';
import { conversationsDir, waitFor, type LogTail } from './faultProbes';
import { isChatRequest, isImageRequest, lastChatBody } from '../../support/emulatorRequests';

/** What a runner needs besides the case. */
export interface FaultContext {
  emulator: Emulator;
  /** The "Model Gateway" log, marked at the start of the case. */
  log: LogTail;
  /** A short name unique to the case, for file names. */
  slug: string;
}

type GenerateCodeResult = { status: string; code?: string };
type GenerateImageResult = { status: string; files: vscode.Uri[]; error?: string };

const marker = (c: FaultCase): string => `[[fault:${c.fault}]]`;

/** The generation requests of this case (chat or images, not image downloads). */
export function gatewayCalls(emulator: Emulator): RecordedRequest[] {
  return emulator.requests.filter((r) => isChatRequest(r) || isImageRequest(r));
}

const SHOWN = 'Shown to the user: ';

/**
 * Waits for the line the extension logs when it shows an error notification, starting with `prefix`
 * (what the command did about it) and matching the case's message (the cause and the next step).
 */
async function expectShown(c: FaultCase, log: LogTail, prefix: string): Promise<void> {
  const expected = c.message;
  assert.ok(expected, 'failure cases name the message they expect');
  const shown = (): string[] =>
    log
      .sinceMark()
      .split('\n')
      .filter((line) => line.includes(SHOWN))
      .map((line) => line.slice(line.indexOf(SHOWN) + SHOWN.length));
  await waitFor(
    () => (shown().some((m) => m.startsWith(prefix) && expected.test(m)) ? true : undefined),
    () => `a notification "${prefix} …" matching ${expected}; shown: ${JSON.stringify(shown())}`,
  );
}

function assertMessage(c: FaultCase, shown: string): void {
  assert.ok(c.message, 'failure cases name the message they expect');
  assert.match(shown, c.message, `the message names the cause and the next step: "${shown}"`);
}

// CRLF line endings and non-ASCII text: a restore that is not byte for byte shows.
const ORIGINAL = 'const s = "ünïcödé — ✓";\r\nfunction add(a, b) {\r\n  return a + b;\r\n}\r\n// end\r\n';

/** Generate Code over a selection: a failure restores the original byte for byte and says so. */
export async function runGenerateCode(c: FaultCase, ctx: FaultContext): Promise<void> {
  const editor = await openFile(`fault-${ctx.slug}.js`, ORIGINAL, 'javascript');
  try {
    editor.selection = new vscode.Selection(1, 0, 4, 0);
    const result = await vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
      instruction: `rewrite it ${marker(c)}`,
    });
    if (c.outcome === 'recovered') {
      await expectReview(editor, result, ctx.emulator);
    } else {
      assert.equal(result.status, 'failed');
      assert.equal(editor.document.getText(), ORIGINAL, 'the original text is restored byte for byte');
      await expectShown(c, ctx.log, 'Code generation failed; the original text was restored.');
    }
    // The user can run the command again, and it works.
    const again = await vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
      instruction: 'rewrite it',
    });
    await expectReview(editor, again, ctx.emulator);
  } finally {
    await vscode.commands.executeCommand('modelGateway.rejectEdit');
    await closeAllEditors();
  }
}

async function expectReview(
  editor: vscode.TextEditor,
  result: GenerateCodeResult,
  emulator: Emulator,
): Promise<void> {
  assert.equal(result.status, 'review');
  // The rewrite keeps the selection's CRLF line ends; compare with LF, as the document text below is.
  const code = expectedCode(chatRequestIn(emulator.requests)).replace(/\r\n/g, '\n');
  assert.equal(
    result.code?.replace(/\r\n/g, '\n').replace(/\n$/, ''),
    code,
    'exactly the generated code, without prose or fences',
  );
  assert.ok(editor.document.getText().replace(/\r\n/g, '\n').includes(code));
  assert.equal(await vscode.commands.executeCommand('modelGateway.rejectEdit'), true);
  assert.equal(editor.document.getText(), ORIGINAL, 'Reject restores the original');
}

/** Explain Selection: the chat turn ends (never stuck streaming), keeps what arrived and shows the error. */
export async function runExplain(c: FaultCase, ctx: FaultContext): Promise<void> {
  await vscode.commands.executeCommand('modelGateway.newChat');
  const code = `// ${ctx.slug} ${marker(c)}\nfunction add(a, b) {\n  return a + b;\n}\n`;
  const turn = await explain(`fault-${ctx.slug}.js`, code, ctx);
  const request = lastChatBody(ctx.emulator);
  const full = expectedAnswer(request);
  if (c.outcome === 'recovered') {
    assert.equal(turn.status, 'complete');
    assert.equal(turn.content, full);
  } else {
    assert.ok(turn.error, `the turn carries an error (status ${turn.status})`);
    assertMessage(c, turn.error.message);
    if (c.outcome === 'partial') {
      assert.ok(['error', 'truncated'].includes(turn.status), `ended as ${turn.status}`);
      assert.ok(turn.content.length > 0, 'the partial answer is kept');
      assert.equal(turn.content, keptAnswerText(request), 'the kept text is exactly what arrived');
    } else {
      assert.equal(turn.status, 'error');
      assert.equal(turn.content, '');
    }
  }
  // A new explanation (in a new chat, as the old one quotes the fault marker) streams in full.
  await vscode.commands.executeCommand('modelGateway.newChat');
  const clean = `// ${ctx.slug}, again\nfunction add(a, b) {\n  return a + b;\n}\n`;
  const again = await explain(`fault-${ctx.slug}-again.js`, clean, ctx);
  assert.equal(again.status, 'complete');
  assert.equal(again.content, expectedAnswer(lastChatBody(ctx.emulator)));
}

async function explain(name: string, code: string, ctx: FaultContext): Promise<AssistantTurn> {
  const started = Date.now();
  const before = gatewayCalls(ctx.emulator).length;
  const editor = await openFile(name, code, 'javascript');
  try {
    editor.selection = new vscode.Selection(0, 0, code.split('\n').length - 1, 0);
    assert.equal(await vscode.commands.executeCommand('modelGateway.explainSelection'), true);
    await waitFor(() => (gatewayCalls(ctx.emulator).length > before ? true : undefined), 'the request');
    return await waitFor(
      () => finishedTurn(code, started),
      () => `the answer to end and be saved (conversations: ${savedConversations().join(', ') || 'none'})`,
      20_000,
    );
  } finally {
    await closeAllEditors();
  }
}

function savedConversations(): string[] {
  const dir = conversationsDir();
  if (!existsSync(dir)) return [`no folder ${dir}`];
  return readdirSync(dir).map((name) => `${name}: ${readFileSync(join(dir, name), 'utf8').slice(0, 1500)}`);
}

/** The last assistant turn of the saved conversation quoting `code`, once it is no longer streaming. */
function finishedTurn(code: string, since: number): AssistantTurn | undefined {
  const dir = conversationsDir();
  if (!existsSync(dir)) return undefined;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const path = join(dir, name);
    if (statSync(path).mtimeMs < since - 1000) continue;
    const parsed = parseConversationFile(readFileSync(path, 'utf8'), name.slice(0, -'.json'.length));
    if (!parsed.ok) continue;
    const conversation: Conversation = parsed.value;
    // Explain Selection sends the code as a selection attachment (issue 25, finding 10); older turns quote it.
    const quoted = conversation.turns.some(
      (t) =>
        t.role === 'user' &&
        (t.quote?.code === code ||
          (t.attachments ?? []).some((a) => a.kind === 'selection' && a.content === code)),
    );
    const last = conversation.turns.at(-1);
    if (quoted && last?.role === 'assistant' && last.status !== 'streaming') return last;
  }
  return undefined;
}

/** The folder the matrix saves images into (setting `images.folder`). */
export const IMAGE_FOLDER = 'assets/faults';

/**
 * Files of this case in the images folder (final names come from the prompt), plus every temporary file
 * in the whole folder: those are named after "image", not the prompt, so no case may leave one.
 */
function imageFiles(slug: string): string[] {
  const dir = join(workspaceRoot().fsPath, ...IMAGE_FOLDER.split('/'));
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.includes(slug) || isPartialName(name)) : [];
}

/** Generate Image: a failure writes nothing (no partial or temporary file) and says so. */
export async function runGenerateImage(c: FaultCase, ctx: FaultContext): Promise<void> {
  const options = { prompt: `a red fox ${ctx.slug} ${marker(c)}`, size: '1024x1024', n: 1 };
  const format = { responseFormat: c.responseFormat ?? 'b64_json' };
  try {
    const result = await vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
      ...options,
      ...format,
    });
    if (c.outcome === 'recovered') {
      assert.equal(result.status, 'saved', result.error);
      assert.equal(result.files.length, 1);
      assert.ok((await vscode.workspace.fs.stat(result.files[0])).size > 0);
    } else {
      assert.equal(result.status, 'failed');
      assert.deepEqual(imageFiles(ctx.slug), [], 'nothing was written, not even a temporary file');
      await expectShown(c, ctx.log, 'Image generation failed; nothing was saved.');
    }
    const again = await vscode.commands.executeCommand<GenerateImageResult>('modelGateway.generateImage', {
      prompt: `a red fox ${ctx.slug}`,
      size: '1024x1024',
      n: 1,
      ...format,
    });
    assert.equal(again.status, 'saved', again.error);
    assert.equal(imageFiles(ctx.slug).length, c.outcome === 'recovered' ? 2 : 1);
  } finally {
    await closeAllEditors();
  }
}
