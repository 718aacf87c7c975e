// A file as it was before an agent run changed it, as a read-only document, so a changed file opens as a diff of
// its checkpoint against now.
import * as vscode from 'vscode';
import { decodeText } from '../../chat/context/safety';
import type { CheckpointStore } from './checkpointStore';

const SCHEME = 'model-gateway-checkpoint';

/** The URI of `path`'s bytes before the run of user turn `turnId` in a conversation. */
export function checkpointUri(conversationId: string, turnId: string, path: string): vscode.Uri {
  const query = new URLSearchParams({ conversation: conversationId, turn: turnId }).toString();
  return vscode.Uri.from({ scheme: SCHEME, path: `/${path}`, query });
}

/** Serves checkpoint documents from the store. */
export function registerCheckpointDocuments(context: vscode.ExtensionContext, store: CheckpointStore): void {
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const query = new URLSearchParams(uri.query);
      const checkpoints = await store.of(query.get('conversation') ?? '');
      const turn = query.get('turn') ?? '';
      let before;
      try {
        before = checkpoints.before(turn, uri.path.slice(1));
      } catch {
        return '';
      }
      if (before === undefined || before === 'absent') return '';
      const decoded = decodeText(before);
      return decoded.ok ? decoded.text : vscode.l10n.t('(binary content)');
    },
  };
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider));
}
