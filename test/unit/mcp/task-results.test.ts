/**
 * Where a task handle comes from (src/mcp/tasks/task-results.ts), over the SDK's real in-memory
 * transport pair, the server side written at the JSON-RPC level (the SDK has no tasks runtime): a
 * `resultType: "task"` answer to our `tools/call` becomes a complete result carrying the handle;
 * our key in any other answer is removed, so a server cannot pass a made-up handle off as a task.
 */
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { TASK_HANDLE_KEY, TaskResultTransport, taskHandleOf } from '../../../src/mcp/tasks/task-results.js';

/** Sends one request through the wrapper and answers it with `result`; resolves with what the SDK would see. */
async function answer(method: string, result: Record<string, unknown>): Promise<JSONRPCMessage> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const wrapped = new TaskResultTransport(client);
  const seen = new Promise<JSONRPCMessage>((resolve) => {
    wrapped.onmessage = (message) => resolve(message);
  });
  server.onmessage = (message) => {
    if ('id' in message) void server.send({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage);
  };
  await server.start();
  await wrapped.start();
  await wrapped.send({ jsonrpc: '2.0', id: 7, method, params: { name: 'slow' } } as JSONRPCMessage);
  const message = await seen;
  await wrapped.close();
  return message;
}

const resultOf = (message: JSONRPCMessage) => (message as { result: Record<string, unknown> }).result;

describe('TaskResultTransport', () => {
  it('a task answer to tools/call becomes a complete result carrying the handle', async () => {
    const message = await answer('tools/call', {
      resultType: 'task',
      taskId: 'task-1',
      status: 'working',
      pollIntervalMs: 10,
      content: [],
    });
    expect(resultOf(message)).toMatchObject({ resultType: 'complete', content: [] });
    expect(taskHandleOf(resultOf(message))).toEqual({
      taskId: 'task-1',
      status: 'working',
      pollIntervalMs: 10,
    });
  });

  it('our key in an ordinary answer is removed: no made-up task', async () => {
    const forged = { [TASK_HANDLE_KEY]: { taskId: 'x', status: 'working' }, other: 1 };
    const message = await answer('tools/call', { resultType: 'complete', content: [], _meta: forged });
    expect(taskHandleOf(resultOf(message))).toBeUndefined();
    expect(resultOf(message)._meta).toEqual({ other: 1 });
  });

  it('answers to other requests pass untouched', async () => {
    const result = { resultType: 'task', taskId: 'task-2', status: 'working' };
    expect(resultOf(await answer('prompts/get', result))).toEqual(result);
  });
});
