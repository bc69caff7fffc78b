/**
 * One server as the MCP manager holds it: its connection (made here), its log, the tool names it
 * has in the manager's tool set, and where it came from (the configuration, or a group added at
 * run time such as an active skill's).
 */
import path from 'node:path';
import { joinName } from '../util/join-name.js';
import type { Redactor } from '../util/redact.js';
import type { Catalog } from './catalog.js';
import type { ClientFeatures } from './client-features.js';
import type { ServerConfigEntry } from './config.js';
import type { McpConnection } from './connection.js';
import type * as ConnectionLayerModule from './connection-layer.js';
import type { RestartPolicy } from './connection-options.js';
import { serverRedactor } from './redact.js';
import { ServerLog } from './server-log.js';
import type { ServerState } from './status.js';
import type { CachedListing } from './tool-cache.js';
import type { TransportFactory } from './transports.js';

/** `connection-layer.ts`: what connecting a server takes (it loads the SDK on the first connect). */
export type ConnectionLayer = Pick<typeof ConnectionLayerModule, 'McpConnection'>;

/** The connection layer with the transports its connections open. */
export interface LoadedLayer {
  connections: ConnectionLayer;
  createTransport: TransportFactory;
}

export interface ServerSlot {
  entry: ServerConfigEntry;
  connection: McpConnection | undefined;
  log: ServerLog;
  /** Model-visible names this server currently has in the tool set. */
  registered: Set<string>;
  warnings: string[];
  started: Promise<void> | undefined;
  /** Started on first use from a cached listing: no model request waits for it. */
  lazy: boolean;
  /** What the cache holds for this server (kept in step with its listings). */
  cached: CachedListing | undefined;
  /** The group it was added with (`skill dice`); undefined for the configured servers. */
  group: string | undefined;
  /** Left the manager: a listing that lands now registers nothing. */
  removed: boolean;
}

/** How a slot is made: its group's server names (tool names stay apart from them), lazy or not. */
export interface SlotKind {
  names: readonly string[];
  group?: string;
  /** Cached listings by server name (an added group has none). */
  cached?: ReadonlyMap<string, CachedListing>;
  /** A server with a cached listing, not `eager`, starts on first use. */
  lazy?: boolean;
  features?: ClientFeatures;
  /** Its connections follow the servers' changes (connection-options.ts `followChanges`). */
  follow?: boolean;
}

export interface SlotDeps {
  /** `<project>/.geekagent/logs`; undefined keeps logs in memory only. */
  logDir: string | undefined;
  redact?: Redactor;
  clientVersion: string;
  restartPolicy?: RestartPolicy;
  onChange(slot: ServerSlot, state: ServerState, catalog: Catalog | undefined): void;
}

/** Where a server's log is, as its messages name it (relative to the project). */
const LOG_HINT_DIR = path.join('.geekagent', 'logs');

export function createServerSlot(
  entry: ServerConfigEntry,
  kind: SlotKind,
  layer: LoadedLayer | undefined,
  deps: SlotDeps,
): ServerSlot {
  const logName = `${safeFileName(entry.name)}.log`;
  const logFile = deps.logDir ? joinName(deps.logDir, logName) : undefined;
  // The run's secrets and this server's own (its ${VAR} values, its URL's userinfo and query),
  // hidden alike in its log and in every error its connection reports.
  const redact = entry.kind === 'ok' ? serverRedactor(entry.definition, deps.redact) : deps.redact;
  const slot: ServerSlot = {
    entry,
    connection: undefined,
    log: new ServerLog(entry.name, logFile, { redact }),
    registered: new Set(),
    warnings: [],
    started: undefined,
    lazy: false,
    cached: undefined,
    group: kind.group,
    removed: false,
  };
  if (entry.kind !== 'ok') return slot;
  const cached = kind.cached?.get(entry.name);
  const { disabled, startup } = entry.definition;
  slot.lazy = kind.lazy === true && cached !== undefined && !disabled && startup !== 'eager';
  slot.cached = cached;
  if (!layer) throw new Error('McpManager: a server needs the connection layer (options.connections)');
  const features = kind.features;
  slot.connection = new layer.connections.McpConnection({
    definition: { ...entry.definition, otherServers: kind.names.filter((name) => name !== entry.name) },
    clientInfo: { name: 'geekagent', version: deps.clientVersion },
    createTransport: layer.createTransport,
    log: slot.log,
    redact,
    restartPolicy: deps.restartPolicy,
    configureClient: features
      ? (client, sdk) =>
          sdk.configureClientFeatures(client, entry.name, features, slot.log, {
            roots: entry.definition.roots !== false,
          })
      : undefined,
    onChange: (state, catalog) => deps.onChange(slot, state, catalog),
    lazyFrom: slot.lazy ? cached : undefined,
    cachedListing: kind.lazy ? cached : undefined,
    followChanges: kind.follow === true,
    era: cached?.era,
    logHint: joinName(LOG_HINT_DIR, logName),
  });
  return slot;
}

function safeFileName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_.-]/g, '_');
}
