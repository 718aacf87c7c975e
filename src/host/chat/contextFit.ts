/** Whether a chat send fits the model's context: the refusal of an attachment send, the dialog of a long chat. */
import * as vscode from 'vscode';
import { planAttachmentFit, type Attachment } from '../../chat/context';
import type { CountedMessages } from '../../chat/messageMemo';
import { dropOldestTurns, estimateTokens, planContextFit } from '../../chat/tokens';
import { CONTEXT_TOKENS, formatContextSize } from '../../gateway/models';

/** The context size as the messages name it. */
export const CONTEXT = formatContextSize(CONTEXT_TOKENS);

/** The refusal message when the question, its attachments and the conversation exceed the model's context. */
export function overContextRefusal(
  text: string,
  attachments: readonly Attachment[],
  room: { historyTokens: () => number; reservedTokens: number },
): string | undefined {
  if (!attachments.length) return undefined;
  const plan = planAttachmentFit({
    questionTokens: estimateTokens(text),
    attachmentTokens: attachments.map((a) => a.tokens),
    historyTokens: room.historyTokens(),
    contextTokens: CONTEXT_TOKENS,
    reservedTokens: room.reservedTokens,
  });
  if (plan.fits) return undefined;
  const attached = attachments.reduce((sum, a) => sum + a.tokens, 0);
  const n = (value: number): string => value.toLocaleString('en-US');
  return vscode.l10n.t(
    'Not sent: with its attachments (about {0} tokens) this message needs about {1} tokens, over the {2} the model has room for by {3}. Remove an attachment or start a new chat.',
    n(attached),
    n(plan.total),
    n(plan.limit),
    n(plan.over),
  );
}

/** Returns the messages to send, trimmed when the user agrees, or undefined when they are too long. */
export async function fitContext(
  { messages, estimate }: CountedMessages,
  reserved: number,
  options: { dropOldest?: boolean },
): Promise<CountedMessages['messages'] | undefined> {
  const plan = planContextFit(messages, CONTEXT_TOKENS, reserved, estimate);
  if (plan.fits) return messages;
  if (options.dropOldest) return dropOldestTurns(messages, plan.dropCount);
  const drop = vscode.l10n.t('Drop oldest turns');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      "This conversation is about {0} tokens, over the model's {1} context.",
      plan.estimate.toLocaleString(),
      CONTEXT,
    ),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Sending it needs the {0} oldest turns left out. Your history is kept.',
        plan.dropCount,
      ),
    },
    drop,
  );
  return choice === drop ? dropOldestTurns(messages, plan.dropCount) : undefined;
}
