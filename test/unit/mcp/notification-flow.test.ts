/**
 * NotificationFlow's rules, message by message on a fake clock: progress at most every interval,
 * the latest value winning and delivered before its response; progress for tokens none of our
 * requests carries dropped; log messages past the rate queued (bounded) or dropped, every one
 * accounted for; what is held on close passed on.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationFlow, quickNotification } from '../../../src/mcp/notification-flow.js';

let delivered: JSONRPCMessage[];
let flow: NotificationFlow;

beforeEach(() => {
  vi.useFakeTimers();
  delivered = [];
  flow = new NotificationFlow(
    (message) => delivered.push(message),
    undefined,
    () => Date.now(),
  );
});

afterEach(() => {
  flow.close();
  vi.useRealTimers();
});

const request = (id: number, token?: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 't', ...(token === undefined ? {} : { _meta: { progressToken: token } }) },
});
const progress = (token: number, value: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: value },
});
const log = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: `n=${n}` },
});
const response = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [] } });
/** A delivered log message's text. */
const data = (message: JSONRPCMessage | undefined): string =>
  String((message as { params?: { data?: unknown } } | undefined)?.params?.data);
const values = () =>
  delivered.map((m) =>
    'method' in m && m.method === 'notifications/progress' ? (m.params as { progress: number }).progress : m,
  );

describe('NotificationFlow', () => {
  it('passes progress at most every 100 ms, the latest winning, and the latest before the response', async () => {
    flow.sent(request(1, 1));
    for (let i = 1; i <= 1000; i++) flow.received(progress(1, i));
    expect(values()).toEqual([1]);
    expect(flow.held).toBe(1);
    vi.advanceTimersByTime(100);
    expect(values()).toEqual([1, 1000]);
    for (let i = 1001; i <= 2000; i++) flow.received(progress(1, i));
    flow.received(response(1));
    // The response waits one microtask behind the progress it follows (the SDK's order).
    expect(values()).toEqual([1, 1000, 2000]);
    await Promise.resolve();
    expect(values()).toEqual([1, 1000, 2000, response(1)]);
    flow.received(progress(1, 2001));
    vi.advanceTimersByTime(1000);
    expect(delivered).toHaveLength(4);
    expect(flow.held).toBe(0);
  });

  it('drops progress for a token none of our requests carries, or one that was cancelled', () => {
    flow.received(progress(7, 1));
    flow.sent(request(2, 2));
    flow.sent({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    flow.received(progress(2, 1));
    expect(delivered).toEqual([]);
  });

  it('passes 100 log messages per 100 ms, queues 100 more, drops and counts the rest', () => {
    for (let n = 1; n <= 20_000; n++) flow.received(log(n));
    expect(delivered).toHaveLength(100);
    expect(flow.held).toBe(100);
    expect(flow.dropped).toBe(19_800);
    vi.advanceTimersByTime(100);
    expect(delivered).toHaveLength(201);
    expect(delivered.at(-1)).toMatchObject({
      method: 'notifications/message',
      params: {
        level: 'warning',
        logger: 'geekagent',
        data: expect.stringMatching(/^… 19800 log messages dropped/),
      },
    });
    const passed = delivered.filter((m) => /^n=/.test(data(m)));
    expect(passed.map((m) => Number(data(m).slice(2)))).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // Quiet again: the next message passes at once.
    vi.advanceTimersByTime(100);
    flow.received(log(20_001));
    expect(delivered).toHaveLength(202);
  });

  it('passes other messages straight through, in order', () => {
    const other: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    flow.received(other);
    flow.received(response(9));
    expect(delivered).toEqual([other, response(9)]);
  });

  it('on close, passes the queued log messages and the drop count on', () => {
    for (let n = 1; n <= 500; n++) flow.received(log(n));
    flow.close();
    expect(delivered).toHaveLength(201);
    expect(data(delivered.at(-1))).toMatch(/^… 300 log/);
  });

  it('reads progress and log lines without schema validation, anything else not at all', () => {
    expect(quickNotification(JSON.stringify(log(1)))).toEqual(log(1));
    expect(quickNotification(JSON.stringify(progress(1, 2)))).toEqual(progress(1, 2));
    // A response that merely mentions the method is not a notification.
    expect(
      quickNotification(
        JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: '"notifications/message"' } }),
      ),
    ).toBeUndefined();
    expect(quickNotification('{"method":"notifications/message"')).toBeUndefined();
  });

  it('leaves a long line to the validated path without searching it', () => {
    const big = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'x'.repeat(70_000) },
    };
    expect(quickNotification(JSON.stringify(big))).toBeUndefined();
    const small = { ...big, params: { level: 'info', data: 'x'.repeat(60_000) } };
    expect(quickNotification(JSON.stringify(small))).toEqual(small);
  });
});
