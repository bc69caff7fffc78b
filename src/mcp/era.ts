/**
 * Which protocol era a server speaks — 2026-07-28 (`modern`: `server/discover`, a per-request
 * envelope) or the 2025 era (`legacy`: `initialize`) — as a verdict the connection learns from
 * its first connect (the SDK's `versionNegotiation: 'auto'` probe) and the tool cache keeps, so a
 * warm or lazy start hands it back as the SDK's `prior` and pays no probe. SDK-free: an idle server
 * reads its verdict without loading the SDK.
 */
/** The 2026 revision this client speaks (the SDK's modern list). */
export const MODERN_VERSION = '2026-07-28';

/**
 * A legacy verdict is trusted this long: a stale one would keep an upgraded server on the old
 * protocol silently (a stale modern verdict fails loudly and is re-probed at once).
 */
export const LEGACY_VERDICT_MS = 7 * 24 * 60 * 60_000;

export type DiscoverRecord = { supportedVersions: string[] } & Record<string, unknown>;

export type EraVerdict =
  | {
      kind: 'modern';
      version: string;
      /** The server's `server/discover` result, as the SDK's `prior` takes it back. */
      discover: DiscoverRecord;
    }
  | { kind: 'legacy'; version?: string; checkedAt: number };

/** The shape of the SDK's `ConnectOptions.prior`. */
export type PriorEra = { kind: 'modern'; discover: DiscoverRecord } | { kind: 'legacy' };

/** The SDK's `ConnectOptions.prior` for a verdict still trusted now; undefined: probe. */
export function priorOf(verdict: EraVerdict | undefined, now: number): PriorEra | undefined {
  if (!verdict) return undefined;
  if (verdict.kind === 'modern') return { kind: 'modern', discover: verdict.discover };
  return now - verdict.checkedAt < LEGACY_VERDICT_MS ? { kind: 'legacy' } : undefined;
}

/**
 * The verdict of a connected client. A connect that used a prior verdict keeps it as it was (same
 * date), so the cached listing is not rewritten for it.
 */
export function verdictAfterConnect(
  era: 'modern' | 'legacy' | undefined,
  version: string | undefined,
  discover: unknown,
  used: EraVerdict | undefined,
  now: number,
): EraVerdict | undefined {
  if (era === 'modern' && isDiscover(discover)) {
    if (used?.kind === 'modern' && used.version === version) return used;
    return { kind: 'modern', version: version ?? MODERN_VERSION, discover };
  }
  if (era === 'legacy') {
    if (used?.kind === 'legacy' && used.version === version) return used;
    return version === undefined
      ? { kind: 'legacy', checkedAt: now }
      : { kind: 'legacy', version, checkedAt: now };
  }
  return undefined;
}

/** Whether a value has the shape of a `server/discover` result. */
export function isDiscover(value: unknown): value is DiscoverRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { supportedVersions?: unknown }).supportedVersions)
  );
}

/** What `mcp get` and `/mcp` show for a verdict. */
export function describeEra(verdict: EraVerdict | undefined): string | undefined {
  if (!verdict) return undefined;
  return verdict.kind === 'modern'
    ? `${verdict.version} (server/discover)`
    : `${verdict.version ?? '2025 era'} (initialize)`;
}

/** A server whose protocol versions and ours do not meet: what it speaks, what we speak. */
export function noSharedVersionMessage(
  server: string,
  theirs: readonly string[],
  ours: readonly string[],
): string {
  return `MCP server ${server} speaks protocol version${theirs.length === 1 ? '' : 's'} ${theirs.join(', ')}; GeekAgent speaks ${ours.join(', ')} — no version in common (update GeekAgent or the server)`;
}
