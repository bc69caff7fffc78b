/**
 * One connect attempt over one opened transport (connection.ts decides when, and what the outcome
 * means for the server's state): a fresh SDK `Client` with the client features and the
 * `list_changed` handlers, the era chosen within the start-up deadline — the cached verdict as the
 * SDK's `prior` (no probe), else `server/discover` with a fall back to `initialize` — then the tool
 * listing and the resources/prompts listing. The client is handed back only on success, with the
 * era verdict; a failed attempt has closed it.
 */
import type { Client, ConnectOptions } from '@modelcontextprotocol/client';
import { errorMessage } from '../util/errors.js';
import { type ListedTool, listAllTools, listExtras, NO_EXTRAS, type ServerExtras } from './catalog.js';
import { OWN_NOTE, type StartFailure, withDeadline } from './connection-errors.js';
import type { ConnectionOptions } from './connection-options.js';
import type * as ConnectionSdk from './connection-sdk.js';
import { describeEra, type EraVerdict, priorOf, verdictAfterConnect } from './era.js';
import { CoalescingTransport } from './notification-flow.js';
import type { InputAnswerer } from './tasks/input.js';
import { TaskResultTransport } from './tasks/task-results.js';
import type { OpenedTransport } from './transports.js';

export interface Connected {
  client: Client;
  /** The person's handlers for a task's input requests (tasks/), when the client has them. */
  answerInput: InputAnswerer | undefined;
  tools: ListedTool[];
  extras: ServerExtras;
  verdict: EraVerdict | undefined;
}

/**
 * On stdio a server that stays silent on `server/discover` is a 2025 one (some never answer a
 * request before `initialize`): this long at most before falling back. Over HTTP silence is an
 * outage, so the start-up timeout applies.
 */
const STDIO_PROBE_MS = 5000;

/** What the connection hears from this attempt's client, and how it says the attempt still counts. */
export interface AttemptHooks {
  /**
   * The client exists (before `initialize`): the connection holds it so a close can reach it; then
   * undefined when the attempt failed (before the client is closed).
   */
  hold(client: Client | undefined): void;
  /** False once the connection was closed or a newer attempt began. */
  current(): boolean;
  error(error: Error): void;
  closed(): void;
  toolsChanged(): void;
  extrasChanged(): void;
}

type AttemptOptions = Pick<ConnectionOptions, 'definition' | 'clientInfo' | 'configureClient' | 'log'> & {
  /** The era verdict to start from (cached, or the last connect's); undefined: probe. */
  verdict: EraVerdict | undefined;
};

/** Connects and lists; resolves with the connected client and its listings, or why it failed. */
export async function connectAttempt(
  sdk: typeof ConnectionSdk,
  opened: OpenedTransport,
  options: AttemptOptions,
  hooks: AttemptHooks,
): Promise<Connected | StartFailure> {
  const { definition } = options;
  const probeMs =
    definition.transport === 'stdio'
      ? Math.min(STDIO_PROBE_MS, definition.startupTimeoutMs)
      : definition.startupTimeoutMs;
  const client = new sdk.Client(options.clientInfo, {
    capabilities: {},
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeMs } },
  });
  const answerInput = options.configureClient?.(client, sdk);
  client.onerror = (error) => hooks.error(error);
  client.onclose = () => hooks.closed();
  client.setNotificationHandler('notifications/tools/list_changed', () => hooks.toolsChanged());
  client.setNotificationHandler('notifications/prompts/list_changed', () => hooks.extrasChanged());
  client.setNotificationHandler('notifications/resources/list_changed', () => hooks.extrasChanged());
  hooks.hold(client);
  try {
    const prior = priorOf(options.verdict, Date.now());
    await withDeadline(
      // Progress and log floods are coalesced before the SDK sees them; task handles are read
      // before it refuses them (tasks/task-results.ts).
      client.connect(new CoalescingTransport(new TaskResultTransport(opened.transport)), {
        timeout: definition.startupTimeoutMs,
        // The SDK checks a cached discover result before adopting it (a bad one fails the connect).
        ...(prior ? { prior: prior as ConnectOptions['prior'] } : {}),
      }),
      definition.startupTimeoutMs,
    );
    const verdict = verdictAfterConnect(
      client.getProtocolEra(),
      client.getNegotiatedProtocolVersion(),
      client.getDiscoverResult(),
      prior ? options.verdict : undefined,
      Date.now(),
    );
    const how = prior ? 'cached' : 'negotiated';
    options.log.append(`${OWN_NOTE} protocol ${describeEra(verdict) ?? 'unknown'}, ${how}`);
    const tools = await listAllTools(client, definition.timeoutMs);
    const extras = await listExtras(client, definition.timeoutMs).catch((error: unknown) => {
      options.log.append(`${OWN_NOTE} listing resources/prompts failed: ${errorMessage(error)}`);
      return NO_EXTRAS;
    });
    if (!hooks.current()) {
      await client.close().catch(() => undefined);
      return { error: new Error('superseded'), stage: 'listing', exitedFirst: false };
    }
    return { client, answerInput, tools, extras, verdict };
  } catch (error) {
    // Read before our close: a server that exits only because we closed it (stdin ended) did
    // not fail by exiting — it failed by not answering in time.
    const stage = client.getProtocolEra() ? 'listing' : 'initialize';
    const failure: StartFailure = { error, stage, exitedFirst: opened.exitReason() !== undefined };
    // The connection keeps `opened` for the reason (its exit); it drops the client.
    hooks.hold(undefined);
    await client.close().catch(() => undefined);
    return failure;
  }
}
