/**
 * The MCP manager: owns every server connection of one agent. Connects them in the background
 * with about one connect per core in flight — except lazy servers with a cached tool list, whose
 * tools are registered from the cache and which start on first use — keeps the tool registry in
 * step with each server's tools (and the cache with each listing), and answers "have the servers
 * without a cache settled?" for the first model request.
 */
import os from 'node:os';
import path from 'node:path';
import type { ToolDefinition } from '../permissions/pins.js';
import type { Policy } from '../permissions/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import { errorMessage } from '../util/errors.js';
import { Limiter } from '../util/limiter.js';
import type { Redactor } from '../util/redact.js';
import type { Catalog } from './catalog.js';
import type { ClientFeatures } from './client-features.js';
import type { ServerConfigEntry } from './config.js';
import type { McpConnection } from './connection.js';
import type * as ConnectionLayerModule from './connection-layer.js';
import type { RestartPolicy } from './connection-options.js';
import { createResourceTools } from './resources.js';
import { ServerLog } from './server-log.js';
import { isSettled, type ServerState, type ServerStatus } from './status.js';
import { type AdapterOptions, createMcpTool } from './tool-adapter.js';
import { type CachedListing, sameListing, writeCachedListing } from './tool-cache.js';
import { saveToolOutput } from './tool-output.js';
import type { TransportFactory } from './transports.js';

/**
 * A connect holds its slot at most this long: a server that hangs in start-up must not stall the
 * others behind it, while most servers finish their CPU-heavy start well within it.
 */
const SLOT_HOLD_MAX_MS = 2_000;

export interface McpManagerOptions {
  entries: readonly ServerConfigEntry[];
  registry: ToolRegistry;
  policies: McpPolicyHooks;
  createTransport: TransportFactory;
  /**
   * The connection layer (`await import('./connection-layer.js')`); needed only when `entries` has
   * a server, so a manager without servers never loads the SDK.
   */
  connections?: ConnectionLayer;
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
  /** Cached listings of the servers that start lazily (by server name). */
  lazy?: ReadonlyMap<string, CachedListing>;
  /** Runs after every server is down (a sandbox this manager's servers alone used). */
  afterShutdown?: () => Promise<void>;
}

/** `connection-layer.ts`: what connecting a server takes (it loads the SDK on the first connect). */
export type ConnectionLayer = Pick<typeof ConnectionLayerModule, 'McpConnection'>;

/** What the manager tells the policy store about the tools it registers. */
export interface McpPolicyHooks {
  ensureToolPolicy(toolName: string, policy: Policy): void;
  /** Which (server, tool) answers to a model-facing name now, and its definition (for pins). */
  registerMcpTool?(modelName: string, server: string, definition: ToolDefinition): void;
}

interface ServerSlot {
  entry: ServerConfigEntry;
  connection: McpConnection | undefined;
  log: ServerLog;
  /** Model-visible names this server currently has in the registry. */
  registered: Set<string>;
  warnings: string[];
  started: Promise<void> | undefined;
  /** Started on first use from a cached listing: no model request waits for it. */
  lazy: boolean;
  /** What the cache holds for this server (kept in step with its listings). */
  cached: CachedListing | undefined;
}

export class McpManager {
  private readonly slots: ServerSlot[];
  private readonly listeners = new Set<() => void>();
  private readonly limiter: Limiter;
  private startedAll = false;
  /** Cache writes in flight: shutdown lets them finish so a short run still leaves its cache. */
  private readonly cacheWrites = new Set<Promise<void>>();

  constructor(private readonly options: McpManagerOptions) {
    this.limiter = new Limiter(options.concurrency ?? Math.max(1, os.availableParallelism()));
    // The tool list's order follows the config, not which server's tools registered first.
    options.registry.orderServers(options.serverNames ?? options.entries.map((entry) => entry.name));
    this.slots = options.entries.map((entry) => this.createSlot(entry));
  }

