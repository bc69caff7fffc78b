/**
 * The MCP manager: owns every server connection of one agent. Connects them in the background
 * with about one connect per core in flight — except lazy servers with a cached tool list, whose
 * tools are registered from the cache and which start on first use — keeps its tool set (the
 * seam's, see tool-sink.ts) in step with each server's tools (and the cache with each listing),
 * and answers "have the servers without a cache settled?" for the first model request. Groups of
 * servers join and leave while it runs (an active skill's): they show and count like the others.
 */
import os from 'node:os';
import { errorMessage } from '../util/errors.js';
import { Limiter } from '../util/limiter.js';
import type { Redactor } from '../util/redact.js';
import type { Catalog } from './catalog.js';
import type { ClientFeatures } from './client-features.js';
import type { ServerConfigEntry } from './config.js';
import type { McpConnection } from './connection.js';
import type { RestartPolicy } from './connection-options.js';
import {
  type ConnectionLayer,
  createServerSlot,
  type LoadedLayer,
  type ServerSlot,
  type SlotKind,
} from './server-slot.js';
import { isSettled, type ServerState, type ServerStatus } from './status.js';
import { type CachedListing, hasToolCache, sameListing, writeCachedListing } from './tool-cache.js';
import { saveToolOutput } from './tool-output.js';
import { type McpToolSink, namesOnlySink, syncServerTools } from './tool-sink.js';
import type { TransportFactory } from './transports.js';

/**
 * A connect holds its slot at most this long: a server that hangs in start-up must not stall the
 * others behind it, while most servers finish their CPU-heavy start well within it.
 */
const SLOT_HOLD_MAX_MS = 2_000;

export type { ConnectionLayer, LoadedLayer } from './server-slot.js';

export interface McpManagerOptions {
  entries: readonly ServerConfigEntry[];
  /** Where the servers' tools go; left out, the MCP extension attaches the seam's at setup. */
  tools?: McpToolSink;
  createTransport: TransportFactory;
  /**
   * The connection layer (`await import('./connection-layer.js')`); needed only when `entries` has
   * a server, so a manager without servers never loads the SDK.
   */
  connections?: ConnectionLayer;
  /** Loads the layer (and its transports) when servers are added to a manager that has none. */
  loadConnections?: () => Promise<LoadedLayer>;
  /**
   * Every configured server's name, also those left out of `entries` (`mcp call` connects one):
   * tool names are kept apart from all of them, so they are the same whichever servers run.
   */
  serverNames?: readonly string[];
  /** `<project>/.geekagent/logs`; undefined keeps logs in memory only. */
  logDir: string | undefined;
  /** The project folder: cut results are kept whole in its `.geekagent/tool-output/`. */
  projectDir?: string;
  acceptsMedia: boolean;
  clientVersion: string;
  concurrency?: number;
  restartPolicy?: RestartPolicy;
  /** What servers may ask of us (elicitation, sampling, roots); none declared when absent. */
  features?: ClientFeatures;
  /** Hides secret values in server logs (file and memory). */
  redact?: Redactor;
  /** `<userStateDir>/cache`: each successful listing is kept there; undefined keeps none. */
  cacheDir?: string;
  /** Cached listings by server name: protocol eras for every connect, tools for lazy starts. */
  cached?: ReadonlyMap<string, CachedListing>;
  /** Servers with a cached listing (and `startup` not `eager`) start on first use. */
  lazy?: boolean;
  /** The servers' changes are followed (a listen stream, resource subscriptions): the agent's faces. */
  followChanges?: boolean;
  /** Runs after every server is down (a sandbox this manager's servers alone used). */
  afterShutdown?: () => Promise<void>;
}

/** Servers added while the manager runs (`addServers`): they leave together. */
export interface McpServerGroup {
  whenSettled(): Promise<void>;
  /** Model-facing names of the tools its servers registered (resource tools included). */
  toolNames(): string[];
  /** Stops its servers and removes their tools. */
  remove(): Promise<void>;
}

export class McpManager {
  private slots: ServerSlot[];
  private tools: McpToolSink;
  private attached: boolean;
  private layer: Promise<LoadedLayer | undefined>;
  private readonly listeners = new Set<() => void>();
  private readonly limiter: Limiter;
  /** When `start()` first ran (ms since the epoch; set once): the start-up grace counts from it. */
  private startTime: number | undefined;
  /** Cache writes in flight: shutdown lets them finish so a short run still leaves its cache. */
  private readonly cacheWrites = new Set<Promise<void>>();

  constructor(private readonly options: McpManagerOptions) {
    this.limiter = new Limiter(options.concurrency ?? Math.max(1, os.availableParallelism()));
    this.tools = options.tools ?? namesOnlySink();
    this.attached = options.tools !== undefined;
    // The tool list's order follows the config, not which server's tools registered first.
    this.tools.order(this.configuredNames());
    const kind = {
      names: this.configuredNames(),
      cached: options.cached,
      lazy: options.lazy,
      features: options.features,
      follow: options.followChanges,
    };
    const layer = options.connections && {
      connections: options.connections,
      createTransport: options.createTransport,
    };
    this.layer = Promise.resolve(layer);
    this.slots = options.entries.map((entry) => this.createSlot(entry, kind, layer));
  }

