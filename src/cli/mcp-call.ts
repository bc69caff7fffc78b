/** `geekagent mcp call <server> <tool> <json>`: one tool call, result as text, exit 1 on a tool error. */
import { convertCallToolResult } from '../mcp/results.js';
import { outputToText } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { err, type McpContext, missingServer, out, withManager } from './mcp-context.js';

export async function call(ctx: McpContext, server: string, tool: string, json: string): Promise<number> {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (error) {
    err(ctx, `invalid JSON arguments: ${errorMessage(error)}\n`);
    return 1;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    err(ctx, 'invalid JSON arguments: expected a JSON object such as {"text": "hi"}\n');
    return 1;
  }
  return withManager(
    ctx,
    (name) => name === server,
    async (manager, _scope, trust) => {
      const connection = manager.connection(server);
      const status = manager.status(server);
      if (!status) return missingServer(ctx, trust, server);
      manager.start();
      await manager.whenSettled();
      const state = manager.status(server)!.state;
      if (state.state !== 'connected' || !connection) {
        const reason = state.state === 'failed' || state.state === 'needs_auth' ? state.error : state.state;
        err(ctx, `MCP server ${server} is not connected: ${reason}\n`);
        return 1;
      }
      if (!state.tools.some((info) => info.originalName === tool)) {
        const names = state.tools.map((info) => info.originalName).join(', ') || '(none)';
        err(ctx, `server ${server} has no tool named ${tool}; its tools: ${names}\n`);
        return 1;
      }
      try {
        const result = await connection.callTool(tool, args as Record<string, unknown>);
        const converted = convertCallToolResult(result, {
          maxResultTokens: connection.definition.maxResultTokens,
          acceptsMedia: false,
        });
        const text = outputToText(converted.output);
        (converted.isError ? err : out)(ctx, `${text}\n`);
        return converted.isError ? 1 : 0;
      } catch (error) {
        err(ctx, `${errorMessage(error)}\n`);
        return 1;
      }
    },
  );
}
