import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/permissions/redact.js';
import { BoundedText, truncate } from '../../../src/util/text.js';

const redact = createRedactor({ DEPLOY_TOKEN: 'dtk-0123456789abcdef' });

describe('truncation with redaction', () => {
  it('BoundedText catches a secret that arrives in pieces across the limit', () => {
    const output = new BoundedText(20, redact);
    for (const chunk of ['0123456789', 'abcdef', 'dtk-0123', '456789abcdef', ' and a long tail'.repeat(50)]) {
      output.push(chunk);
    }
    expect(output.total).toBe(16 + 20 + 800);
    expect(output.toString()).toBe(
      '0123456789abcdef[REDACTED:DEPLOY_TOKEN]\n(output truncated, 836 chars in total)',
    );
  });

  it('BoundedText redacts short output whole and keeps only limit + the longest secret in memory', () => {
    const short = new BoundedText(100, redact);
    short.push('token dtk-0123456789abcdef.');
    expect(short.toString()).toBe('token [REDACTED:DEPLOY_TOKEN].');
    const plain = new BoundedText(5);
    plain.push('abcdefgh');
    expect(plain.toString()).toBe('abcde\n(output truncated, 8 chars in total)');
  });

  it('truncate redacts before cutting', () => {
    const text = `${'x'.repeat(10)}dtk-0123456789abcdef${'y'.repeat(10)}`;
    expect(truncate(text, 15, redact)).toBe(
      `${'x'.repeat(10)}[REDACTED:DEPLOY_TOKEN]\n(output truncated, 40 chars in total)`,
    );
    expect(truncate(text, 15)).toBe(`${'x'.repeat(10)}dtk-0\n(output truncated, 40 chars in total)`);
    expect(truncate('dtk-0123456789abcdef', 100, redact)).toBe('[REDACTED:DEPLOY_TOKEN]');
  });
});
