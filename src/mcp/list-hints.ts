/**
 * The cache hints of a 2026-07-28 list result (`ttlMs`, `cacheScope`) as the tool list keeps them:
 * how long the list may be used without asking again, counted from when it was listed, and to whom
 * it may be served. They decide whether a warm start's first connect skips `tools/list` (the cached
 * list stands in while fresh) and whether a connected server's tools are listed again at the start
 * of a turn. SDK-free: the cache file and an idle server read them without loading the SDK.
 *
 * `cacheScope`: `public` lists may be served to anyone, `private` ones only within the
 * authorization context they were listed in. The cache file is the person's own and is keyed by
 * the server's launch config (env and headers, hashed), which is a stdio server's whole context;
 * a remote server's authorization can change under the same config (a new OAuth login), so its
 * `private` lists are not carried from one run to the next. A missing scope counts as `private`
 * (the SDK's reading too); a result without `ttlMs` (every 2025 server) is never fresh.
 */
export type CacheScope = 'public' | 'private';

export interface ListHint {
  ttlMs: number;
  scope: CacheScope;
  /** When the list was fetched (ms since the epoch). */
  at: number;
}

/** The hints of a list result fetched at `at`; undefined when it carries no usable `ttlMs`. */
export function hintOf(result: unknown, at: number): ListHint | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { ttlMs, cacheScope } = result as { ttlMs?: unknown; cacheScope?: unknown };
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs < 0) return undefined;
  return { ttlMs, scope: cacheScope === 'public' ? 'public' : 'private', at };
}

/** Whether a list with these hints may still be used now, within the run that listed it. */
export function stillFresh(hint: ListHint | undefined, now: number): boolean {
  return hint !== undefined && now - hint.at < hint.ttlMs;
}

/** Whether a list cached by an earlier run may stand in for `tools/list` on this run's first connect. */
export function freshFromCache(
  hint: ListHint | undefined,
  transport: 'stdio' | 'http' | 'sse' | 'sdk',
  now: number,
): boolean {
  if (!hint || (hint.scope === 'private' && transport !== 'stdio')) return false;
  // A clock set back would make an old list look new.
  return hint.at <= now && stillFresh(hint, now);
}
