import { describe, expect, it } from 'vitest';
import { addUsage, cachedPercent, emptyUsage } from '../../../src/agent/events.js';
import { turnSummary } from '../../../src/tui/session.js';

describe('cached input tokens', () => {
  it('are summed like the other fields once any request reports them, and unknown until then', () => {
    const plain = { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 };
    expect(addUsage(emptyUsage(), plain)).toEqual(plain);
    const cached = addUsage(addUsage(emptyUsage(), { ...plain, cached_tokens: 80 }), plain);
    expect(cached).toEqual({
      prompt_tokens: 200,
      completion_tokens: 10,
      total_tokens: 210,
      cached_tokens: 80,
    });
    expect(cachedPercent(cached)).toBe(40);
    expect(cachedPercent(plain)).toBeUndefined();
    expect(cachedPercent({ ...emptyUsage(), cached_tokens: 0 })).toBeUndefined();
  });

  it('show in the turn summary when reported', () => {
    expect(turnSummary(2_000, 300, 87)).toBe('✓ 2.0s · 300 tokens · 150 tok/s · cached 87%');
    expect(turnSummary(2_000, 300)).toBe('✓ 2.0s · 300 tokens · 150 tok/s');
  });
});
