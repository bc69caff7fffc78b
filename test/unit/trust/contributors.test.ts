/**
 * The trust contributors the composition hands to trust: every declaration kind has exactly one
 * (so every changed item is worded by its feature), in the order the question lists them.
 */
import { describe, expect, it } from 'vitest';
import { TRUST_CONTRIBUTORS } from '../../../src/boot/trust-contributors.js';
import { DECLARATION_KINDS } from '../../../src/trust/declarations.js';

describe('trust contributors', () => {
  it('cover every declaration kind exactly once', () => {
    const kinds = TRUST_CONTRIBUTORS.flatMap((contributor) => contributor.kinds);
    expect([...kinds].sort()).toEqual([...DECLARATION_KINDS].sort());
  });

  it('are listed in the order the trust question shows them', () => {
    expect(TRUST_CONTRIBUTORS.map((contributor) => contributor.name)).toEqual([
      'mcp',
      'permissions',
      'hooks',
      'env',
      'skills',
      'agents',
      'commands',
      'plugins',
      'memory',
    ]);
  });
});
