/**
 * Requests through the SDK client — `tools/call`, `prompts/get`, `resources/read` — each with the
 * server's per-request timeout and the turn's signal (the SDK cancels on abort: a
 * `notifications/cancelled`, or on a 2026 HTTP connection the request's closed stream, and takes its
 * 'abort' listener off the signal once the request settles). A tool call's timeout is also reset by
 * progress (capped in total). Results are complete when they get here: the SDK resolves a 2026
 * `input_required` through the client's handlers, a call that became a task (tasks/) is followed
 * to its end, and anything else not `complete` is an error (results.ts). What a failure means for
 * the connection is connection.ts's business.
 */
import type {
  CallToolResult,
  Client,
  GetPromptResult,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import type { CallOptions } from './connection-options.js';
import { isOwnRoundProgress } from './input-rounds.js';
import type { InputAnswerer } from './tasks/input.js';
import { taskHandleOf } from './tasks/task-results.js';

/** Progress resets the per-request timeout, but no call runs longer than this. */
const MAX_TOTAL_CALL_MS = 10 * 60_000;

/** What following a task needs beyond the call: the person's input handlers, the server's log. */
export interface TaskDeps {
  answerInput?: InputAnswerer;
  note: (text: string) => void;
}

export async function callThroughSdk(
  client: Client,
  toolName: string,
  args: Record<string, unknown>,
  timeoutMs: number,
  options: CallOptions,
  tasks?: TaskDeps,
): Promise<CallToolResult> {
  const startedAt = Date.now();
  const maxTotalMs = Math.max(MAX_TOTAL_CALL_MS, timeoutMs);
  const result = await client.callTool(
    { name: toolName, arguments: args },
    {
      signal: options.signal,
      timeout: timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: maxTotalMs,
      // Always asked for (a progress token), listener or not: only a call that carries one can have
      // its timeout restarted by the server's progress (`geekagent mcp call` shows none).
      onprogress: (p) => {
        if (!isOwnRoundProgress(p))
          options.onProgress?.({ progress: p.progress, total: p.total, message: p.message });
      },
    },
  );
  const task = tasks && taskHandleOf(result);
  if (!task) return result as CallToolResult;
  // Loaded with its SDK imports only once a server makes a task (this module loads with no SDK).
  const { followTask } = await import('./tasks/run-task.js');
  return followTask(client, task, { ...tasks, ...options, timeoutMs, maxTotalMs, startedAt });
}

export function getPromptThroughSdk(
  client: Client,
  name: string,
  args: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<GetPromptResult> {
  return client.getPrompt({ name, arguments: args }, { signal, timeout: timeoutMs });
}

export function readResourceThroughSdk(
  client: Client,
  uri: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<ReadResourceResult> {
  // Always from the server: `@` mentions and the model want what the resource says now.
  return client.readResource({ uri }, { signal, timeout: timeoutMs, cacheMode: 'bypass' });
}
