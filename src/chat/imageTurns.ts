/** Image turns (`/image` in the chat): creating, finishing and exporting them. Pure: paths, never bytes. */
import { deriveTitle, NEW_CONVERSATION_TITLE, newId } from './conversation';
import type { Conversation, ImageTurn, ImageTurnFile, ImageTurnOptions, TurnError } from './types';

/** Appends an image turn in `generating` state; the first turn of an untitled conversation names it. */
export function startImageTurn(
  conv: Conversation,
  request: { content: string; prompt: string; model: string; options: ImageTurnOptions },
  now: number = Date.now(),
): ImageTurn {
  const turn: ImageTurn = {
    id: newId(),
    role: 'image',
    ...request,
    status: 'generating',
    images: [],
    createdAt: now,
  };
  if (conv.turns.length === 0 && conv.title === NEW_CONVERSATION_TITLE)
    conv.title = deriveTitle(request.prompt);
  conv.turns.push(turn);
  conv.updatedAt = now;
  return turn;
}

/** What ended an image turn: the saved files, a Stop, or an error. */
export type ImageTurnOutcome =
  | { status: 'complete'; images: ImageTurnFile[] }
  | { status: 'stopped' }
  | { status: 'error'; error: TurnError };

/** Records how a generating image turn ended; returns it, or undefined when there is no such generating turn. */
export function finishImageTurn(
  conv: Conversation,
  turnId: string,
  outcome: ImageTurnOutcome,
  now: number = Date.now(),
): ImageTurn | undefined {
  const turn = conv.turns.find((t): t is ImageTurn => t.id === turnId && t.role === 'image');
  if (!turn || turn.status !== 'generating') return undefined;
  turn.status = outcome.status;
  if (outcome.status === 'complete') turn.images = outcome.images;
  if (outcome.status === 'error') turn.error = outcome.error;
  turn.durationMs = Math.max(0, now - turn.createdAt);
  conv.updatedAt = now;
  return turn;
}

/**
 * An image turn as Markdown: the command, then each image as a link relative to the exported file's folder
 * (`fromDir`, a workspace-relative folder; '' for the workspace root), with its revised prompt.
 */
export function imageTurnMarkdown(turn: ImageTurn, fromDir = ''): string {
  const lines = [`### Image (${oneLine(turn.model)})`, `\`/image\` ${oneLine(turn.prompt)}`];
  lines.push(`_${turn.options.size} · ${turn.options.quality} · ${turn.options.n} requested_`);
  for (const image of turn.images) {
    const alt = oneLine(turn.prompt).replace(/[[\]\\]/g, '\\$&');
    lines.push(`![${alt}](${relativeLink(fromDir, image.path)})`);
    if (image.revisedPrompt) lines.push(`> Revised prompt: ${oneLine(image.revisedPrompt)}`);
  }
  if (turn.status === 'stopped') lines.push('_[Stopped by the user]_');
  if (turn.status === 'interrupted')
    lines.push('_[Interrupted: VS Code closed or reloaded while generating]_');
  if (turn.status === 'error')
    lines.push(`> **Error:** ${oneLine(turn.error?.message ?? 'the request failed')}`);
  return lines.join('\n\n');
}

/** A URL-encoded relative link from one folder to a file, both given relative to the same root with `/`. */
export function relativeLink(fromDir: string, to: string): string {
  const a = fromDir.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i).map(encodeURIComponent)].join('/');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
