/**
 * How a tool definition becomes a search document, for MCP tool search: its name, its server's
 * name, its description, and its parameter names (top-level properties of the input schema), each
 * a field with a boost — a word in the name says more than the same word in a long description.
 */
import type { FieldOptions, SearchDocument } from './bm25-index.js';

/** Boosts chosen on the dev queries of test/fixtures/search/tool-queries.json (never the held-out). */
export const TOOL_FIELDS: Record<'name' | 'server' | 'description' | 'params', FieldOptions> = {
  name: { boost: 1.5 },
  server: { boost: 2 },
  description: { boost: 1 },
  // Parameter names are mostly generic (owner, path, page): they help a little, never lead.
  params: { boost: 0.3 },
};

export interface ToolDefinition {
  name: string;
  /** The MCP server that offers it (for `mcp_<server>_<tool>`). */
  server?: string;
  description?: string;
  /** A JSON Schema; its top-level `properties` names are indexed. */
  inputSchema?: unknown;
  /** Parameter names, when there is no schema at hand. */
  params?: readonly string[];
}

export function toolDocument(tool: ToolDefinition): SearchDocument {
  const schema = tool.inputSchema as { properties?: unknown } | undefined;
  const properties =
    schema && typeof schema.properties === 'object' && schema.properties !== null
      ? Object.keys(schema.properties)
      : [];
  return {
    name: tool.name,
    server: tool.server ?? '',
    description: tool.description ?? '',
    params: [...(tool.params ?? []), ...properties],
  };
}
