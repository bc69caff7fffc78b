/**
 * One connect attempt over one opened transport (connection.ts decides when, and what the outcome
 * means for the server's state): a fresh SDK `Client` with the client features and the
 * `list_changed` handlers, the era chosen within the start-up deadline — the cached verdict as the
 * SDK's `prior` (no probe), else `server/discover` with a fall back to `initialize` — then the tool
 * listing and the resources/prompts listing. The client is handed back only on success, with the
 * era verdict; a failed attempt has closed it. A stdio server that answered the probe only after it
 * had given up (probe-watch.ts) fails the attempt with `LateDiscoverError`: it is a 2026 server,
 * started again as one, never judged 2025 for its slowness.
 */
import type { Client, ConnectOptions } from '@modelcontextprotocol/client';
import { errorMessage } from '../util/errors.js';
import {
  type ListedTool,
  listAllTools,
  listExtras,
  NO_EXTRAS,
  type ServerExtras,
  type ToolListing,
} from './catalog.js';
import { OWN_NOTE, refusedVersions, type StartFailure, withDeadline } from './connection-errors.js';
import type { ConnectionOptions } from './connection-options.js';
import type * as ConnectionSdk from './connection-sdk.js';
import { describeEra, type EraVerdict, MODERN_VERSION, priorOf, verdictAfterConnect } from './era.js';
import { INPUT_REQUIRED_OPTIONS } from './input-rounds.js';
import type { ListHint } from './list-hints.js';
import { CoalescingTransport, DEFAULT_FLOW_LIMITS } from './notification-flow.js';
import { LateDiscoverError, ProbeWatch } from './probe-watch.js';
import type { InputAnswerer } from './tasks/input.js';
import { TaskResultTransport } from './tasks/task-results.js';
import type { OpenedTransport } from './transports.js';

export interface Connected {
  client: Client;
  /** The person's handlers for a task's input requests (tasks/), when the client has them. */
  answerInput: InputAnswerer | undefined;
  tools: ListedTool[];
  /** The tool list's cache hints (the cached ones when the cached list stood in). */
  toolsHint: ListHint | undefined;
  extras: ServerExtras;
  verdict: EraVerdict | undefined;
}

/**
 * On stdio a server that stays silent on `server/discover` is a 2025 one (some never answer a
 * request before `initialize`): this long at most before falling back (a 2026 server merely slow
 * to start answers later, and is noticed: probe-watch.ts). Over HTTP silence is an outage, so the
 * start-up timeout applies.
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
  /** A cached tool list still fresh by its hints: used instead of `tools/list`. */
  freshTools?: ToolListing;
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
    // A 2026 server's input requests go to the same handlers as a 2025 server's, capped.
    inputRequired: INPUT_REQUIRED_OPTIONS,
  });
  const answerInput = options.configureClient?.(client, sdk);
  client.onerror = (error) => hooks.error(error);
  client.onclose = () => hooks.closed();
  client.setNotificationHandler('notifications/tools/list_changed', () => hooks.toolsChanged());
  client.setNotificationHandler('notifications/prompts/list_changed', () => hooks.extrasChanged());
  client.setNotificationHandler('notifications/resources/list_changed', () => hooks.extrasChanged());
  hooks.hold(client);
  const probe = new ProbeWatch();
  const deadline = Date.now() + definition.startupTimeoutMs;
  try {
    const prior = priorOf(options.verdict, Date.now());
    await withDeadline(
      // Progress and log floods are coalesced before the SDK sees them; task handles are read
      // before it refuses them (tasks/task-results.ts).
      client.connect(
        new CoalescingTransport(new TaskResultTransport(opened.transport), DEFAULT_FLOW_LIMITS, probe),
        {
          timeout: definition.startupTimeoutMs,
          // The SDK checks a cached discover result before adopting it (a bad one fails the connect).
          ...(prior ? { prior: prior as ConnectOptions['prior'] } : {}),
        },
      ),
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
    const listing = options.freshTools ?? (await listAllTools(client, definition.timeoutMs));
    if (options.freshTools && listing.hint) {
      const age = Math.round((Date.now() - listing.hint.at) / 1000);
      options.log.append(
        `${OWN_NOTE} tools from the cache (listed ${age} s ago, fresh for ${Math.round(listing.hint.ttlMs / 1000)} s): no tools/list`,
      );
    }
    // Checked after a round trip: a late probe answer is on the wire before the listing's.
    const late = probe.modernAnswer;
    if (verdict?.kind === 'legacy' && late) throw new LateDiscoverError(late, 'connected with initialize');
    const extras = await listExtras(client, definition.timeoutMs).catch((error: unknown) => {
      options.log.append(`${OWN_NOTE} listing resources/prompts failed: ${errorMessage(error)}`);
      return NO_EXTRAS;
    });
    if (!hooks.current()) {
      await client.close().catch(() => undefined);
      return { error: new Error('superseded'), stage: 'listing', exitedFirst: false };
    }
    return { client, answerInput, tools: listing.tools, toolsHint: listing.hint, extras, verdict };
  } catch (error) {
    // Read before our close: a server that exits only because we closed it (stdin ended) did
    // not fail by exiting — it failed by not answering in time.
    const stage = client.getProtocolEra() ? 'listing' : 'initialize';
    const late = error instanceof LateDiscoverError ? error : await lateDiscover(sdk, probe, error, deadline);
    const failure: StartFailure = {
      error: late ?? error,
      stage: late ? 'initialize' : stage,
      exitedFirst: opened.exitReason() !== undefined,
    };
    // The connection keeps `opened` for the reason (its exit); it drops the client.
    hooks.hold(undefined);
    await client.close().catch(() => undefined);
    return failure;
  }
}

/**
 * A refused `initialize` from a server that says it speaks 2026-07-28, while our probe is still
 * unanswered: its answer to the probe is on its way (a slow start made the probe give up; the
 * refusal can overtake the answer). Waits for it within the start-up deadline.
 */
async function lateDiscover(
  sdk: typeof ConnectionSdk,
  probe: ProbeWatch,
  error: unknown,
  deadline: number,
): Promise<LateDiscoverError | undefined> {
  const answered = probe.modernAnswer;
  if (answered) return new LateDiscoverError(answered, error);
  if (!probe.unanswered || !refusedVersions(sdk, error)?.includes(MODERN_VERSION)) return undefined;
  const late = await probe.lateAnswer(Math.max(0, deadline - Date.now()));
  return late ? new LateDiscoverError(late, error) : undefined;
}
