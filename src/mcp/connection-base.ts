/**
 * What one MCP server's connection knows and shows — its state, the catalog of its tools, its
 * resources and prompts, the listing the cache keeps, its protocol era — and the one place that
 * state changes (`setState`, which tells the owner and wakes requests waiting on a restart).
 * The lifecycle that drives it (connect, restart, requests) is `McpConnection` in connection.ts.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Redactor } from '../util/redact.js';
import { type Catalog, catalogTools, type ListedTool, NO_EXTRAS, type ServerExtras } from './catalog.js';
import type { McpServerDefinition } from './config.js';
import type { ConnectionOptions } from './connection-options.js';
import type { EraVerdict } from './era.js';
import type { ListHint } from './list-hints.js';
import { serverRedactor } from './redact.js';
import { StateWaits } from './restart-wait.js';
import type { McpToolInfo, ServerState } from './status.js';
import type { CachedListing } from './tool-cache.js';

export abstract class ConnectionBase {
  protected stateValue: ServerState;
  protected client: Client | undefined;
  /** Requests waiting for a start or restart under way. */
  protected readonly waits = new StateWaits();
  protected catalog: Catalog | undefined;
  protected extrasValue: ServerExtras = NO_EXTRAS;
  /** The raw tools of the latest listing (what the cache keeps), and its cache hints. */
  protected listedTools: ListedTool[] | undefined;
  protected toolsHint: ListHint | undefined;
  /** The first start of an idle server: every use waits on this one attempt. */
  protected starting: Promise<void> | undefined;
  /** The server's protocol era as last learnt (or cached): the next connect's `prior`, no probe. */
  protected verdict: EraVerdict | undefined;
  /** What every error this connection reports goes through: none shows the server's secrets. */
  protected readonly redact: Redactor;

  constructor(protected readonly options: ConnectionOptions) {
    this.verdict = options.era;
    this.redact = options.redact ?? serverRedactor(options.definition);
    const cached = options.lazyFrom;
    if (options.definition.disabled) {
      this.stateValue = { state: 'disabled' };
    } else if (cached) {
      this.catalog = catalogTools(options.definition, cached.tools);
      this.stateValue = { state: 'idle', tools: this.catalog.tools };
    } else {
      this.stateValue = { state: 'connecting', attempt: 1 };
    }
  }

  get name(): string {
    return this.options.definition.name;
  }

  get definition(): McpServerDefinition {
    return this.options.definition;
  }

  get state(): ServerState {
    return this.stateValue;
  }

  get warnings(): string[] {
    return this.catalog?.warnings ?? [];
  }

  /** Resources, resource templates and prompts of the connected server (an idle one: cached prompts). */
  get extras(): ServerExtras {
    if (this.stateValue.state === 'idle')
      return { ...NO_EXTRAS, prompts: this.options.lazyFrom?.prompts ?? [] };
    return this.stateValue.state === 'connected' ? this.extrasValue : NO_EXTRAS;
  }

  /** Whether the server offers resources (an idle one: as it did when cached). */
  get offersResources(): boolean {
    if (this.stateValue.state === 'idle') return this.options.lazyFrom?.resources ?? false;
    return Boolean(this.connectedClient?.getServerCapabilities()?.resources);
  }

  /** Whether the server has not started yet in this run, or its first start is under way. */
  get notStartedYet(): boolean {
    return this.stateValue.state === 'idle' || this.starting !== undefined;
  }

  /** The server's tool as last listed (or cached), by its own name. */
  tool(originalName: string): McpToolInfo | undefined {
    return this.catalog?.tools.find((tool) => tool.originalName === originalName);
  }

  /** The latest successful listing, in the cache's shape; undefined before one. */
  get listing(): CachedListing | undefined {
    if (this.stateValue.state !== 'connected' || !this.listedTools) return undefined;
    const listing: CachedListing = {
      tools: this.listedTools,
      resources: this.offersResources,
      prompts: this.extrasValue.prompts,
    };
    if (this.verdict) listing.era = this.verdict;
    if (this.toolsHint) listing.toolsHint = this.toolsHint;
    return listing;
  }

  /** The protocol era the server speaks, as last learnt (or cached); undefined before any. */
  get era(): EraVerdict | undefined {
    return this.verdict;
  }

  /** The SDK client while connected; it never leaves the connection (requests go through `request`). */
  protected get connectedClient(): Client | undefined {
    return this.stateValue.state === 'connected' ? this.client : undefined;
  }

  protected urlOf(): string {
    const definition = this.options.definition;
    if (definition.transport === 'sdk') return 'the in-process server';
    return definition.transport === 'stdio' ? definition.command : definition.url;
  }

  /** The one place state changes; a failure's text is redacted here, whoever formed it. */
  protected setState(given: ServerState): void {
    const state =
      given.state === 'failed' || given.state === 'needs_auth'
        ? { ...given, error: this.redact(given.error) }
        : given;
    this.stateValue = state;
    this.options.onChange(state, this.catalog);
    this.waits.changed();
  }
}
