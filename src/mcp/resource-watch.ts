/**
 * The resources of one server that the person attached with `@server:uri` in this run, and whether
 * what they last saw may be out of date: `stale` when the server said the resource changed
 * (`notifications/resources/updated`), `unsure` when a notification may have been missed (a dropped
 * listen stream, a restart). The next turn re-reads those and attaches only the ones whose content
 * really differs (resource-updates.ts). Kept by the connection across restarts; in memory only.
 */
import { createHash } from 'node:crypto';

/** Older watches are dropped past this many per server (their subscriptions end). */
export const MAX_WATCHED = 20;

type WatchState = 'current' | 'stale' | 'unsure';

interface Watch {
  digest: string;
  state: WatchState;
}

export class ResourceWatch {
  private readonly watches = new Map<string, Watch>();

  /** The watched URIs, oldest first. */
  get uris(): string[] {
    return [...this.watches.keys()];
  }

  /**
   * The person saw `text` of `uri` just now. Says whether the URI is newly watched, and which one
   * (if any) was dropped to make room.
   */
  attached(uri: string, text: string): { added: boolean; dropped?: string } {
    const added = !this.watches.has(uri);
    this.watches.delete(uri);
    this.watches.set(uri, { digest: digest(text), state: 'current' });
    if (this.watches.size <= MAX_WATCHED) return { added };
    const dropped = this.watches.keys().next().value as string;
    this.watches.delete(dropped);
    return { added, dropped };
  }

  /** The server said `uri` changed; true when it is one of ours. */
  updated(uri: string): boolean {
    const watch = this.watches.get(uri);
    if (!watch) return false;
    watch.state = 'stale';
    return true;
  }

  /** Notifications may have been missed: every watched resource is checked at the next turn. */
  unsure(): void {
    for (const watch of this.watches.values()) if (watch.state === 'current') watch.state = 'unsure';
  }

  /** The URIs to re-read before the next turn. */
  pending(): string[] {
    return [...this.watches].filter(([, watch]) => watch.state !== 'current').map(([uri]) => uri);
  }

  /** The re-read content of `uri`: true when it differs from what the person last saw. */
  reread(uri: string, text: string): boolean {
    const watch = this.watches.get(uri);
    if (!watch) return false;
    const next = digest(text);
    const changed = next !== watch.digest;
    watch.digest = next;
    watch.state = 'current';
    return changed;
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
