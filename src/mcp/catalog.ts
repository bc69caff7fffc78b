/**
 * Tool discovery for one server: paginated `tools/list` (with a guard against repeated cursors and
 * a page cap), then include/exclude filtering, model-visible naming and schema normalisation.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as ServerTool } from '@modelcontextprotocol/sdk/types.js';
import { type McpServerDefinition, toolIncluded } from './config.js';
import { nameServerTools } from './naming.js';
import type { McpToolInfo } from './status.js';
import { normalizeToolSchema } from './tool-schema.js';

/** Enough for thousands of tools; a server that pages further is looping. */
const MAX_PAGES = 100;

export async function listAllTools(client: Client, timeoutMs: number): Promise<ServerTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: ServerTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: timeoutMs });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || seenCursors.has(cursor)) return tools;
    seenCursors.add(cursor);
  }
  return tools;
}

export interface Catalog {
  tools: McpToolInfo[];
  warnings: string[];
}

export function catalogTools(definition: McpServerDefinition, serverTools: readonly ServerTool[]): Catalog {
  const server = definition.name;
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const included = serverTools.filter((tool) => {
    if (!toolIncluded(definition, tool.name)) return false;
    // A server listing one tool twice would register one model name twice: keep the first.
    if (seen.has(tool.name)) {
      duplicates.add(tool.name);
      return false;
    }
    seen.add(tool.name);
    return true;
  });
  const naming = nameServerTools(
    server,
    included.map((tool) => tool.name),
  );
  const warnings = naming.collisions.map(
    (collision) =>
      `tools ${collision.originalNames.map((n) => `"${n}"`).join(', ')} of server ${server} share the name ${collision.modelName}; all but the first got a hash suffix`,
  );
  for (const name of duplicates) warnings.push(`server ${server} lists the tool "${name}" more than once; using the first`);
  const tools: McpToolInfo[] = [];
  included.forEach((tool, index) => {
    const schema = normalizeToolSchema(tool.inputSchema);
    if (!schema.ok) {
      warnings.push(`skipped tool "${tool.name}" of server ${server}: ${schema.reason}`);
      return;
    }
    tools.push({
      modelName: naming.tools[index]!.modelName,
      originalName: tool.name,
      description: tool.description ?? tool.title ?? '',
      inputSchema: schema.schema,
    });
  });
  return { tools, warnings };
}
