/**
 * Which failed requests count as "too long for the context window" (classifyOverflow): an error
 * event mid-stream has no HTTP status, and openai 7 throws those as APIErrors too; its code decides.
 */
import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyOverflow } from '../../../src/providers/context-overflow.js';
import { ContextOverflowError, ProviderError } from '../../../src/providers/types.js';

/** An error event in the stream, as the SDK throws it, and what our mapping made of it. */
function streamError(code: string | undefined, message: string): [APIError, ProviderError] {
  const raw = new APIError(undefined, { code, message }, undefined, undefined);
  return [raw, new ProviderError(`model request failed: ${message}${code ? ` (${code})` : ''}`)];
}

describe('classifyOverflow', () => {
  it('an error event whose code names another failure stays that failure, whatever its words', () => {
    const [raw, mapped] = streamError('rate_limit_exceeded', 'Too many tokens in flight.');
    expect(classifyOverflow(raw, mapped)).toBe(mapped);
  });

  it('an error event with an overflow code, or without a code but saying so, is an overflow', () => {
    for (const [code, message] of [
      ['context_length_exceeded', 'Input is too long.'],
      [undefined, "This model's maximum context length is 65536 tokens."],
    ] as const) {
      const [raw, mapped] = streamError(code, message);
      expect(classifyOverflow(raw, mapped), message).toBeInstanceOf(ContextOverflowError);
    }
  });
});
