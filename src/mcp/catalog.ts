/**
 * Tool discovery for one server: paginated `tools/list` (with a guard against repeated cursors and
 * a page cap), then include/exclude filtering, model-visible naming and schema normalisation.
 */
import type {
  Client,
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client';
import * as z from '../util/schema.js';
import type { McpServerDefinition } from './config.js';
import { hintOf, type ListHint } from './list-hints.js';
import { nameServerTools } from './naming.js';
import type { McpToolInfo } from './status.js';
import { toolIncluded } from './tool-filter.js';
import { normalizeToolSchema } from './tool-schema.js';

/** Enough for thousands of tools; a server that pages further is looping. */
const MAX_PAGES = 100;

/**
 * The SDK's `listTools()` validates every tool strictly (`inputSchema.type` must be "object"), so
 * one odd tool would fail the whole listing. We ask through the SDK's `request()` with a lenient
 * page schema instead, and judge each tool's schema ourselves (normalise, or skip and report).
 */
// Built on the first listing: a start whose servers are all idle from the cache lists nothing, and
// this module loads with the connection layer (zod builds schemas eagerly, ~1-3 ms cold).
const LenientToolSchema = z.lazySchema(() =>
  z.looseObject({
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    inputSchema: z.optional(z.unknown()),
  }),
);
const LenientToolsPage = z.lazySchema(() =>
  z.looseObject({
    tools: z.array(z.unknown()),
    nextCursor: z.optional(z.string()),
  }),
);

export type ListedTool = z.infer<ReturnType<typeof LenientToolSchema>>;

/** A server's whole tool list, with the cache hints of its first page (list-hints.ts). */
export interface ToolListing {
  tools: ListedTool[];
  hint: ListHint | undefined;
}

export async function listAllTools(client: Client, timeoutMs: number): Promise<ToolListing> {
  const at = Date.now();
  if (!client.getServerCapabilities()?.tools) return { tools: [], hint: undefined };
  const tools: ListedTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let hint: ListHint | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    // The SDK has read `resultType` already: anything but a complete result is an error here.
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      LenientToolsPage(),
      { timeout: timeoutMs },
    );
    if (page === 0) hint = hintOf(result, at);
    for (const raw of result.tools) {
      const parsed = LenientToolSchema().safeParse(raw);
      if (parsed.success) tools.push(parsed.data);
    }
    cursor = result.nextCursor;
    if (cursor === undefined || seenCursors.has(cursor)) break;
    seenCursors.add(cursor);
  }
  return { tools, hint };
}

export interface Catalog {
  tools: McpToolInfo[];
  warnings: string[];
}

export function catalogTools(definition: McpServerDefinition, serverTools: readonly ListedTool[]): Catalog {
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
    definition.otherServers,
  );
  const warnings = naming.collisions.map(
    (collision) =>
      `tools ${collision.originalNames.map((n) => `"${n}"`).join(', ')} of server ${server} share the name ${collision.modelName}; "${collision.kept}" keeps it, the others got a hash suffix`,
  );
  for (const contest of naming.contested) {
    warnings.push(
      `tools ${contest.originalNames.map((n) => `"${n}"`).join(', ')} of server ${server} have names that could also be tools of server ${contest.otherServer}; they got a hash suffix`,
    );
  }
  for (const name of duplicates)
    warnings.push(`server ${server} lists the tool "${name}" more than once; using the first`);
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
      definition: {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
      },
    });
  });
  return { tools, warnings };
}

export interface ServerExtras {
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
}

export const NO_EXTRAS: ServerExtras = { resources: [], templates: [], prompts: [] };

/** Resources, templates and prompts of a server that offers them (each paginated, guarded). */
export async function listExtras(client: Client, timeoutMs: number): Promise<ServerExtras> {
  const capabilities = client.getServerCapabilities();
  // Asked for when a change may have happened (connect, list_changed, a re-opened listen stream):
  // never served from the SDK's response cache, whatever ttl the last answer had.
  const options = { timeout: timeoutMs, cacheMode: 'refresh' as const };
  const [resources, templates, prompts] = await Promise.all([
    capabilities?.resources
      ? paginate(async (cursor) => {
          const page = await client.listResources(cursor ? { cursor } : undefined, options);
          return { items: page.resources, next: page.nextCursor };
        })
      : [],
    capabilities?.resources
      ? paginate(async (cursor) => {
          const page = await client.listResourceTemplates(cursor ? { cursor } : undefined, options);
          return { items: page.resourceTemplates, next: page.nextCursor };
        }).catch(() => [])
      : [],
    capabilities?.prompts
      ? paginate(async (cursor) => {
          const page = await client.listPrompts(cursor ? { cursor } : undefined, options);
          return { items: page.prompts, next: page.nextCursor };
        })
      : [],
  ]);
  return { resources, templates, prompts };
}

async function paginate<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let count = 0; count < MAX_PAGES; count++) {
    const result = await page(cursor);
    items.push(...result.items);
    cursor = result.next;
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return items;
}
