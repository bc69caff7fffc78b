/**
 * Wraps one discovered MCP tool as a registry Tool: the model-visible name and normalised schema
 * go to the model, the server's original name goes out in `tools/call`, and the result is
 * converted (text joined, media kept, big results cut, `isError` as an error result).
 */
import { outputToText, type Tool, ToolError } from '../tools/types.js';
import type { McpConnection } from './connection.js';
import { convertCallToolResult } from './results.js';
import type { McpToolInfo } from './status.js';

export interface AdapterOptions {
  acceptsMedia: boolean;
}

export function approvalTitle(modelName: string, server: string): string {
  return `About to call MCP tool: ${modelName} (from server ${server})`;
}

export function createMcpTool(connection: McpConnection, info: McpToolInfo, options: AdapterOptions): Tool {
  const server = connection.name;
  return {
    name: info.modelName,
    origin: { kind: 'mcp', server, tool: info.originalName },
    description: `[MCP:${server}] ${info.description || info.originalName}`,
    parameters: info.inputSchema,
    describeApproval: async (args) => ({
      title: approvalTitle(info.modelName, server),
      detail: JSON.stringify(args, null, 2),
      kind: 'mcp',
      server,
    }),
    run: async (args, ctx) => {
      const result = await connection.callTool(info.originalName, args, {
        signal: ctx.signal,
        onProgress: ctx.onProgress,
      });
      const converted = convertCallToolResult(result, {
        maxResultTokens: connection.definition.maxResultTokens,
        acceptsMedia: options.acceptsMedia,
        redact: ctx.redact,
      });
      if (converted.isError) throw new ToolError(outputToText(converted.output));
      return converted.output;
    },
  };
}
