/**
 * One connect attempt over one opened transport (connection.ts decides when, and what the outcome
 * means for the server's state): a fresh SDK `Client` with the client features and the
 * `list_changed` handlers, `initialize` within the start-up deadline, then the tool listing and the
 * resources/prompts listing. The client is handed back only on success; a failed attempt has
 * closed it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage } from '../util/errors.js';
import { type ListedTool, listAllTools, listExtras, NO_EXTRAS, type ServerExtras } from './catalog.js';
import { OWN_NOTE, type StartFailure, withDeadline } from './connection-errors.js';
import type { ConnectionOptions } from './connection-options.js';
import type * as ConnectionSdk from './connection-sdk.js';
import { CoalescingTransport } from './notification-flow.js';
import type { OpenedTransport } from './transports.js';

export interface Connected {
  client: Client;
  tools: ListedTool[];
  extras: ServerExtras;
}

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

type AttemptOptions = Pick<ConnectionOptions, 'definition' | 'clientInfo' | 'configureClient' | 'log'>;

/** Connects and lists; resolves with the connected client and its listings, or why it failed. */
export async function connectAttempt(
  sdk: typeof ConnectionSdk,
  opened: OpenedTransport,
  options: AttemptOptions,
  hooks: AttemptHooks,
): Promise<Connected | StartFailure> {
  const { definition } = options;
  const { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } = sdk;
  const client = new sdk.Client(options.clientInfo, { capabilities: {} });
  options.configureClient?.(client, sdk);
  client.onerror = (error) => hooks.error(error);
  client.onclose = () => hooks.closed();
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => hooks.toolsChanged());
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => hooks.extrasChanged());
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => hooks.extrasChanged());
  hooks.hold(client);
  try {
    await withDeadline(
      // Progress and log floods are coalesced before the SDK sees them.
      client.connect(new CoalescingTransport(opened.transport), { timeout: definition.startupTimeoutMs }),
      definition.startupTimeoutMs,
    );
    const tools = await listAllTools(client, definition.timeoutMs);
    const extras = await listExtras(client, definition.timeoutMs).catch((error: unknown) => {
      options.log.append(`${OWN_NOTE} listing resources/prompts failed: ${errorMessage(error)}`);
      return NO_EXTRAS;
    });
    if (!hooks.current()) {
      await client.close().catch(() => undefined);
      return { error: new Error('superseded'), stage: 'listing', exitedFirst: false };
    }
    return { client, tools, extras };
  } catch (error) {
    // Read before our close: a server that exits only because we closed it (stdin ended) did
    // not fail by exiting — it failed by not answering in time.
    const stage = client.getServerVersion() ? 'listing' : 'initialize';
    const failure: StartFailure = { error, stage, exitedFirst: opened.exitReason() !== undefined };
    // The connection keeps `opened` for the reason (its exit); it drops the client.
    hooks.hold(undefined);
    await client.close().catch(() => undefined);
    return failure;
  }
}
