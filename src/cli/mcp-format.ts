/**
 * Output of `geekagent mcp list` and `mcp get`, built on the shared status descriptions. The text
 * goes through `visible` as a whole (the descriptions already escape each field): nothing a server
 * or a config file says reaches the terminal raw. `--json` output is left to JSON.stringify.
 */
import type { McpServerDefinition } from '../mcp/config.js';
import { describeDefinition, describeServer, describeServers, serverListJson } from '../mcp/describe.js';
import { describeEra, type EraVerdict } from '../mcp/era.js';
import type { ServerStatus } from '../mcp/status.js';
import { visible } from '../util/terminal-text.js';

export { serverListJson };

export function formatServerList(statuses: readonly ServerStatus[], projectDir: string): string {
  if (statuses.length === 0) {
    return visible(
      `No MCP servers configured. Add one with: geekagent mcp add <name> -- <command> [args...]\n(project file: ${projectDir}/.geekagent/mcp.json)\n`,
    );
  }
  return `${visible(describeServers(statuses, { descriptions: true }))}\n`;
}

export function formatServerDetail(
  status: ServerStatus,
  definition: McpServerDefinition | undefined,
  era?: EraVerdict,
): string {
  const [head, ...rest] = describeServer(status, { descriptions: true });
  const protocol = describeEra(era);
  const lines = [
    head ?? status.name,
    ...(definition ? describeDefinition(definition) : []),
    ...(protocol ? [`  protocol: ${protocol}`] : []),
    ...rest,
  ];
  return `${visible(lines.join('\n'))}\n`;
}
