import * as assert from 'node:assert/strict';
import { planAttachmentFit } from '../../../../src/chat/context/fit';
import { attachmentsOverheadTokens } from '../../../../src/chat/context/format';
import { MESSAGE_OVERHEAD_TOKENS } from '../../../../src/chat/tokens';

const base = { questionTokens: 10, historyTokens: 100, contextTokens: 1000, reservedTokens: 200 };

describe('chat/context/fit', () => {
  it('adds the question, the blocks, their framing and the message overhead to the history', () => {
    const plan = planAttachmentFit({ ...base, attachmentTokens: [50, 60] });
    const total = 100 + MESSAGE_OVERHEAD_TOKENS + 10 + 110 + attachmentsOverheadTokens(2);
    assert.deepEqual(plan, { fits: true, total });
  });

  it('has no framing without attachments', () => {
    assert.deepEqual(planAttachmentFit({ ...base, attachmentTokens: [] }), {
      fits: true,
      total: 110 + MESSAGE_OVERHEAD_TOKENS,
    });
  });

  it('refuses with the total, the limit and the excess', () => {
    const plan = planAttachmentFit({ ...base, attachmentTokens: [700] });
    const total = 110 + MESSAGE_OVERHEAD_TOKENS + 700 + attachmentsOverheadTokens(1);
    assert.deepEqual(plan, { fits: false, total, limit: 800, over: total - 800 });
  });

  it('fits exactly at the limit and not one token above it', () => {
    const fixed = 110 + MESSAGE_OVERHEAD_TOKENS + attachmentsOverheadTokens(1);
    assert.equal(planAttachmentFit({ ...base, attachmentTokens: [800 - fixed] }).fits, true);
    assert.deepEqual(planAttachmentFit({ ...base, attachmentTokens: [801 - fixed] }), {
      fits: false,
      total: 801,
      limit: 800,
      over: 1,
    });
  });

  it('treats an unknown context window as fitting, and a reserve over the window as no room', () => {
    assert.equal(planAttachmentFit({ ...base, contextTokens: 0, attachmentTokens: [1e9] }).fits, true);
    assert.equal(
      planAttachmentFit({ ...base, contextTokens: Number.NaN, attachmentTokens: [1e9] }).fits,
      true,
    );
    const plan = planAttachmentFit({ ...base, reservedTokens: 5000, attachmentTokens: [1] });
    assert.equal(plan.fits, false);
    assert.equal(!plan.fits && plan.limit, 0);
    assert.equal(!plan.fits && plan.over, plan.total);
  });
});
