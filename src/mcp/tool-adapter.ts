/**
 * Wraps one discovered MCP tool as a registry Tool: the model-visible name and normalised schema
 * go to the model, the server's original name goes out in `tools/call`, and the result is
 * converted (text joined, media kept, big results cut — the whole text kept in a file the note
 * names — `isError` as an error result).
 */
import { outputToText, type Tool, ToolError, type ToolOutput } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { raceAbort } from '../util/race-abort.js';
import type { McpConnection } from './connection.js';
import { convertCallToolResult } from './results.js';
import type { McpToolInfo } from './status.js';

export interface AdapterOptions {
  acceptsMedia: boolean;
  /** Keeps the whole text of a cut result; answers the file's path (see tool-output.ts). */
  keepOutput?: (text: string) => Promise<string>;
}

export function approvalTitle(modelName: string, server: string): string {
  return `About to call MCP tool: ${modelName} (from server ${server})`;
}

/** Arguments shown in a question: bounded (the screen shows them visibly, control characters escaped). */
export const ARGUMENTS_SHOWN_CHARS = 4000;

/**
 * A call's arguments as the person reads them: `(no arguments)` rather than a bare `{}`, else the
 * JSON, cut at ARGUMENTS_SHOWN_CHARS with what was left out counted.
 */
export function describeArguments(args: Record<string, unknown>): string {
  if (Object.keys(args).length === 0) return '(no arguments)';
  const text = JSON.stringify(args, null, 2);
  if (text.length <= ARGUMENTS_SHOWN_CHARS) return text;
  return `${text.slice(0, ARGUMENTS_SHOWN_CHARS)}\n… (${text.length - ARGUMENTS_SHOWN_CHARS} more characters)`;
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
      detail: describeArguments(args),
      kind: 'mcp',
      server,
    }),
    // The SDK rejects a call the moment its signal aborts; a start on first use is raced here.
    endsOnAbort: true,
    run: async (args, ctx) => {
      if (connection.notStartedYet) {
        // The call was checked against the cached definition: one the server now describes
        // differently must go through the pin check again, so it is not sent this time.
        await raceAbort(connection.ensureStarted(), ctx.signal);
        const fresh = connection.tool(info.originalName);
        if (fresh && JSON.stringify(fresh.definition) !== JSON.stringify(info.definition))
          throw new ToolError(
            `MCP server ${server} now describes ${info.modelName} differently than its cached tool list did; the new definition is loaded: call the tool again to have it checked`,
          );
      }
      const result = await connection.callTool(info.originalName, args, {
        signal: ctx.signal,
        onProgress: ctx.onProgress,
      });
      const converted = convertCallToolResult(result, {
        maxResultTokens: connection.definition.maxResultTokens,
        acceptsMedia: options.acceptsMedia,
        redact: ctx.redact,
      });
      const output =
        converted.fullText !== undefined && options.keepOutput
          ? await withSavedNote(converted.output, converted.fullText, options.keepOutput)
          : converted.output;
      if (converted.isError) {
        const note = sandboxNote(connection);
        throw new ToolError(note ? `${outputToText(output)}\n${note}` : outputToText(output));
      }
      return output;
    },
  };
}

/**
 * A confined server's failed call: the model learns the walls it runs inside, so a refused path or
 * host reads as the sandbox's doing, not a broken tool (the server's stderr is not per call).
 */
function sandboxNote(connection: McpConnection): string | undefined {
  const definition = connection.definition;
  if (definition.transport !== 'stdio' || !definition.sandbox) return undefined;
  const { allowWrite, allowHosts } = definition.sandbox;
  const writes = ['the project root', 'its temp folder', ...allowWrite].join(', ');
  const hosts = allowHosts.length > 0 ? allowHosts.join(', ') : 'no host';
  return (
    `[sandbox] MCP server ${connection.name} runs confined (writes only to ${writes}; credentials such as ~/.ssh hidden; ` +
    `network: ${hosts}): a refused write, read or connection above is the sandbox's doing.`
  );
}

/** The cut note gains where the whole text is, so the model can `read` it in pages. */
async function withSavedNote(
  output: ToolOutput,
  fullText: string,
  keep: (text: string) => Promise<string>,
): Promise<ToolOutput> {
  let note: string;
  try {
    const file = await keep(fullText);
    note = `(the whole result, ${fullText.length} characters, is kept in ${file}: page through it with the read tool)`;
  } catch (error) {
    note = `(the whole result could not be kept: ${errorMessage(error)})`;
  }
  return typeof output === 'string' ? `${output}\n${note}` : [...output, { type: 'text', text: note }];
}
