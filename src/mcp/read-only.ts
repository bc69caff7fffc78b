/**
 * Which MCP tools are read-only: a server's `readOnlyHint: true` annotation, which the default
 * approval mode and a sub-agent's `@readonly-mcp` pattern let through without asking.
 */
import type { McpManager } from './manager.js';

/** An MCP tool whose server marked it `readOnlyHint: true` (the default agent may use it). */
export function readOnlyMcpTool(mcp: McpManager, name: string): boolean {
  for (const status of mcp.statuses()) {
    // An idle (lazy) server's cached listing counts too: its tools start the server on first use.
    if (status.state.state !== 'connected' && status.state.state !== 'idle') continue;
    const tool = status.state.tools.find((info) => info.modelName === name);
    if (tool)
      return (tool.definition.annotations as { readOnlyHint?: unknown } | undefined)?.readOnlyHint === true;
  }
  return false;
}
