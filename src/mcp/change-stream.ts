/**
 * How one connected SDK client hears of change, on either protocol era (connection.ts starts one
 * per connected client and stops it with that client):
 * - 2026-07-28: one `subscriptions/listen` stream asking for the list changes the server declares
 *   (`listChanged`) and for the watched resources (`resourceSubscriptions`). Its notifications reach
 *   the client's handlers exactly as a 2025 server's unsolicited ones do (connect-attempt.ts), so
 *   both eras share one path. A stream the server ends ('remote' drop or 'graceful' end) is opened
 *   again with backoff, and what it may have missed meanwhile is fetched again (`resync`). A newly
 *   watched resource opens a stream with the wider filter first, then closes the old one.
 * - 2025: list changes arrive unsolicited; a watched resource gets `resources/subscribe`.
 * Either way `notifications/resources/updated` goes to `resourceUpdated`. `stop` ends the stream and
 * any pending re-open: nothing outlives the client it was made for.
 */
import type { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { errorMessage } from '../util/errors.js';
import type * as ConnectionSdk from './connection-sdk.js';

export interface ChangeHooks {
  /** The resources being watched now (the filter's `resourceSubscriptions`). */
  watched(): readonly string[];
  resourceUpdated(uri: string): void;
  /** A re-opened stream: fetch again what it may have missed (lists, watched resources). */
  resync(filter: SubscriptionFilter): void;
  /** A line for the server's log. */
  note(text: string): void;
}

export interface ListenBackoff {
  baseDelayMs: number;
  maxDelayMs: number;
  /** A stream that stayed open this long earns the short delay again. */
  stableAfterMs: number;
}

export const DEFAULT_LISTEN_BACKOFF: ListenBackoff = {
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

type Sdk = Pick<typeof ConnectionSdk, 'ProtocolError'>;

/** How long a stop waits for the stream's cancel to be sent. */
const STOP_WAIT_MS = 1000;

export class ChangeStream {
  private subscription: McpSubscription | undefined;
  private stopped = false;
  private failures = 0;
  private openedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  /** An open under way; a second one waits for it (and then opens with the newest filter). */
  private opening: Promise<void> | undefined;
  private openAgain = false;

  constructor(
    private readonly sdk: Sdk,
    private readonly client: Client,
    private readonly hooks: ChangeHooks,
    private readonly timeoutMs: number,
    private readonly backoff: ListenBackoff = DEFAULT_LISTEN_BACKOFF,
  ) {}

  private get modern(): boolean {
    return this.client.getProtocolEra() === 'modern';
  }

  private get subscribable(): boolean {
    return this.client.getServerCapabilities()?.resources?.subscribe === true;
  }

  /** Right after connect: the stream (2026), or a subscription per watched resource (2025). */
  start(): void {
    this.client.setNotificationHandler('notifications/resources/updated', (notification) =>
      this.hooks.resourceUpdated(notification.params.uri),
    );
    if (this.modern) this.open(false);
    else for (const uri of this.hooks.watched()) this.subscribeLegacy(uri);
  }

  /** A resource joined the watched set (it is in `hooks.watched()` already). */
  watch(uri: string): void {
    if (this.stopped || !this.subscribable) return;
    if (this.modern) this.open(false);
    else this.subscribeLegacy(uri);
  }

  /** A resource left the watched set (it is no longer in `hooks.watched()`). */
  unwatch(uri: string): void {
    if (this.stopped || !this.subscribable) return;
    if (this.modern) this.open(false);
    else
      void this.client
        .unsubscribeResource({ uri }, { timeout: this.timeoutMs })
        .catch((error: unknown) =>
          this.hooks.note(`resources/unsubscribe ${uri} failed: ${errorMessage(error)}`),
        );
  }

  /** Ends the stream and any re-open waiting; safe to call twice. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    if (!subscription) return;
    // The cancel is a courtesy: a server that does not take it (a dead HTTP endpoint) must not hold
    // up a shutdown; the stream's own request is aborted at once either way.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_WAIT_MS);
      timer.unref();
    });
    await Promise.race([subscription.close().catch(() => undefined), deadline]);
    clearTimeout(timer);
  }

  /** What this stream asks for: the declared list changes and the watched resources. */
  private filter(): SubscriptionFilter | undefined {
    const capabilities = this.client.getServerCapabilities();
    const filter: SubscriptionFilter = {};
    if (capabilities?.tools?.listChanged) filter.toolsListChanged = true;
    if (capabilities?.prompts?.listChanged) filter.promptsListChanged = true;
    if (capabilities?.resources?.listChanged) filter.resourcesListChanged = true;
    const watched = this.subscribable ? this.hooks.watched() : [];
    if (watched.length > 0) filter.resourceSubscriptions = [...watched];
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  private open(reopened: boolean): void {
    if (this.stopped) return;
    if (this.opening) {
      this.openAgain = true;
      return;
    }
    this.opening = this.openNow(reopened).finally(() => {
      this.opening = undefined;
      if (this.openAgain && !this.stopped) {
        this.openAgain = false;
        this.open(false);
      }
    });
  }

  private async openNow(reopened: boolean): Promise<void> {
    const filter = this.filter();
    if (!filter) return;
    let subscription: McpSubscription;
    try {
      subscription = await this.client.listen(filter, { timeout: this.timeoutMs });
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof this.sdk.ProtocolError) {
        // The server's own answer: asking again would get the same one.
        this.hooks.note(
          `the server refused subscriptions/listen (${errorMessage(error)}); its changes are not followed`,
        );
        return;
      }
      this.retryLater(`subscriptions/listen failed: ${errorMessage(error)}`);
      return;
    }
    if (this.stopped) {
      await subscription.close().catch(() => undefined);
      return;
    }
    const previous = this.subscription;
    this.subscription = subscription;
    this.openedAt = Date.now();
    // The wider stream is open before the old one goes: no change falls between the two.
    void previous?.close().catch(() => undefined);
    void subscription.closed.then((cause) => this.closed(subscription, cause));
    if (reopened) this.hooks.resync(filter);
  }

  private closed(subscription: McpSubscription, cause: 'local' | 'graceful' | 'remote'): void {
    if (this.stopped || cause === 'local' || subscription !== this.subscription) return;
    this.subscription = undefined;
    this.retryLater(
      cause === 'graceful'
        ? 'the server ended the subscriptions/listen stream'
        : 'the subscriptions/listen stream dropped',
    );
  }

  private retryLater(why: string): void {
    if (this.openedAt > 0 && Date.now() - this.openedAt >= this.backoff.stableAfterMs) this.failures = 0;
    const { baseDelayMs, maxDelayMs } = this.backoff;
    // The first drop is answered at once (a change made right after it still reaches us); a stream
    // that keeps dropping waits longer each time.
    const delay = this.failures === 0 ? 0 : Math.min(baseDelayMs * 2 ** (this.failures - 1), maxDelayMs);
    this.failures++;
    this.hooks.note(`${why}; listening again in ${delay} ms`);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.open(true);
    }, delay);
    this.timer.unref();
  }

  private subscribeLegacy(uri: string): void {
    if (!this.subscribable) return;
    void this.client
      .subscribeResource({ uri }, { timeout: this.timeoutMs })
      .catch((error: unknown) =>
        this.hooks.note(`resources/subscribe ${uri} failed: ${errorMessage(error)}`),
      );
  }
}
