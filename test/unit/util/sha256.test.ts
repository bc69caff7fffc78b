/** sha256Hex (src/util/sha256.ts) gives node:crypto's digest, across block boundaries and UTF-8. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/util/sha256.js';

const nodeDigest = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('matches node:crypto for empty, short, padding-edge, multi-block and non-ASCII text', () => {
    const texts = [
      '',
      'abc',
      '/home/ada/src/app',
      'x'.repeat(55),
      'x'.repeat(56),
      'x'.repeat(64),
      'y'.repeat(1000),
      'é✓😀'.repeat(40),
    ];
    for (const text of texts) expect(sha256Hex(text)).toBe(nodeDigest(text));
  });

  it('gives the known digest of "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