  /**
   * Puts the servers' tools in `tools` from now on (the MCP extension's setup hands the seam's
   * tool set); what is known already (cached listings) moves there at once.
   */
  attach(tools: McpToolSink): void {
    if (this.attached) throw new Error('McpManager: its tools already go to a tool set');
    this.tools = tools;
    this.attached = true;
    tools.order(this.configuredNames());
    for (const slot of this.slots) {
      slot.registered = new Set();
      const state = slot.connection?.state;
      if (state?.state === 'idle' || state?.state === 'connected')
        this.syncTools(slot, { tools: state.tools, warnings: slot.connection!.warnings });
    }
  }

  /**
   * Starts a group of servers beside the configured ones (an active skill's): their tools come
   * after the configured servers', and `remove` stops them and takes their tools away. A name
   * another server of this manager has is refused (its tools would clash).
   */
  async addServers(group: string, entries: readonly ServerConfigEntry[]): Promise<McpServerGroup> {
    const layer = entries.some((entry) => entry.kind === 'ok') ? await this.loadLayer() : undefined;
    const taken = entries.filter((entry) => this.slots.some((slot) => slot.entry.name === entry.name));
    if (taken.length > 0)
      throw new Error(
        `MCP server ${taken.map((entry) => entry.name).join(', ')} is not started: a server of that name already runs (rename it in ${fileOf(taken[0]!)})`,
      );
    const names = entries.map((entry) => entry.name);
    this.tools.order(names);
    const kind = { names, group, follow: this.options.followChanges };
    const slots = entries.map((entry) => this.createSlot(entry, kind, layer));
    this.slots.push(...slots);
    for (const slot of slots) this.startSlot(slot);
    this.changed();
    return {
      whenSettled: async () => {
        await Promise.all(slots.map((slot) => this.settledOf(slot)));
      },
      toolNames: () => slots.flatMap((slot) => [...slot.registered]),
      remove: async () => {
        if (slots.every((slot) => slot.removed)) return;
        for (const slot of slots) slot.removed = true;
        this.slots = this.slots.filter((slot) => !slot.removed);
        await Promise.all(slots.map((slot) => this.closeSlot(slot)));
        // After the close: a listing that landed while it stopped is removed too.
        for (const slot of slots) for (const name of slot.registered) this.tools.remove(name);
        for (const slot of slots) slot.registered = new Set();
        this.changed();
      },
    };
  }

  private configuredNames(): readonly string[] {
    return this.options.serverNames ?? this.options.entries.map((entry) => entry.name);
  }

  private loadLayer(): Promise<LoadedLayer | undefined> {
    this.layer = this.layer.then((layer) => layer ?? this.options.loadConnections?.());
    return this.layer;
  }

  /** Starts every enabled server in the background; returns at once. */
  start(): void {
    if (this.startTime !== undefined) return;
    this.startTime = Date.now();
    for (const slot of this.slots) if (slot.group === undefined) this.startSlot(slot);
  }

  private startSlot(slot: ServerSlot): void {
    const connection = slot.connection;
    if (!connection || slot.lazy) return;
    let attempt: Promise<void> = Promise.resolve();
    slot.started = this.limiter
      .run(() => {
        attempt = connection.start();
        return Promise.race([attempt, delay(SLOT_HOLD_MAX_MS)]);
      })
      .then(() => attempt);
  }

  /** When the configured servers began to start (`start()`), or undefined before. */
  get startedAt(): number | undefined {
    return this.startTime;
  }

  /** Resolves when every enabled server has connected, failed or timed out. */
  async whenSettled(): Promise<void> {
    this.start();
    await Promise.all(this.awaited().map((slot) => this.settledOf(slot)));
  }

  get settled(): boolean {
    return this.awaited().every((slot) => isSettled(this.stateOf(slot)));
  }

  /** Names of servers still connecting, for a "waiting for …" line. */
  pending(): string[] {
    return this.awaited()
      .filter((slot) => !isSettled(this.stateOf(slot)))
      .map((slot) => slot.entry.name);
  }

  /** Whether `name`'s tool list was cached by an earlier run (its first request waits for it whole). */
  hasCachedListing(name: string): boolean {
    return this.slots.find((slot) => slot.entry.name === name)?.cached !== undefined;
  }

  /** The servers a model request waits for: those whose tools are not known from a cache. */
  private awaited(): ServerSlot[] {
    return this.slots.filter((slot) => !slot.lazy);
  }

