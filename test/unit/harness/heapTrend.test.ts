// The soak's trend check: a steady leak per conversation fails even when every sample stays in the ±10% band.
import * as assert from 'node:assert/strict';
import { growthPerChat, MAX_GROWTH_PER_CHAT, steadyGrowth } from '../../reliability/host/heapTrend';

const MB = 1024 * 1024;

/** Samples every 10 chats from 50 to `last`, with a fixed growth per chat and alternating noise. */
function series(last: number, perChat: number, noise: number): { chats: number; heapUsed: number }[] {
  const out = [];
  for (let chats = 50, i = 0; chats <= last; chats += 10, i++)
    out.push({ chats, heapUsed: 40 * MB + (chats - 50) * perChat + (i % 2 ? noise : -noise) });
  return out;
}

describe('soak heap trend', () => {
  it('measures the growth per conversation', () => {
    assert.equal(Math.round(growthPerChat(series(1000, 3000, 0))), 3000);
    assert.equal(growthPerChat([{ chats: 1, heapUsed: 5 }]), 0);
  });

  it('fails a steady 3 KB per conversation that stays within the ±10% band', () => {
    const samples = series(1000, 3000, 64 * 1024);
    const base = samples[0].heapUsed;
    assert.ok(
      samples.every((s) => Math.abs(s.heapUsed - base) / base <= 0.1),
      'inside the old band',
    );
    assert.match(steadyGrowth(samples) ?? '', /grows 2\.9 KB per conversation \(bound 2\.0 KB\)/);
  });

  it('passes a flat heap with noise, and a growth at the bound', () => {
    assert.equal(steadyGrowth(series(150, 0, 256 * 1024)), undefined);
    assert.equal(steadyGrowth(series(1000, MAX_GROWTH_PER_CHAT, 0)), undefined);
  });
});
