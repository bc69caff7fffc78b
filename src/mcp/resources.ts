/**
 * MCP resources for the model and the person: per server that offers them, two model-callable
 * tools (list resources and templates; read one by URI), and `@<server>:<uri>` mentions in the
 * user's input that attach the resource's content to the message.
 */
import { outputToText, type Tool, ToolError, type ToolOutput } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import type { McpConnection } from './connection.js';
import { sanitizeName } from './naming.js';
import { convertCallToolResult } from './results.js';

export function resourceToolNames(server: string): { list: string; read: string } {
  return {
    list: sanitizeName(`mcp_${server}_list_resources`).slice(0, 64),
    read: sanitizeName(`mcp_${server}_read_resource`).slice(0, 64),
  };
}

export async function readResource(
  connection: McpConnection,
  uri: string,
  options: { acceptsMedia: boolean; signal?: AbortSignal; redact?: (text: string) => string },
): Promise<ToolOutput> {
  // The connection's errors name the server, the URI and the fix.
  const result = await connection.readResource(uri, options.signal);
  // Resource contents render exactly like embedded resources in tool results.
  const converted = convertCallToolResult(
    { content: result.contents.map((resource) => ({ type: 'resource', resource })) },
    {
      maxResultTokens: connection.definition.maxResultTokens,
      acceptsMedia: options.acceptsMedia,
      redact: options.redact,
    },
  );
  return converted.output;
}

export function describeResources(connection: McpConnection): string {
  const { resources, templates } = connection.extras;
  const lines = resources.map(
    (r) =>
      `${r.uri} — ${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? `: ${r.description}` : ''}`,
  );
  for (const t of templates)
    lines.push(`${t.uriTemplate} — ${t.name} (template)${t.description ? `: ${t.description}` : ''}`);
  return lines.length === 0 ? `(server ${connection.name} lists no resources)` : lines.join('\n');
}

export function createResourceTools(connection: McpConnection, options: { acceptsMedia: boolean }): Tool[] {
  const server = connection.name;
  const names = resourceToolNames(server);
  const approval = (name: string) => async (args: Record<string, unknown>) => ({
    title: `About to call MCP tool: ${name} (from server ${server})`,
    detail: JSON.stringify(args, null, 2),
    kind: 'mcp' as const,
    server,
  });
  // An origin like the server's own tools': tool search defers them and finds them the same way
  // (with 30 servers their 60 definitions are a third of the MCP bytes).
  const origin = (tool: string) => ({ kind: 'mcp' as const, server, tool, resourceHelper: true as const });
  return [
    {
      name: names.list,
      origin: origin('list_resources'),
      description: `[MCP:${server}] List the resources (and resource templates) server ${server} offers: URI, name, type, description.`,
      parameters: { type: 'object', properties: {} },
      describeApproval: approval(names.list),
      run: async () => {
        await connection.ensureStarted();
        return describeResources(connection);
      },
    },
    {
      name: names.read,
      origin: origin('read_resource'),
      description: `[MCP:${server}] Read one resource of server ${server} by URI (see ${names.list}; templates need their variables filled in).`,
      parameters: {
        type: 'object',
        properties: { uri: { type: 'string', description: 'The resource URI' } },
        required: ['uri'],
      },
      describeApproval: approval(names.read),
      run: async (args, ctx) => {
        if (typeof args.uri !== 'string' || args.uri === '')
          throw new ToolError(`${names.read}: "uri" must be a string`);
        return readResource(connection, args.uri, {
          acceptsMedia: options.acceptsMedia,
          signal: ctx.signal,
          redact: ctx.redact,
        });
      },
    },
  ];
}

const MENTION = /(^|\s)@([A-Za-z0-9_.-]+):(\S+)/;

export interface ExpandedInput {
  text: string;
  /** What could not be attached, for the person. */
  problems: string[];
  attached: string[];
}

/** Attaches the content of every `@<server>:<uri>` whose server is known; others stay as typed. */
export async function expandResourceMentions(
  input: string,
  connectionFor: (server: string) => McpConnection | undefined,
  options: { acceptsMedia: boolean; signal?: AbortSignal },
): Promise<ExpandedInput> {
  const blocks: string[] = [];
  const problems: string[] = [];
  const attached: string[] = [];
  for (const match of input.matchAll(new RegExp(MENTION, 'g'))) {
    const [, , server = '', uri = ''] = match;
    const connection = connectionFor(server);
    if (!connection) continue;
    const mention = `@${server}:${uri}`;
    try {
      const content = outputToText(await readResource(connection, uri, options));
      // Watched from now on: a change the server reports goes with the next turn (resource-updates.ts).
      connection.changes.attached(uri, content);
      blocks.push(`Attached resource ${mention}:\n${content}`);
      attached.push(mention);
    } catch (error) {
      problems.push(`could not attach ${mention}: ${errorMessage(error)}`);
    }
  }
  return { text: blocks.length === 0 ? input : `${input}\n\n${blocks.join('\n\n')}`, problems, attached };
}

export function mentionsResources(input: string): boolean {
  return MENTION.test(input);
}
