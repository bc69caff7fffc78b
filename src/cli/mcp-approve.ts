/**
 * `geekagent mcp approve <server>`: the server's current tool definitions become their pins
 * (`<userDir>/projects/<key>/mcp-pins.json`), so `allow` rules hold for them again. Prints each tool with what
 * changed since it was approved: new, unchanged, or how.
 */
import type { McpManager } from '../mcp/manager.js';
import { mcpPinsPlaces, PinStore } from '../permissions/pins.js';
import { visible } from '../util/terminal-text.js';

export async function approveServer(
  manager: McpManager,
  server: string,
  projectDir: string,
  userDir: string,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  if (!manager.status(server)) {
    io.stderr.write(`no MCP server named ${visible(server)} (see geekagent mcp list)\n`);
    return 1;
  }
  manager.start();
  await manager.whenSettled();
  const state = manager.status(server)!.state;
  if (state.state !== 'connected') {
    const reason = state.state === 'failed' || state.state === 'needs_auth' ? state.error : state.state;
    io.stderr.write(visible(`MCP server ${server} is not connected: ${reason}\n`));
    return 1;
  }
  const pins = new PinStore(mcpPinsPlaces(projectDir, userDir));
  const tools = state.tools.map((info) => ({
    server,
    modelName: info.modelName,
    definition: info.definition,
  }));
  const lines: string[] = [];
  for (const tool of tools) {
    const check = await pins.check(tool, { bindName: true });
    const what =
      check.state === 'same' ? 'unchanged' : check.state === 'unpinned' ? 'new' : check.changes.join('; ');
    lines.push(`  ${tool.modelName}: ${what}`);
  }
  await pins.pin(tools);
  const count = `${tools.length} tool${tools.length === 1 ? '' : 's'}`;
  io.stdout.write(visible(`Approved ${count} of MCP server ${server} (pinned in ${pins.file})\n`));
  if (lines.length > 0) io.stdout.write(`${visible(lines.join('\n'))}\n`);
  return 0;
}
