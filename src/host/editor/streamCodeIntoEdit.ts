// The streaming step shared by Generate Code and Apply (merge): the model's code flows into the editor.
import * as vscode from 'vscode';
import { extractCode } from '../../chat/codeExtract';
import type { ChatCompletionRequest } from '../../gateway/types';
import type { GatewayService } from '../gatewayService';
import type { InlineEdit } from './inlineEdit';
import type { ReviewController } from './reviewController';

// Often enough to look live, rarely enough that a fast stream does not queue an edit per token.
const EDIT_INTERVAL_MS = 50;

/**
 * Streams `request` under a cancellable progress notification titled `title`, showing the code so far in
 * `edit` (and its review preview) at most every EDIT_INTERVAL_MS. Cancel aborts `abort`. Resolves with the
 * whole answer text; rejects with what the stream threw.
 */
export async function streamCodeIntoEdit(
  gateway: GatewayService,
  request: ChatCompletionRequest,
  edit: InlineEdit,
  review: ReviewController,
  abort: AbortController,
  title: string,
): Promise<string> {
  let text = '';
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (_progress, token) => {
      const cancel = token.onCancellationRequested(() => abort.abort());
      let lastEdit = 0;
      try {
        for await (const event of gateway.current().streamChatCompletion(request, { signal: abort.signal })) {
          if (event.type !== 'text') continue;
          text += event.text;
          if (Date.now() - lastEdit >= EDIT_INTERVAL_MS) {
            // The request went out at once; the first edit waits until auto-save cannot write the proposal.
            await review.whenAutoSaveOff();
            lastEdit = Date.now();
            const partial = extractCode(text, false);
            void edit.setCode(partial).then((ok) => ok && review.preview(partial));
          }
        }
      } finally {
        cancel.dispose();
      }
    },
  );
  return text;
}
