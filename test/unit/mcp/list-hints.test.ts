import { describe, expect, it } from 'vitest';
import { freshFromCache, hintOf, stillFresh } from '../../../src/mcp/list-hints.js';

describe('list cache hints', () => {
  it('reads ttlMs and cacheScope; a missing scope is private, a missing or bad ttl is no hint', () => {
    expect(hintOf({ tools: [], ttlMs: 500, cacheScope: 'public' }, 10)).toEqual({
      ttlMs: 500,
      scope: 'public',
      at: 10,
    });
    expect(hintOf({ tools: [], ttlMs: 500 }, 10)).toEqual({ ttlMs: 500, scope: 'private', at: 10 });
    expect(hintOf({ tools: [] }, 10)).toBeUndefined();
    expect(hintOf({ ttlMs: -1 }, 10)).toBeUndefined();
    expect(hintOf({ ttlMs: '500' }, 10)).toBeUndefined();
  });

  it('a list is fresh for ttlMs after it was listed; ttlMs 0 never is', () => {
    expect(stillFresh({ ttlMs: 100, scope: 'public', at: 1000 }, 1099)).toBe(true);
    expect(stillFresh({ ttlMs: 100, scope: 'public', at: 1000 }, 1100)).toBe(false);
    expect(stillFresh({ ttlMs: 0, scope: 'public', at: 1000 }, 1000)).toBe(false);
    expect(stillFresh(undefined, 0)).toBe(false);
  });

  it('a private list crosses runs only for a stdio server (a remote login can change under one config)', () => {
    const hint = { ttlMs: 60_000, scope: 'private' as const, at: 1000 };
    expect(freshFromCache(hint, 'stdio', 2000)).toBe(true);
    expect(freshFromCache(hint, 'http', 2000)).toBe(false);
    expect(freshFromCache({ ...hint, scope: 'public' }, 'http', 2000)).toBe(true);
    // A clock set back does not make an old list new.
    expect(freshFromCache(hint, 'stdio', 500)).toBe(false);
  });
});
