/**
 * A router's relayed failure reason (OpenRouter's `error.metadata.raw` and `provider_name`): the
 * upstream's words, from its JSON body when it sent one, on one visible, bounded line.
 */
import { describe, expect, it } from 'vitest';
import { upstreamReason } from '../../../src/providers/upstream-reason.js';

const relayed = (metadata: unknown) => ({ code: 429, message: 'Provider returned error', metadata });

describe('upstreamReason', () => {
  it('names the provider and its reason, from a JSON body or plain text', () => {
    expect(upstreamReason(relayed({ raw: 'rate-limited upstream', provider_name: 'Chutes' }))).toBe(
      ' — Chutes: rate-limited upstream',
    );
    expect(
      upstreamReason(relayed({ raw: '{"error":{"message":"Quota exceeded"}}', provider_name: 'Google' })),
    ).toBe(' — Google: Quota exceeded');
    expect(upstreamReason(relayed({ raw: '{"error":"overloaded"}' }))).toBe(' — upstream: overloaded');
    expect(upstreamReason(relayed({ raw: '{"detail":"x"}' }))).toBe(' — upstream: {"detail":"x"}');
    expect(upstreamReason(relayed({ raw: '{not json' }))).toBe(' — upstream: {not json');
    expect(upstreamReason(relayed({ provider_name: 'Chutes' }))).toBe(' — from Chutes');
  });

  it('says nothing when nothing is relayed', () => {
    for (const error of [
      undefined,
      null,
      'text',
      { message: 'x' },
      relayed(null),
      relayed({ raw: 42 }),
      relayed({ raw: '  ' }),
    ]) {
      expect(upstreamReason(error)).toBe('');
    }
  });

  it('keeps untrusted text on one visible line, within bounds', () => {
    const reason = upstreamReason(
      relayed({
        raw: `bad\u001b[2J\r\nnews\u202e ${'y'.repeat(5_000)}`,
        provider_name: `P\u0007${'n'.repeat(500)}`,
      }),
    );
    expect(reason).toMatch(/^ — P\^Gn+…: bad\^\[\[2J news<U\+202E> y+…$/);
    expect(reason.length).toBeLessThan(400);
  });
});
