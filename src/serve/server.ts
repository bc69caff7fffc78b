/**
 * GeekAgent's tools as an MCP server (`geekagent mcp serve`): the SDK v2's low-level `Server`
 * behind `serveStdio`, which serves both protocol eras on stdio (a 2026-07-28 client's
 * `server/discover` and per-request envelope, a 2025 client's `initialize`), with `tools/list`
 * (annotated, in one fixed order, with cache hints; denied tools left out) and `tools/call` (through
 * the agent's executor: policies, approval by elicitation — a 2026 client's as `input_required`
 * rounds —, sandbox, protected paths, redaction).
 * Every failure is an `isError` result with the reason. Ends when the client closes stdin: calls
 * still running are aborted (a shell command's process group is killed) before it resolves.
 */
import { type CallToolResult, type Tool as McpTool, Server } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ContentPart, ToolOutput } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { ServeApprover } from './approver.js';
import { createToolSet, type ServedTool, type ToolSetOptions } from './tool-set.js';

export interface ServeOptions extends Omit<ToolSetOptions, 'approver' | 'notice'> {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Diagnostics only: stdout carries protocol bytes and nothing else. */
  log: (line: string) => void;
  version: string;
  /** A signal (SIGTERM, SIGINT) ending the run: closes the connection like the end of stdin. */
  signal?: AbortSignal;
}

const INSTRUCTIONS =
  "GeekAgent's built-in tools (files, search, shell, fetch, memory, knowledge base) for one project folder. " +
  'Paths are relative to that folder and cannot leave it. Tools that need approval are asked through ' +
  'elicitation when the client supports it, else refused unless the server was started with --allow <tool>.';

/**
 * The tool list is fixed for the run (tools and policies are read at start): a client may keep it
 * a while. Private: what is listed depends on this folder's rules.
 */
const LIST_CACHE_HINT = { ttlMs: 5 * 60_000, cacheScope: 'private' } as const;

/** Serves until the connection closes; resolves once everything the server started is released. */
export async function serve(options: ServeOptions): Promise<void> {
  // The instance serving this connection, built by serveStdio once the opening message names the era.
  let server: Server | undefined;
  const approver = new ServeApprover(() => server);
  const toolSet = await createToolSet({ ...options, approver, notice: options.log });
  if (toolSet.unannotated.length > 0)
    options.log(`not served (no annotations in serve/hints.ts): ${toolSet.unannotated.join(', ')}`);
  // One line for whoever reads stderr (a client's server log, or a person who ran it by hand).
  options.log(
    `serving ${toolSet.tools.length} tools for ${options.projectDir} (root ${toolSet.root}) on stdio`,
  );
  const byName = new Map(toolSet.tools.map((served) => [served.tool.name, served]));
  // Denied tools are not listed; a client that names one anyway gets the executor's refusal.
  const listed = (): ServedTool[] =>
    toolSet.tools.filter((served) => toolSet.policies.policyFor(served.tool.name) !== 'deny');

  const chains = new Map<string, Promise<unknown>>();
  const exclusive = <T>(key: string | undefined, work: () => Promise<T>): Promise<T> => {
    if (key === undefined) return work();
    const result = (chains.get(key) ?? Promise.resolve()).then(work);
    const tail = result.catch(() => undefined);
    chains.set(key, tail);
    void tail.then(() => {
      if (chains.get(key) === tail) chains.delete(key);
    });
    return result;
  };

  // Always the tool set's own order (deterministic, as 2026-07-28 asks of list results).
  const tools = (): McpTool[] => listed().map(describe);

  const build = (era: 'legacy' | 'modern'): Server => {
    const instance = new Server(
      { name: 'geekagent', version: options.version },
      {
        capabilities: { tools: {} },
        instructions: INSTRUCTIONS,
        cacheHints: { 'tools/list': LIST_CACHE_HINT },
        // A 2026 client's approvals take rounds; their state is sealed by this process alone.
        requestState: { verify: approver.rounds.verify },
      },
    );
    approver.era = era;
    instance.setRequestHandler('tools/list', async () => ({ tools: tools() }));
    instance.setRequestHandler('tools/call', (request, ctx) =>
      era === 'modern'
        ? approver.rounds.run(request.params.name, request.params.arguments ?? {}, ctx, () =>
            call(request.params, ctx.mcpReq),
          )
        : call(request.params, ctx.mcpReq),
    );
    instance.onerror = (error) => options.log(`protocol error: ${errorMessage(error)}`);
    server = instance;
    return instance;
  };

  const call = async (
    params: { name: string; arguments?: Record<string, unknown> },
    request: { id: string | number; signal: AbortSignal },
  ): Promise<CallToolResult> => {
    const { name } = params;
    const served = byName.get(name);
    if (!served) return failure(`unknown tool: ${name} (see tools/list)`);
    const args = params.arguments ?? {};
    try {
      // Two edits of one file run one after another, as in an agent's round: each reads the file.
      const outcome = await exclusive(exclusiveKey(served, args, toolSet.root), () =>
        toolSet.executor.execute(
          { id: String(request.id), name, arguments: JSON.stringify(args) },
          request.signal,
          // No built-in tool reports progress today; notices (a pin that failed) go to stderr.
          { onNotice: (message) => options.log(message) },
        ),
      );
      return { content: toContent(outcome.output), ...(outcome.isError ? { isError: true } : {}) };
    } catch (error) {
      // The executor turns tool failures into results; this is a bug or a broken store.
      return failure(`error: ${errorMessage(error)}`);
    }
  };

  const transport = new StdioServerTransport(
    options.stdin as NodeJS.ReadStream,
    options.stdout as NodeJS.WriteStream,
  );
  let end: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    end = resolve;
  });
  transport.onclose = end;
  // The SDK's stdio transport does not watch for the end of stdin: the client closing it ends us.
  options.stdin.once('end', end);
  options.stdin.once('close', end);
  options.signal?.addEventListener('abort', end, { once: true });
  // Both eras: a 2025 client's initialize pins a legacy instance, a 2026 client's discover a modern one.
  const handle = serveStdio(({ era }) => build(era), {
    legacy: 'serve',
    transport,
    onerror: (error) => options.log(`protocol error: ${errorMessage(error)}`),
  });
  try {
    await closed;
    await handle.close();
  } finally {
    options.stdin.off('end', end);
    options.stdin.off('close', end);
    options.signal?.removeEventListener('abort', end);
    await toolSet.dispose();
  }
}

/** The call's exclusive key (write/patch: the file); a tool that cannot tell gets none. */
function exclusiveKey(served: ServedTool, args: Record<string, unknown>, root: string): string | undefined {
  try {
    return served.tool.exclusiveKey?.(args, root);
  } catch {
    return undefined;
  }
}

function describe(served: ServedTool): McpTool {
  const { tool, hints } = served;
  const { title, ...annotations } = hints;
  return {
    name: tool.name,
    title,
    description: tool.description,
    inputSchema: tool.parameters as McpTool['inputSchema'],
    annotations: { title, ...annotations },
  };
}

function toContent(output: ToolOutput): CallToolResult['content'] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  return output.map((part: ContentPart) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: part.type, data: part.data, mimeType: part.mimeType },
  );
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
