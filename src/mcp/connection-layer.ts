/**
 * The part of the MCP client that connects servers: connections and their transports. The manager
 * receives it as `McpManagerOptions.connections`; `app/create-mcp.ts` imports it only when a run
 * has a server. It loads the SDK itself only on the first connect (`connection-sdk.ts`, and the
 * transports below), so a run whose servers all start idle from cached tool lists — and never
 * calls them — loads no SDK at all.
 */
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import type { RemoteOptions } from './remote-transport.js';
import type { ServerSandboxer } from './sandbox-launch.js';
import type { TransportFactory } from './transports.js';

export { McpConnection } from './connection.js';

/** `transports.ts`'s factory, loaded (with the SDK's transports) when the first server connects. */
export function createTransportFactory(
  tracker: ProcessGroupTracker,
  remote: RemoteOptions,
  sandbox?: ServerSandboxer,
): TransportFactory {
  let loaded: Promise<TransportFactory> | undefined;
  return async (definition, log) => {
    loaded ??= import('./transports.js').then((module) =>
      module.createTransportFactory(tracker, remote, sandbox),
    );
    return (await loaded)(definition, log);
  };
}
