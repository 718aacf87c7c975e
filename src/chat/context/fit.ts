/** Whether a message with attachments fits the model's context, with the numbers to say why not. */
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens';
import { attachmentsOverheadTokens } from './format';

/** The input of `planAttachmentFit`; every figure is an estimate in tokens. */
export interface AttachmentFitInput {
  /** The question's text as typed (with any quoted code), e.g. `estimateTokens(text)`. */
  questionTokens: number;
  /** Each attachment's formatted block (`Attachment.tokens`). */
  attachmentTokens: readonly number[];
  /** The rest of the request: system prompt, earlier turns and reply priming (`estimateMessagesTokens`). */
  historyTokens: number;
  /** The model's context window; 0 or less when unknown. */
  contextTokens: number;
  /** Tokens kept free for the answer. */
  reservedTokens: number;
}

/** The outcome of `planAttachmentFit`. */
export type AttachmentFitPlan =
  | { fits: true; total: number }
  /** `limit` is the context minus the reserve; `over` is by how much `total` exceeds it. */
  | { fits: false; total: number; limit: number; over: number };

/**
 * Whether the new message (question, attachments and the text that frames them, plus the message's
 * own overhead) fits beside the history. Attachments are never trimmed to fit: when they do not, the
 * caller refuses the send and shows these numbers. With an unknown context window it always fits,
 * and the server has the final word.
 */
export function planAttachmentFit(input: AttachmentFitInput): AttachmentFitPlan {
  const attachments = input.attachmentTokens.reduce((sum, t) => sum + t, 0);
  const total =
    input.historyTokens +
    MESSAGE_OVERHEAD_TOKENS +
    input.questionTokens +
    attachments +
    attachmentsOverheadTokens(input.attachmentTokens.length);
  if (!(input.contextTokens > 0)) return { fits: true, total };
  const limit = Math.max(0, input.contextTokens - Math.max(0, input.reservedTokens));
  return total <= limit ? { fits: true, total } : { fits: false, total, limit, over: total - limit };
}
