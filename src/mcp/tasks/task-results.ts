/**
 * Where a task handle comes from. With the tasks extension (`io.modelcontextprotocol/tasks`) a
 * 2026 server may answer `tools/call` with `resultType: "task"` — a handle to poll — which SDK
 * 2.4.0's client refuses (UNSUPPORTED_RESULT_TYPE) before anyone sees it. This transport, between
 * ours and the SDK, turns such an answer to one of our `tools/call` requests into a complete, empty
 * result whose `_meta` carries the handle under TASK_HANDLE_KEY; `run-task.ts` then polls it. That
 * key in any other answer is removed, so only a real task handle ever carries it. Everything else
 * passes through untouched.
 */
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/client';
import { WrappedTransport } from '../wrapped-transport.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Our own `_meta` key: never sent, set only by this transport. */
export const TASK_HANDLE_KEY = 'geekagent.dev/task';

/** What a task handle (a CreateTaskResult, or a `tasks/get` answer) says about the task. */
export interface TaskView {
  taskId: string;
  status: string;
  statusMessage?: string;
  pollIntervalMs?: number;
  [key: string]: unknown;
}

/** The task handle a `tools/call` result carries, if it became a task. */
export function taskHandleOf(result: unknown): TaskView | undefined {
  const meta = (result as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const handle = meta?.[TASK_HANDLE_KEY];
  return isTaskView(handle) ? handle : undefined;
}

export function isTaskView(value: unknown): value is TaskView {
  if (typeof value !== 'object' || value === null) return false;
  const view = value as Record<string, unknown>;
  return typeof view.taskId === 'string' && typeof view.status === 'string';
}

export class TaskResultTransport extends WrappedTransport {
  /** Our `tools/call` requests still waiting for their answer. */
  private readonly calls = new Set<RequestId>();

  protected override deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(this.received(message), extra);
  }

  protected override sending(message: JSONRPCMessage): void {
    if ('id' in message && 'method' in message && message.method === 'tools/call') this.calls.add(message.id);
  }

  protected override ending(): void {
    this.calls.clear();
  }

  private received(message: JSONRPCMessage): JSONRPCMessage {
    if (!('id' in message) || 'method' in message || message.id === undefined) return message;
    if (!this.calls.delete(message.id) || !('result' in message)) return message;
    const result = message.result as Record<string, unknown>;
    const meta = result._meta as Record<string, unknown> | undefined;
    if (result.resultType === 'task') {
      const { resultType: _type, content: _content, _meta: _dropped, ...task } = result;
      if (!isTaskView(task)) return message; // not a usable handle: the SDK refuses it as before
      return {
        ...message,
        result: { resultType: 'complete', content: [], _meta: { [TASK_HANDLE_KEY]: task } },
      };
    }
    if (meta && TASK_HANDLE_KEY in meta) {
      const { [TASK_HANDLE_KEY]: _forged, ...rest } = meta;
      return { ...message, result: { ...result, _meta: rest } };
    }
    return message;
  }
}