  /** Starts every enabled server in the background; returns at once. */
  start(): void {
    if (this.startedAll) return;
    this.startedAll = true;
    for (const slot of this.slots) {
      const connection = slot.connection;
      if (!connection || slot.lazy) continue;
      let attempt: Promise<void> = Promise.resolve();
      slot.started = this.limiter
        .run(() => {
          attempt = connection.start();
          return Promise.race([attempt, delay(SLOT_HOLD_MAX_MS)]);
        })
        .then(() => attempt);
    }
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
      ...(slot.entry.kind === 'ok' &&
      slot.entry.definition.transport === 'stdio' &&
      slot.entry.definition.sandbox
        ? { sandboxed: true as const }
        : {}),
    }));
  }

  /** Every tool name this manager put in the registry: servers' tools and their resource tools. */
  registeredToolNames(): string[] {
    return this.slots.flatMap((slot) => [...slot.registered]);
  }

  status(name: string): ServerStatus | undefined {
    return this.statuses().find((status) => status.name === name);
  }

  connection(name: string): McpConnection | undefined {
    return this.slots.find((slot) => slot.entry.name === name)?.connection;
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
    await Promise.all(
      this.slots.map(async (slot) => {
        await slot.connection?.close();
        await slot.log.close();
      }),
    );
    await this.options.afterShutdown?.();
  }

  private createSlot(entry: ServerConfigEntry): ServerSlot {
    const logFile = this.options.logDir
      ? path.join(this.options.logDir, `${safeFileName(entry.name)}.log`)
      : undefined;
    const slot: ServerSlot = {
      entry,
      connection: undefined,
      log: new ServerLog(entry.name, logFile, { redact: this.options.redact }),
      registered: new Set(),
      warnings: [],
      started: undefined,
      lazy: false,
      cached: undefined,
    };
    if (entry.kind === 'ok') {
      const cached = this.options.lazy?.get(entry.name);
      slot.lazy = cached !== undefined && !entry.definition.disabled;
      slot.cached = cached;
      const names = this.options.serverNames ?? this.options.entries.map((other) => other.name);
      const layer = this.options.connections;
      if (!layer) throw new Error('McpManager: a server needs the connection layer (options.connections)');
      slot.connection = new layer.McpConnection({
        definition: { ...entry.definition, otherServers: names.filter((name) => name !== entry.name) },
        clientInfo: { name: 'geekagent', version: this.options.clientVersion },
        createTransport: this.options.createTransport,
        log: slot.log,
        restartPolicy: this.options.restartPolicy,
        configureClient: this.options.features
          ? (client, sdk) =>
              sdk.configureClientFeatures(client, entry.name, this.options.features!, slot.log, {
                roots: entry.definition.roots !== false,
              })
          : undefined,
        onChange: (state, catalog) => this.onConnectionChange(slot, state, catalog),
        lazyFrom: slot.lazy ? cached : undefined,
        logHint: path.join('.geekagent', 'logs', `${safeFileName(entry.name)}.log`),
      });
      const state = slot.connection.state;
      if (state.state === 'idle')
        this.syncTools(slot, { tools: state.tools, warnings: slot.connection.warnings });
    }
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
    if (state.state === 'connected' && catalog) {
      this.syncTools(slot, catalog);
      this.updateCache(slot);
    }
    for (const listener of this.listeners) listener();
  }

  private adapterOptions(): AdapterOptions {
    const { projectDir, acceptsMedia } = this.options;
    return {
      acceptsMedia,
      keepOutput: projectDir ? (text) => saveToolOutput(projectDir, text) : undefined,
    };
  }

  /** A listing that differs from the cache (or the first one) replaces it; failures only logged. */
  private updateCache(slot: ServerSlot): void {
    const { cacheDir } = this.options;
    const listing = slot.connection?.listing;
    if (!cacheDir || !listing || slot.entry.kind !== 'ok' || sameListing(slot.cached, listing)) return;
    slot.cached = listing;
    const definition = slot.entry.definition;
    const write = writeCachedListing(cacheDir, definition, listing)
      .catch((error: unknown) => {
        slot.log.append(`[geekagent] could not cache the tool list: ${errorMessage(error)}`);
      })
      .finally(() => this.cacheWrites.delete(write));
    this.cacheWrites.add(write);
  }

  /** Registry follows the server's tool list; names stay stable across restarts and re-listings. */
  private syncTools(slot: ServerSlot, catalog: Catalog): void {
    const connection = slot.connection!;
    const { registry } = this.options;
    const next = new Set<string>();
    const warnings = [...catalog.warnings];
    for (const info of catalog.tools) {
      const holder = registry.get(info.modelName);
      if (holder && !slot.registered.has(info.modelName)) {
        warnings.push(`skipped tool "${info.originalName}": the name ${info.modelName} is already taken`);
        continue;
      }
      this.options.policies.registerMcpTool?.(info.modelName, slot.entry.name, info.definition);
      this.options.policies.ensureToolPolicy(info.modelName, 'ask');
      registry.upsert(createMcpTool(connection, info, this.adapterOptions()));
      next.add(info.modelName);
    }
    if (connection.offersResources) {
      for (const tool of createResourceTools(connection, { acceptsMedia: this.options.acceptsMedia })) {
        if (next.has(tool.name) || (registry.get(tool.name) && !slot.registered.has(tool.name))) {
          warnings.push(`no ${tool.name} tool: the name is taken by a tool of the same name`);
          continue;
        }
        this.options.policies.ensureToolPolicy(tool.name, 'ask');
        registry.upsert(tool);
        next.add(tool.name);
      }
    }
    for (const name of slot.registered) if (!next.has(name)) registry.unregister(name);
    slot.registered = next;
    slot.warnings = warnings;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function safeFileName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_.-]/g, '_');
}
