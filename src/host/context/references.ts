import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { attachmentTokens, type Attachment } from '../../chat/context';
import { readContextSettings } from './contextSettings';
import { readFileAttachment, selectionLines, type Resolved } from './readers';

/**
 * The references of a request in VS Code's own chat (`#file`, `#selection`, locations, plain strings), read as
 * attachments with the same checks as the chat's own. Refused ones come back with the reason, to be shown.
 */
export async function referenceAttachments(
  references: readonly vscode.ChatPromptReference[],
  apiKey: string | undefined,
): Promise<{ attachments: Attachment[]; refused: string[] }> {
  const env = { settings: readContextSettings(), apiKey };
  const attachments: Attachment[] = [];
  const refused: string[] = [];
  for (const reference of references) {
    const read = await readReference(reference, env);
    if (!read) continue;
    if (read.ok) attachments.push(read.attachment);
    else refused.push(read.message);
  }
  return { attachments, refused };
}

async function readReference(
  reference: vscode.ChatPromptReference,
  env: Parameters<typeof readFileAttachment>[1],
): Promise<Resolved | undefined> {
  const { value } = reference;
  if (value instanceof vscode.Uri) return readFileAttachment(value, env);
  if (value instanceof vscode.Location) {
    const range = selectionLines(value.range);
    return readFileAttachment(value.uri, env, { kind: 'selection', range });
  }
  if (typeof value === 'string' && value.trim()) {
    const base: Omit<Attachment, 'tokens'> = {
      id: randomUUID(),
      kind: 'selection',
      name: reference.id,
      path: '',
      language: '',
      content: value,
    };
    return { ok: true, attachment: { ...base, tokens: attachmentTokens(base) } };
  }
  return undefined;
}
