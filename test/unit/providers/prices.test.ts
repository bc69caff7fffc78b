/**
 * The price table behind `total_cost_usd`: a known model's tokens at its list price (cache reads
 * at their own rate), the longest prefix winning (`gpt-5-mini` is not `gpt-5`), a dated or
 * router-prefixed id read by its model, and 0 for a model the table does not know or no usage.
 */
import { describe, expect, it } from 'vitest';
import { costUsd } from '../../../src/providers/prices.js';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens?: number) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
  ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
});

describe('costUsd', () => {
  it('prices input, cache reads and output at the model’s rates', () => {
    expect(costUsd('claude-sonnet-4-5-20250929', usage(2_000_000, 1_000_000, 1_000_000))).toBeCloseTo(
      3 + 0.3 + 15,
      10,
    );
    expect(costUsd('deepseek-chat', usage(1_000_000, 0))).toBeCloseTo(0.28, 10);
  });

  it('takes the longest matching prefix and reads a router’s vendor/model by the model', () => {
    expect(costUsd('gpt-5-mini', usage(1_000_000, 0))).toBeCloseTo(0.25, 10);
    expect(costUsd('gpt-5', usage(1_000_000, 0))).toBeCloseTo(1.25, 10);
    expect(costUsd('anthropic/claude-opus-4-5', usage(0, 1_000_000))).toBeCloseTo(25, 10);
    expect(costUsd('claude-opus-4-1', usage(0, 1_000_000))).toBeCloseTo(75, 10);
  });

  it('is 0 for an unknown model or no usage', () => {
    expect(costUsd('qwen3', usage(1_000_000, 1_000_000))).toBe(0);
    expect(costUsd('fake-model', usage(10, 10))).toBe(0);
    expect(costUsd('gpt-5', undefined)).toBe(0);
  });
});
