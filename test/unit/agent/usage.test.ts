import { describe, expect, it } from 'vitest';
import { addUsage, cachedPercent, emptyUsage } from '../../../src/agent/events.js';
import { turnSummary } from '../../../src/tui/session.js';

describe('cached input tokens', () => {
  it('are summed like the other fields once any request reports them, and unknown until then', () => {
    const plain = { inputTokens: 100, outputTokens: 5, totalTokens: 105 };
    expect(addUsage(emptyUsage(), plain)).toEqual(plain);
    const cached = addUsage(addUsage(emptyUsage(), { ...plain, cachedInputTokens: 80 }), plain);
    expect(cached).toEqual({
      inputTokens: 200,
      outputTokens: 10,
      totalTokens: 210,
      cachedInputTokens: 80,
    });
    expect(cachedPercent(cached)).toBe(40);
    expect(cachedPercent(plain)).toBeUndefined();
    expect(cachedPercent({ ...emptyUsage(), cachedInputTokens: 0 })).toBeUndefined();
  });

  it('show in the turn summary when reported', () => {
    expect(turnSummary(2_000, 300, 87)).toBe('✓ 2.0s · 300 tokens · 150 tok/s · cached 87%');
    expect(turnSummary(2_000, 300)).toBe('✓ 2.0s · 300 tokens · 150 tok/s');
  });
});
