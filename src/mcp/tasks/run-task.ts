/**
 * Following one task (the tasks extension) to its end: `tasks/get` at the server's
 * `pollIntervalMs` (bounded), each new status shown as the call's progress, input requests
 * answered by the person's handlers (`input.ts`) and sent with `tasks/update`, and `tasks/cancel`
 * the moment the call is cancelled (Ctrl+C, a cancelled turn) or runs past the cap on a whole
 * call. Requests go through the SDK client (`client.request` with loose result schemas: the
 * extension's methods are not in SDK 2.4.0's tables); connection.ts turns failures into messages.
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  type CallToolResult,
  type Client,
  SdkError,
  SdkErrorCode,
  specTypeSchemas,
} from '@modelcontextprotocol/client';
import * as z from 'zod/v4';
import type { ToolProgress } from '../../tools/types.js';
import { errorMessage } from '../../util/errors.js';
import { abortReason } from '../../util/race-abort.js';
import type { InputAnswerer } from './input.js';
import { isTaskView, type TaskView } from './task-results.js';

/**
 * A server asking for less is polled this often: progress is shown at most every 100 ms anyway
 * (as the server's own progress notifications are, notification-flow.ts).
 */
const MIN_POLL_MS = 100;
/** A server that names no interval, or a huge one, is still looked at this often. */
const DEFAULT_POLL_MS = 1000;
const MAX_POLL_MS = 30_000;
/** Rounds of input one task may ask for (as the SDK caps a request's input_required rounds). */
const MAX_INPUT_ROUNDS = 10;
/** tasks/cancel is sent on the way out: it may not hold up the cancel. */
const CANCEL_TIMEOUT_MS = 5000;

const Loose = z.looseObject({});

export interface FollowOptions {
  /** Per request (each tasks/get, tasks/update). */
  timeoutMs: number;
  /** The cap on the whole call, from its start. */
  maxTotalMs: number;
  startedAt: number;
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /** The person's handlers; absent: every input request is declined. */
  answerInput?: InputAnswerer;
  /** A line for the server's log (what happened to the task). */
  note: (text: string) => void;
}

export async function followTask(
  client: Client,
  first: TaskView,
  options: FollowOptions,
): Promise<CallToolResult> {
  const { taskId } = first;
  const { signal } = options;
  let ended = false;
  const cancel = (why: string) => {
    if (ended) return;
    ended = true;
    options.note(`task ${taskId}: ${why}; sending tasks/cancel`);
    client
      .request({ method: 'tasks/cancel', params: { taskId } }, Loose, { timeout: CANCEL_TIMEOUT_MS })
      .catch((error: unknown) => options.note(`task ${taskId}: tasks/cancel failed: ${errorMessage(error)}`));
  };
  // At once, in the abort itself: a run that ends on Ctrl+C still tells the server before it closes.
  const onAbort = () => cancel('the call was cancelled');
  signal?.addEventListener('abort', onAbort, { once: true });
  options.note(`task ${taskId}: ${first.status}`);
  const finished = () => {
    ended = true;
  };
  try {
    return await poll(client, first, options, { cancel, finished });
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    // Not followed to its end (an input that could not be given, a failed poll): the server stops too.
    cancel(`following it failed: ${errorMessage(error)}`);
    throw error;
  } finally {
    ended = true;
    signal?.removeEventListener('abort', onAbort);
  }
}

async function poll(
  client: Client,
  first: TaskView,
  options: FollowOptions,
  ends: { cancel(why: string): void; finished(): void },
): Promise<CallToolResult> {
  const { cancel } = ends;
  const { taskId } = first;
  const { signal, timeoutMs } = options;
  const deadline = options.startedAt + options.maxTotalMs;
  let view = first;
  let polls = 0;
  let inputRounds = 0;
  let shown = '';
  const get = async (): Promise<TaskView> => {
    const answer = await client.request({ method: 'tasks/get', params: { taskId } }, Loose, {
      signal,
      timeout: timeoutMs,
    });
    if (!isTaskView(answer)) throw new Error(`tasks/get for ${taskId} answered without a task status`);
    return answer;
  };
  for (;;) {
    const line = view.statusMessage ? `${view.status}: ${view.statusMessage}` : view.status;
    if (line !== shown) {
      shown = line;
      options.onProgress?.({ progress: polls, message: `task ${line}` });
    }
    if (view.status === 'completed' || view.status === 'failed' || view.status === 'cancelled')
      ends.finished();
    switch (view.status) {
      case 'completed':
        options.note(`task ${taskId}: completed`);
        return completedResult(view);
      case 'failed':
        throw new Error(`the task failed: ${failureOf(view)}`);
      case 'cancelled':
        throw new Error(
          `the server cancelled the task${view.statusMessage ? `: ${view.statusMessage}` : ''}`,
        );
    }
    const requests = view.status === 'input_required' ? inputRequestsOf(view) : [];
    if (requests.length > 0) {
      if (++inputRounds > MAX_INPUT_ROUNDS) {
        cancel(`asked for input ${MAX_INPUT_ROUNDS} times`);
        throw new SdkError(SdkErrorCode.InputRequiredRoundsExceeded, 'too many rounds of input');
      }
      const responses: Record<string, unknown> = {};
      for (const [key, request] of requests)
        responses[key] = await answer(options, key, request, signal ?? new AbortController().signal);
      await client.request({ method: 'tasks/update', params: { taskId, inputResponses: responses } }, Loose, {
        signal,
        timeout: timeoutMs,
      });
    } else {
      const wait = pollInterval(view);
      if (Date.now() + wait > deadline) {
        cancel(`still ${view.status} at the cap on a whole call`);
        throw new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
          maxTotalTimeout: options.maxTotalMs,
        });
      }
      await delay(wait, undefined, { signal, ref: true });
    }
    polls++;
    view = await get();
  }
}

function pollInterval(view: TaskView): number {
  const asked = view.pollIntervalMs;
  if (typeof asked !== 'number' || !Number.isFinite(asked)) return DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked));
}

function inputRequestsOf(view: TaskView): Array<[string, { method?: unknown; params?: unknown }]> {
  const requests = view.inputRequests;
  if (typeof requests !== 'object' || requests === null) return [];
  return Object.entries(requests as Record<string, { method?: unknown; params?: unknown }>);
}

async function answer(
  options: FollowOptions,
  key: string,
  request: { method?: unknown; params?: unknown },
  signal: AbortSignal,
): Promise<unknown> {
  const method = typeof request?.method === 'string' ? request.method : '(none)';
  if (!options.answerInput) {
    // Nobody to ask here: a form is declined, anything else cannot be given.
    if (method === 'elicitation/create') return { action: 'decline' };
    throw new Error(`the task asked for ${method} (input "${key}"), which cannot be given here`);
  }
  return options.answerInput(method, request.params, signal);
}

function completedResult(view: TaskView): CallToolResult {
  const checked = specTypeSchemas.CallToolResult['~standard'].validate(view.result);
  if (checked.issues) {
    const first = checked.issues[0];
    throw new Error(`the task completed with a malformed result: ${first?.message ?? 'invalid'}`);
  }
  return checked.value as CallToolResult;
}

function failureOf(view: TaskView): string {
  const error = view.error as { code?: unknown; message?: unknown } | undefined;
  if (error && typeof error.message === 'string')
    return typeof error.code === 'number' ? `${error.message} (${error.code})` : error.message;
  return view.statusMessage ?? 'no reason given';
}
