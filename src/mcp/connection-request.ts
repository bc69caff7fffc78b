/**
 * The path of every request to a server (connection.ts's `request`): sent at once when connected;
 * during a start or restart it waits for the outcome within its own timeout and is sent with what
 * is left of it (the model never retries because of our own restart); a server down for good fails
 * fast with the reason. A failure is turned into a message by the connection (`failure`).
 */
import type { Client } from '@modelcontextprotocol/client';
import { ToolError } from '../tools/types.js';
import { abortReason } from '../util/race-abort.js';
import { restartTimeoutMessage, unavailableMessage } from './connection-errors.js';
import type { ConnectionOptions } from './connection-options.js';
import type * as ConnectionSdk from './connection-sdk.js';
import { restartInProgress, type StateWaits } from './restart-wait.js';
import type { ServerState } from './status.js';

export type Send<T> = (client: Client, timeoutMs: number) => Promise<T>;

/** What the request path reads from its connection. */
export interface RequestSite {
  readonly name: string;
  readonly options: ConnectionOptions;
  readonly waits: StateWaits;
  state(): ServerState;
  /** The SDK client while connected. */
  client(): Client | undefined;
  /** The SDK, once a connect has loaded it. */
  sdk(): typeof ConnectionSdk | undefined;
  closed(): boolean;
  /** What a failed request throws. */
  failure(what: string, signal: AbortSignal | undefined, sdk: typeof ConnectionSdk, error: unknown): unknown;
}

/** Sent at once; no async frame of its own on the way of every call (bench row 4). */
export function requestNow<T>(
  site: RequestSite,
  what: string,
  signal: AbortSignal | undefined,
  send: Send<T>,
): Promise<T> {
  const client = site.client();
  const sdk = site.sdk();
  const { definition, logHint } = site.options;
  if (!client || !sdk) {
    if (!site.closed() && restartInProgress(site.state())) return afterRestart(site, what, signal, send);
    const message = unavailableMessage(site.name, site.state(), definition.file, logHint);
    return Promise.reject(new ToolError(message));
  }
  return send(client, definition.timeoutMs).catch((error: unknown) => {
    throw site.failure(what, signal, sdk, error);
  });
}

/** A request that arrived during a start or restart: sent once the server is back. */
async function afterRestart<T>(
  site: RequestSite,
  what: string,
  signal: AbortSignal | undefined,
  send: Send<T>,
): Promise<T> {
  const { timeoutMs, file } = site.options.definition;
  const began = Date.now();
  const settled = await site.waits.until(
    () => site.closed() || !restartInProgress(site.state()),
    timeoutMs,
    signal,
  );
  if (signal?.aborted) throw abortReason(signal);
  if (!settled) throw new ToolError(restartTimeoutMessage(site.name, what, site.state(), timeoutMs, file));
  const client = site.client();
  const sdk = site.sdk();
  if (!client || !sdk) {
    const { logHint } = site.options;
    throw new ToolError(unavailableMessage(site.name, site.state(), file, logHint));
  }
  const left = Math.max(1, timeoutMs - (Date.now() - began));
  return send(client, left).catch((error: unknown) => {
    throw site.failure(what, signal, sdk, error);
  });
}
