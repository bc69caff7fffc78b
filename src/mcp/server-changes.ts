/**
 * What one server connection (connection.ts) keeps about change across its clients: the change
 * stream of the client connected now (change-stream.ts; started on connect, stopped on disconnect),
 * the resources the person attached and whether they changed since (resource-watch.ts), and the
 * re-listings under way after a change notification — the next model request waits for those, so
 * a tool added by the call the model just made is declared in the very next request.
 */
import type { Client, SubscriptionFilter } from '@modelcontextprotocol/client';
import { ChangeStream, type ListenBackoff } from './change-stream.js';
import type * as ConnectionSdk from './connection-sdk.js';
import { ResourceWatch } from './resource-watch.js';

/** How the connection re-lists, for a stream that was re-opened (it may have missed changes). */
export interface Relist {
  tools(): Promise<void>;
  extras(): Promise<void>;
}

export class ServerChanges {
  private readonly watch = new ResourceWatch();
  private stream: ChangeStream | undefined;
  private readonly relisting = new Set<Promise<void>>();
  /** The connected server accepts resource subscriptions (2025 `subscribe`, 2026 listen filter). */
  private subscribable = false;

  constructor(
    private readonly note: (text: string) => void,
    private readonly backoff?: ListenBackoff,
  ) {}

  /**
   * A client connected: its change stream starts. Watched resources are checked at the next turn,
   * since a restart may have missed their changes.
   */
  connected(sdk: typeof ConnectionSdk, client: Client, timeoutMs: number, relist: Relist): void {
    void this.stream?.stop();
    this.watch.unsure();
    this.subscribable = client.getServerCapabilities()?.resources?.subscribe === true;
    const hooks = {
      watched: () => this.watch.uris,
      resourceUpdated: (uri: string) => {
        if (this.watch.updated(uri)) this.note(`resource ${uri} changed; re-read for the next turn`);
      },
      resync: (filter: SubscriptionFilter) => {
        if (filter.toolsListChanged) this.track(relist.tools());
        if (filter.promptsListChanged || filter.resourcesListChanged) this.track(relist.extras());
        this.watch.unsure();
      },
      note: this.note,
    };
    this.stream = new ChangeStream(sdk, client, hooks, timeoutMs, this.backoff);
    this.stream.start();
  }

  /** The client is going (disconnect, restart, shutdown): its stream ends first. */
  async disconnected(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    this.subscribable = false;
    await stream?.stop();
  }

  /** A re-listing under way (after a change notification or a re-opened stream). */
  track(work: Promise<void>): void {
    this.relisting.add(work);
    void work.finally(() => this.relisting.delete(work));
  }

  /** Resolves once no re-listing is under way (each is bounded by the server's timeout). */
  async relistsSettled(): Promise<void> {
    while (this.relisting.size > 0) await Promise.allSettled([...this.relisting]);
  }

  /**
   * The person attached `uri` with this content: watched from now on when the server can say it
   * changed (the oldest watch makes room past the cap).
   */
  attached(uri: string, text: string): void {
    if (!this.subscribable) return;
    const { added, dropped } = this.watch.attached(uri, text);
    if (dropped !== undefined) this.stream?.unwatch(dropped);
    if (added) this.stream?.watch(uri);
  }

  /** Attached resources that changed, or may have, since the person last saw them. */
  pending(): string[] {
    return this.watch.pending();
  }

  /** The content of a pending resource read again: true when it differs from what was attached. */
  reread(uri: string, text: string): boolean {
    return this.watch.reread(uri, text);
  }
}
