/** Output of `geekagent mcp list` and `mcp get`, built on the shared status descriptions. */
import type { McpServerDefinition } from '../mcp/config.js';
import { describeDefinition, describeServer, describeServers, serverListJson } from '../mcp/describe.js';
import type { ServerStatus } from '../mcp/status.js';

export { serverListJson };

export function formatServerList(statuses: readonly ServerStatus[], projectDir: string): string {
  if (statuses.length === 0) {
    return `No MCP servers configured. Add one with: geekagent mcp add <name> -- <command> [args...]\n(project file: ${projectDir}/.geekagent/mcp.json)\n`;
  }
  return `${describeServers(statuses, { descriptions: true })}\n`;
}

export function formatServerDetail(
  status: ServerStatus,
  definition: McpServerDefinition | undefined,
): string {
  const [head, ...rest] = describeServer(status, { descriptions: true });
  const lines = [head ?? status.name, ...(definition ? describeDefinition(definition) : []), ...rest];
  return `${lines.join('\n')}\n`;
}
