/**
 * One MCP server's connection lifecycle on the SDK `Client`: connect within the start-up deadline,
 * discover tools, follow `tools/list_changed`, notice an exit at once, restart with exponential
 * backoff (bounded; when and how often: restart-schedule.ts); a request that arrives during a start
 * or restart waits for it within its timeout (connection-request.ts, restart-wait.ts), one to a
 * server that is down for good fails fast with the reason. The `Client` never leaves this class:
 * tool calls, prompts and resource reads all go through `request` (timeout, cancellation, start on
 * first use, reconnect). A server with a cached listing starts `idle` and connects on first use
 * (one shared start for every caller). What the connection knows and shows (state, catalog,
 * listing, era) is connection-base.ts. The SDK itself (`connection-sdk.ts`) is imported by the
 * first connect: an idle server costs none.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import { ToolError } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { raceAbort } from '../util/race-abort.js';
import { catalogTools, type ListedTool, listAllTools, listExtras } from './catalog.js';
import { connectAttempt } from './connect-attempt.js';
import { connectWithRetries } from './connect-retry.js';
import { ConnectionBase } from './connection-base.js';
import {
  callErrorMessage,
  isNetworkFailure,
  lastServerLine,
  loginHint,
  networkCause,
  OWN_NOTE,
  type StartFailure,
  startupFailureReason,
  withLine,
} from './connection-errors.js';
import { type CallOptions, type ConnectionOptions, DEFAULT_RESTART_POLICY } from './connection-options.js';
import { type RequestSite, requestNow, type Send } from './connection-request.js';
import type * as ConnectionSdk from './connection-sdk.js';
import type { EraVerdict } from './era.js';
import { freshFromCache, type ListHint, stillFresh } from './list-hints.js';
import { RestartSchedule } from './restart-schedule.js';
import { callThroughSdk, getPromptThroughSdk, readResourceThroughSdk, type TaskDeps } from './sdk-call.js';
import { ServerChanges } from './server-changes.js';
import { type ServerSkill, SKILLS_EXTENSION } from './skills/listing.js';
import type { OpenedTransport } from './transports.js';

export class McpConnection extends ConnectionBase {
  /** The SDK, once a connect has loaded it. */
  private sdk: typeof ConnectionSdk | undefined;
  private opened: OpenedTransport | undefined;
  /** Bumped per connection attempt so late events of an old client are ignored. */
  private generation = 0;
  private closed = false;
  private readonly restarts: RestartSchedule;
  /** What the request path (connection-request.ts) reads of this connection. */
  private readonly site: RequestSite;
  /** Change notifications (listen stream or 2025 subscriptions), watched resources, re-listings. */
  readonly changes: ServerChanges;
  /** What a call that becomes a task needs (tasks/): the client's input handlers, the log. */
  private tasks: TaskDeps = { note: (text) => this.options.log.append(`${OWN_NOTE} ${text}`) };

  constructor(options: ConnectionOptions) {
    super(options);
    this.restarts = new RestartSchedule(options.restartPolicy ?? DEFAULT_RESTART_POLICY);
    this.changes = new ServerChanges((text) => options.log.append(`${OWN_NOTE} ${text}`));
    this.site = {
      name: this.name,
      options,
      waits: this.waits,
      state: () => this.stateValue,
      client: () => this.connectedClient,
      sdk: () => this.sdk,
      closed: () => this.closed,
      failure: (what, signal, sdk, error) => this.requestFailure(what, signal, sdk, error),
    };
  }

  /**
   * Starts an idle server, once, however many uses ask at the same time; resolves when that start
   * has an outcome (a failed one is retried with the usual backoff). Other states: at once, or when
   * a start already under way ends.
   */
  ensureStarted(): Promise<void> {
    if (this.stateValue.state !== 'idle') return this.starting ?? Promise.resolve();
    this.options.log.append(`${OWN_NOTE} starting on first use`);
    this.starting = this.connectOnce('startup')
      .then((ok) => this.retryIfFailed(ok))
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  /** First connection attempt; resolves when it has an outcome, never rejects. */
  async start(): Promise<void> {
    if (this.stateValue.state === 'disabled') return;
    await this.connectOnce('startup');
  }

  /** Manual reconnect (`/mcp reconnect`): a fresh start with a fresh attempt budget. */
  async reconnect(): Promise<void> {
    this.restarts.reset();
    this.closed = false;
    await this.disconnect();
    await this.connectOnce('startup');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.restarts.cancel();
    // A request waiting for a restart learns there will be none.
    this.waits.changed();
    await this.disconnect();
  }

  callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    return this.request(`tools/call "${toolName}"`, options.signal, (client, timeoutMs) =>
      callThroughSdk(client, toolName, args, timeoutMs, options, this.tasks),
    );
  }

  /** `prompts/get`, with the same start on first use, timeout, cancellation and errors as a call. */
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.request(`prompts/get "${name}"`, signal, (client, timeoutMs) =>
      getPromptThroughSdk(client, name, args, timeoutMs, signal),
    );
  }

  /** `resources/read`, likewise. */
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.request(`resources/read "${uri}"`, signal, (client, timeoutMs) =>
      readResourceThroughSdk(client, uri, timeoutMs, signal),
    );
  }

  /** Whether the connected server offers skills (the skills extension). */
  get offersSkills(): boolean {
    return this.connectedClient?.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION] !== undefined;
  }

  /** The server's skills, each read and verified (skills/read.ts), through the one request path. */
  readSkills(signal?: AbortSignal): Promise<ServerSkill[]> {
    return this.request('skills/list', signal, async (client, timeoutMs) =>
      (await import('./skills/read.js')).readServerSkills(client, timeoutMs, signal),
    );
  }

  /** Tells the server its roots changed, if it is connected (one that connects later asks anyway). */
  async notifyRootsChanged(): Promise<void> {
    if (this.options.definition.roots !== false)
      await this.connectedClient?.sendRootsListChanged().catch(() => undefined);
  }

  /**
   * Every request to the server goes through here: an idle server starts first, one that is down
   * fails fast with why (and its restart), a lost remote connection schedules a reconnect, and a
   * failure becomes a message naming the server, the request and the fix.
   */
  private request<T>(what: string, signal: AbortSignal | undefined, send: Send<T>): Promise<T> {
    if (this.stateValue.state !== 'idle' && !this.starting) return requestNow(this.site, what, signal, send);
    // A cancel ends the wait for the start (the start itself goes on for later calls).
    const started = signal ? raceAbort(this.ensureStarted(), signal) : this.ensureStarted();
    return started.then(() => requestNow(this.site, what, signal, send));
  }

  /** What a failed request throws: a cancel as it is, anything else as a message naming the server. */
  private requestFailure(
    what: string,
    signal: AbortSignal | undefined,
    sdk: typeof ConnectionSdk,
    error: unknown,
  ) {
    if (signal?.aborted) return error;
    const { transport, timeoutMs, file } = this.options.definition;
    if (transport !== 'stdio' && isNetworkFailure(error))
      this.connectionLost(`lost the connection to ${this.urlOf()}: ${networkCause(error)}`);
    const exitReason = this.opened?.exitReason();
    const context = { server: this.name, request: what, timeoutMs, file, state: this.stateValue, exitReason };
    return new ToolError(this.redact(callErrorMessage(sdk, error, context)));
  }

  private async connectOnce(during: 'startup' | 'runtime'): Promise<boolean> {
    const generation = ++this.generation;
    const { definition } = this.options;
    this.setState({ state: 'connecting', attempt: this.restarts.nextAttempt });
    let sdk: typeof ConnectionSdk;
    let opened: OpenedTransport;
    try {
      sdk = this.sdk ??= await import('./connection-sdk.js');
      opened = await this.options.createTransport(definition, this.options.log);
    } catch (error) {
      if (this.closed || generation !== this.generation) return false;
      this.setState({ state: 'failed', error: errorMessage(error), during });
      return false;
    }
    // Closed or superseded while loading: the transport is not started yet, so nothing to stop.
    if (this.closed || generation !== this.generation) return false;
    const result = await connectWithRetries(sdk, opened, this.verdict, {
      attempt: (transport, verdict) => this.attempt(sdk, generation, transport, verdict),
      reopen: async () => this.options.createTransport(definition, this.options.log),
      current: () => !this.closed && generation === this.generation,
      note: (text) => this.options.log.append(`${OWN_NOTE} ${text}`),
    });
    const { outcome } = result;
    opened = result.opened;
    if (outcome === true) return true;
    if (this.closed || generation !== this.generation) return false;
    if (outcome.error instanceof sdk.UnauthorizedError) {
      this.setState({ state: 'needs_auth', error: loginHint(sdk, this.name, outcome.error) });
    } else {
      const target = this.urlOf();
      const context = {
        definition,
        exitReason: opened.exitReason(),
        target,
        lastStderr: lastServerLine(this.options.log),
        redact: this.redact,
      };
      this.setState({ state: 'failed', error: startupFailureReason(sdk, outcome, context), during });
    }
    return false;
  }

  /** One connect over one transport (connect-attempt.ts): true, or the error it failed with. */
  private async attempt(
    sdk: typeof ConnectionSdk,
    generation: number,
    opened: OpenedTransport,
    verdict: EraVerdict | undefined,
  ): Promise<true | StartFailure> {
    this.opened = opened;
    const current = () => generation === this.generation && !this.closed;
    const outcome = await connectAttempt(
      sdk,
      opened,
      { ...this.options, verdict, freshTools: this.freshCachedTools() },
      {
        hold: (client) => {
          if (client || generation === this.generation) this.client = client;
        },
        current,
        error: (error) => this.handleClientError(generation, error),
        closed: () => this.handleClose(generation),
        toolsChanged: () => this.changes.track(this.refreshTools(generation)),
        extrasChanged: () => this.changes.track(this.refreshExtras(generation)),
      },
    );
    if (!('client' in outcome)) return outcome;
    if (!current()) {
      await outcome.client.close().catch(() => undefined);
      return { error: new Error('superseded'), stage: 'listing', exitedFirst: false };
    }
    this.restarts.connected();
    this.verdict = outcome.verdict ?? this.verdict;
    this.tasks = { ...this.tasks, answerInput: outcome.answerInput };
    this.extrasValue = outcome.extras;
    this.listedTools = outcome.tools;
    this.toolsHint = outcome.toolsHint;
    this.catalog = catalogTools(this.options.definition, outcome.tools);
    this.setState({ state: 'connected', tools: this.catalog.tools });
    if (this.options.followChanges)
      this.changes.connected(sdk, outcome.client, this.options.definition.timeoutMs, {
        tools: () => this.refreshTools(generation),
        extras: () => this.refreshExtras(generation),
      });
    return true;
  }

  private async refreshExtras(generation: number): Promise<void> {
    const client = this.client;
    if (!client || generation !== this.generation || this.stateValue.state !== 'connected') return;
    try {
      this.extrasValue = await listExtras(client, this.options.definition.timeoutMs);
      if (generation === this.generation && this.stateValue.state === 'connected')
        this.setState(this.stateValue);
    } catch (error) {
      this.options.log.append(`${OWN_NOTE} re-listing resources/prompts failed: ${errorMessage(error)}`);
    }
  }

  private handleClientError(generation: number, error: Error): void {
    this.options.log.append(`${OWN_NOTE} ${error.message}`);
    // The SDK's Streamable HTTP transport gives up on its event stream without closing: the
    // server is gone as far as we are concerned.
    if (generation === this.generation && /Maximum reconnection attempts/.test(error.message)) {
      this.connectionLost(
        `lost the connection to ${this.options.definition.transport === 'stdio' ? 'the server' : this.urlOf()}`,
      );
    }
  }

  /** A remote server that stopped answering: treated like a crashed stdio server. */
  private connectionLost(reason: string): void {
    if (this.closed || this.stateValue.state !== 'connected') return;
    const client = this.client;
    this.generation++;
    this.client = undefined;
    void this.changes.disconnected();
    void client?.close().catch(() => undefined);
    this.scheduleRestart(reason);
  }

  private async refreshTools(generation: number): Promise<void> {
    const client = this.client;
    if (!client || generation !== this.generation || this.stateValue.state !== 'connected') return;
    try {
      const { tools, hint } = await listAllTools(client, this.options.definition.timeoutMs);
      if (generation !== this.generation || this.stateValue.state !== 'connected') return;
      this.listedTools = tools;
      this.toolsHint = hint;
      this.catalog = catalogTools(this.options.definition, tools);
      this.setState({ state: 'connected', tools: this.catalog.tools });
    } catch (error) {
      this.options.log.append(
        `${OWN_NOTE} re-listing tools after list_changed failed: ${errorMessage(error)}`,
      );
    }
  }

  /**
   * The first connect of the run, on a warm start: the cached tools while their hints say they are
   * fresh (list-hints.ts); later connects (restarts, reconnects) always list.
   */
  private freshCachedTools(): { tools: ListedTool[]; hint: ListHint } | undefined {
    const cached = this.options.cachedListing;
    if (this.listedTools || !cached?.toolsHint) return undefined;
    const { transport } = this.options.definition;
    return freshFromCache(cached.toolsHint, transport, Date.now())
      ? { tools: cached.tools, hint: cached.toolsHint }
      : undefined;
  }

  /**
   * At the start of a turn: a connected server whose tool list is past its `ttlMs`, and that does
   * not announce changes itself (`listChanged`), is listed again (the next request waits for it).
   */
  refreshIfStale(): void {
    const client = this.connectedClient;
    if (!client || !this.toolsHint || stillFresh(this.toolsHint, Date.now())) return;
    if (client.getServerCapabilities()?.tools?.listChanged) return;
    this.changes.track(this.refreshTools(this.generation));
  }

  private handleClose(generation: number): void {
    if (generation !== this.generation || this.closed) return;
    // Closed during connect: connectOnce reports it. Closed while connected: the server went away.
    if (this.stateValue.state !== 'connected') return;
    const reason = withLine(
      this.opened?.exitReason() ?? 'connection closed',
      lastServerLine(this.options.log),
    );
    this.client = undefined;
    void this.changes.disconnected();
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: string): void {
    const retry = this.restarts.next();
    if (!retry) {
      this.setState({
        state: 'failed',
        error: `${reason}; gave up after ${this.restarts.maxAttempts} restarts (use /mcp reconnect ${this.name})`,
        during: 'runtime',
      });
      return;
    }
    this.setState({ state: 'failed', error: reason, during: 'runtime', retry });
    this.restarts.after(retry.inMs, () => {
      void this.connectOnce('runtime').then((ok) => this.retryIfFailed(ok));
    });
  }

  /** After a start or restart that did not connect (and was not closed meanwhile): try again later. */
  private retryIfFailed(ok: boolean): void {
    if (!ok && !this.closed && this.stateValue.state === 'failed')
      this.scheduleRestart(this.stateValue.error);
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    this.generation++;
    this.client = undefined;
    this.opened = undefined;
    if (this.stateValue.state === 'connected') this.restarts.disconnected();
    // The listen stream is cancelled while the client can still say so.
    await this.changes.disconnected();
    await client?.close().catch(() => undefined);
  }
}
