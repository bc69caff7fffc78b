/**
 * The quick hash that names the tool cache's files (src/util/quick-hash.ts): the same digest for
 * the same text on every run and Node (cache files written by one run are found by the next), and
 * a different one for the nearest other texts a launch config could be.
 */
import { describe, expect, it } from 'vitest';
import { quickHashHex } from '../../../src/util/quick-hash.js';

describe('quickHashHex', () => {
  it('is 16 hex digits, the same on every run (pinned values)', () => {
    expect(quickHashHex('')).toMatch(/^[0-9a-f]{16}$/);
    expect(quickHashHex('')).toBe('0ac8bd7903965d30');
    expect(quickHashHex('{"name":"demo","transport":"stdio"}')).toBe('043f5bcca32bad4d');
  });

  it('tells apart texts one character, one bit or one position away', () => {
    const base = '{"name":"github","transport":"stdio","command":"npx","args":["-y","server@1.2.3"]}';
    const near = new Set<string>([base]);
    for (let i = 0; i < base.length; i++) {
      near.add(base.slice(0, i) + String.fromCharCode(base.charCodeAt(i) ^ 1) + base.slice(i + 1));
      near.add(base.slice(0, i) + base.slice(i + 1));
    }
    near.add(`${base} `);
    near.add('\u00e9');
    near.add('e\u0301');
    const digests = new Set([...near].map(quickHashHex));
    expect(digests.size).toBe(near.size);
  });

  it('spreads digits evenly over many inputs', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4096; i++) {
      const first = quickHashHex(`server-${i}`)[0] ?? '';
      counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    expect(counts.size).toBe(16);
    // 256 expected per digit; far outside this means the lanes are not mixed.
    for (const count of counts.values()) expect(count).toBeGreaterThan(180);
  });
});