  statuses(): ServerStatus[] {
    return this.slots.map((slot) => ({
      name: slot.entry.name,
      source: slot.entry.kind === 'ok' ? slot.entry.definition.source : slot.entry.source,
      transport: slot.entry.kind === 'ok' ? slot.entry.definition.transport : 'stdio',
      state: this.stateOf(slot),
      warnings: slot.warnings,
      ...(slot.group ? { group: slot.group } : {}),
      ...(slot.entry.kind === 'ok' &&
      slot.entry.definition.transport === 'stdio' &&
      slot.entry.definition.sandbox
        ? { sandboxed: true as const }
        : {}),
    }));
  }

  status(name: string): ServerStatus | undefined {
    return this.statuses().find((status) => status.name === name);
  }

  connection(name: string): McpConnection | undefined {
    return this.slots.find((slot) => slot.entry.name === name)?.connection;
  }

  /** Every server's connection (configured and added), in order. */
  connections(): McpConnection[] {
    return this.slots.flatMap((slot) => (slot.connection ? [slot.connection] : []));
  }

  /** A turn begins: tool lists past their `ttlMs` are listed again (connection.ts `refreshIfStale`). */
  refreshStale(): void {
    for (const slot of this.slots) slot.connection?.refreshIfStale();
  }

  /** Resolves once no server is re-listing after a change notification (see server-changes.ts). */
  async relistsSettled(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.connection?.changes.relistsSettled()));
  }

  logTail(name: string, count = 50): string[] | undefined {
    return this.slots.find((slot) => slot.entry.name === name)?.log.tail(count);
  }

  /** Resolves once the server's log file has opened (or noted why it could not). */
  async logSettled(name: string): Promise<void> {
    await this.slots.find((slot) => slot.entry.name === name)?.log.settled();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async reconnect(name: string): Promise<boolean> {
    const connection = this.connection(name);
    if (!connection) return false;
    await connection.reconnect();
    return true;
  }

  /** Tells every connected server that the roots changed (the permission root moved). */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.connection?.notifyRootsChanged()));
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.cacheWrites);
    await Promise.all(this.slots.map((slot) => this.closeSlot(slot)));
    await this.options.afterShutdown?.();
  }

  private async closeSlot(slot: ServerSlot): Promise<void> {
    await slot.connection?.close();
    await slot.log.close();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private createSlot(entry: ServerConfigEntry, kind: SlotKind, layer: LoadedLayer | undefined): ServerSlot {
    const slot = createServerSlot(entry, kind, layer, {
      ...this.options,
      onChange: (slot, state, catalog) => this.onConnectionChange(slot, state, catalog),
    });
    const state = slot.connection?.state;
    if (state?.state === 'idle')
      this.syncTools(slot, { tools: state.tools, warnings: slot.connection!.warnings });
    return slot;
  }

  private stateOf(slot: ServerSlot): ServerState {
    if (slot.entry.kind === 'invalid') return { state: 'failed', error: slot.entry.error, during: 'startup' };
    return slot.connection?.state ?? { state: 'disabled' };
  }

  private settledOf(slot: ServerSlot): Promise<void> {
    if (isSettled(this.stateOf(slot))) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!isSettled(this.stateOf(slot))) return;
        unsubscribe();
        resolve();
      };
      const unsubscribe = this.onChange(check);
      check();
    });
  }

  private onConnectionChange(slot: ServerSlot, state: ServerState, catalog: Catalog | undefined): void {
    if (slot.removed) return;
    if (state.state === 'connected' && catalog) {
      this.syncTools(slot, catalog);
      this.updateCache(slot);
    }
    this.changed();
  }

  /** A listing that differs from the cache (or the first one) replaces it; failures only logged. */
  private updateCache(slot: ServerSlot): void {
    const { cacheDir } = this.options;
    const listing = slot.connection?.listing;
    // An added group's servers keep no cache (none of them ever starts lazily).
    if (
      !cacheDir ||
      slot.group !== undefined ||
      !listing ||
      slot.entry.kind !== 'ok' ||
      !hasToolCache(slot.entry.definition) ||
      sameListing(slot.cached, listing)
    )
      return;
    slot.cached = listing;
    const definition = slot.entry.definition;
    const write = writeCachedListing(cacheDir, definition, listing)
      .catch((error: unknown) => {
        slot.log.append(`[geekagent] could not cache the tool list: ${errorMessage(error)}`);
      })
      .finally(() => this.cacheWrites.delete(write));
    this.cacheWrites.add(write);
  }

  /** The tool set follows the server's tool list (tool-sink.ts); names stay stable across re-listings. */
  private syncTools(slot: ServerSlot, catalog: Catalog): void {
    const { projectDir, acceptsMedia } = this.options;
    const synced = syncServerTools(this.tools, slot.connection!, catalog, slot.registered, {
      acceptsMedia,
      keepOutput: projectDir ? (text) => saveToolOutput(projectDir, text) : undefined,
    });
    slot.registered = synced.registered;
    slot.warnings = synced.warnings;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function fileOf(entry: ServerConfigEntry): string {
  return entry.kind === 'ok' ? entry.definition.file : entry.file;
}
