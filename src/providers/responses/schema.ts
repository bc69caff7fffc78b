/**
 * Tool definitions for the Responses API: function tools with `strict: false` and parameters the
 * API takes. Its rule for the top of a parameters schema: `type: "object"`, and no
 * `oneOf`/`anyOf`/`allOf`/`enum`/`not` there. A tool whose schema breaks it is left out of the
 * request with a note naming its server and tool, never the whole request (the API would refuse
 * every tool with it). MCP schemas arrive already normalised (mcp/tool-schema.ts); this is the
 * provider's own last check, for them and for every other tool.
 */
import type { FunctionTool } from 'openai/resources/responses/responses';
import { MAX_SCHEMA_DEPTH, nestsDeeperThan } from '../../util/schema-depth.js';
import type { ProviderTool } from '../types.js';

const TOP_LEVEL_FORBIDDEN = ['oneOf', 'anyOf', 'allOf', 'enum', 'not'] as const;

export interface ConvertedTools {
  /** What goes in the request, in the tool list's order. */
  tools: FunctionTool[];
  /** The tool each entry of `tools` came from (same index): errors about `tools[i]` name it. */
  sources: ProviderTool[];
  dropped: Array<{ tool: ProviderTool; reason: string }>;
}

export function toResponsesTools(tools: readonly ProviderTool[]): ConvertedTools {
  const out: ConvertedTools = { tools: [], sources: [], dropped: [] };
  for (const tool of tools) {
    const checked = checkParameters(tool.parameters);
    if (typeof checked === 'string') {
      out.dropped.push({ tool, reason: checked });
      continue;
    }
    out.tools.push({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: checked,
      strict: false,
    });
    out.sources.push(tool);
  }
  return out;
}

/** The parameters to send, or why they cannot be sent. */
export function checkParameters(schema: unknown): Record<string, unknown> | string {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return 'its input schema is not a JSON object';
  }
  const record = schema as Record<string, unknown>;
  const type = record.type;
  if (type !== undefined && type !== 'object') {
    return `its input schema's top-level type is ${JSON.stringify(type)}; the Responses API takes only "object"`;
  }
  const forbidden = TOP_LEVEL_FORBIDDEN.filter((keyword) => record[keyword] !== undefined);
  if (forbidden.length > 0) {
    return `its input schema has ${forbidden.join(', ')} at the top level, which the Responses API refuses`;
  }
  if (nestsDeeperThan(record)) {
    return `its input schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
  }
  // A schema with no type is read as an object by other providers; this one wants it said.
  return type === undefined ? { type: 'object', ...record } : record;
}

/** The line the person sees for a tool left out. */
export function droppedToolNote(tool: ProviderTool, reason: string): string {
  const who = tool.origin
    ? `tool "${tool.origin.tool}" of MCP server ${tool.origin.server}`
    : `tool ${tool.name}`;
  return `${who} is left out of requests to the OpenAI Responses API: ${reason}`;
}

/** Names the tool a request error points at (`tools[3].parameters`), or undefined. */
export function toolNamedBy(param: unknown, sources: readonly ProviderTool[]): string | undefined {
  if (typeof param !== 'string') return undefined;
  const match = /^tools\[(\d+)\]/.exec(param);
  const tool = match ? sources[Number(match[1])] : undefined;
  if (!tool) return undefined;
  return tool.origin
    ? `tool "${tool.origin.tool}" of MCP server ${tool.origin.server} (sent as ${tool.name})`
    : `tool ${tool.name}`;
}
