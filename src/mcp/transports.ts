/**
 * Builds the transport for a server definition. stdio servers get our process-group transport
 * with the SDK's minimal default environment plus their declared `env` — never the agent's whole
 * environment (API keys of the agent are not the server's business). Remote servers: see
 * remote-transport.ts. An in-process server (the library's) gets one end of the SDK's in-memory
 * pair; closing the client's end closes the server's.
 */

import { InMemoryTransport, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import type { InProcessDefinition, McpServerDefinition } from './config.js';
import type { OpenedTransport } from './opened-transport.js';
import { openRemoteTransport, type RemoteOptions } from './remote-transport.js';
import { confinedLaunch, type ServerSandboxer } from './sandbox-launch.js';
import type { ServerLog } from './server-log.js';
import { describeProcessExit, GroupStdioTransport, type StdioLaunch } from './stdio-transport.js';

export type { OpenedTransport } from './opened-transport.js';

/** May resolve later: the connection layer's factory loads the transports (and the SDK) on first use. */
export type TransportFactory = (
  definition: McpServerDefinition,
  log: ServerLog,
) => OpenedTransport | Promise<OpenedTransport>;

export function createTransportFactory(
  tracker: ProcessGroupTracker,
  remote: RemoteOptions,
  sandbox?: ServerSandboxer,
): TransportFactory {
  let starts = 0;
  return (definition, log) => {
    if (definition.transport === 'sdk') return openInProcess(definition);
    if (definition.transport !== 'stdio') return openRemoteTransport(definition, remote);
    const launch: StdioLaunch = {
      command: definition.command,
      args: definition.args,
      env: { ...getDefaultEnvironment(), ...definition.env },
      cwd: definition.cwd,
    };
    const open = (final: StdioLaunch, onExited?: () => void): OpenedTransport => {
      const transport = new GroupStdioTransport({
        launch: final,
        tracker,
        onStderrLine: (line) => log.append(line),
        ...(onExited ? { onExited } : {}),
      });
      return {
        transport,
        exitReason: () => (transport.exit ? describeProcessExit(transport.exit) : undefined),
      };
    };
    if (!definition.sandbox) return open(launch);
    // Each start is its own sandboxed command: released when that process is gone.
    const id = `mcp-${definition.name}-${++starts}`;
    return confinedLaunch(definition, launch, sandbox, id).then((confined) =>
      open(confined, () => sandbox?.release(id)),
    );
  };
}

/** A fresh linked pair per start: the server object takes its end; a restart connects it again. */
async function openInProcess(definition: InProcessDefinition): Promise<OpenedTransport> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  await (definition.instance as { connect(transport: Transport): Promise<void> }).connect(server);
  return { transport: client, exitReason: () => undefined };
}
