/**
 * What a connection is built from (`ConnectionOptions`), how it restarts (`RestartPolicy`), and
 * what a call may carry — kept apart from the lifecycle in connection.ts.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ToolProgress } from '../tools/types.js';
import type { Redactor } from '../util/redact.js';
import type { Catalog } from './catalog.js';
import type { McpServerDefinition } from './config.js';
import type * as ConnectionSdk from './connection-sdk.js';
import type { EraVerdict } from './era.js';
import type { ServerLog } from './server-log.js';
import type { ServerState } from './status.js';
import type { InputAnswerer } from './tasks/input.js';
import type { CachedListing } from './tool-cache.js';
import type { TransportFactory } from './transports.js';

export interface RestartPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A connection that stayed up this long resets the attempt count. */
  stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

export interface ConnectionOptions {
  definition: McpServerDefinition;
  clientInfo: { name: string; version: string };
  createTransport: TransportFactory;
  log: ServerLog;
  /**
   * Hides the server's secrets in every error it reports (its state's, a request's): the slot's
   * (mcp/redact.ts `serverRedactor`); without one, the connection makes it from its definition.
   */
  redact?: Redactor;
  /** Every state change, and every re-listing (tools and warnings). */
  onChange: (state: ServerState, catalog: Catalog | undefined) => void;
  restartPolicy?: RestartPolicy;
  /**
   * Installs client-side capabilities and handlers (roots, sampling, elicitation) before connect;
   * returns those handlers for a task's input requests (tasks/input.ts).
   */
  configureClient?: (client: Client, sdk: typeof ConnectionSdk) => InputAnswerer | undefined;
  /**
   * The server's cached listing: the connection starts `idle` with these tools and connects on
   * first use (a call, a resource, a prompt, a reconnect).
   */
  lazyFrom?: CachedListing;
  /** The server's protocol era as cached with its listing: connects pass it as `prior` (no probe). */
  era?: EraVerdict;
  /**
   * The listing an earlier run cached (the agent's faces only: `geekagent mcp` always lists): while
   * its tools' `ttlMs` lasts (list-hints.ts), this run's first connect uses them, no `tools/list`.
   */
  cachedListing?: CachedListing;
  /**
   * Follow the server's changes (change-stream.ts: a 2026 listen stream, 2025 resource
   * subscriptions): the agent's faces do; the one-shot `geekagent mcp` commands open no stream.
   */
  followChanges?: boolean;
  /** Where the server's log is, for the person and the model (`.geekagent/logs/<server>.log`). */
  logHint?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
}
