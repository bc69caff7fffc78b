/**
 * Notifications a server can send in floods — progress and log messages — are coalesced between
 * the transport and the SDK, so a flooding server costs little per message, cannot grow our memory
 * and never stalls a call:
 * - progress for a request reaches the SDK (and the face) at most every 100 ms, the latest value
 *   winning; the latest is always delivered before the request's response; progress for a token
 *   none of our requests carries is dropped;
 * - log messages pass at most 100 per 100 ms; past that they queue (at most 100) for the next
 *   window, and the rest are dropped and counted: `… N log messages dropped` goes to the log.
 * Everything else passes straight through, in order.
 */
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '@modelcontextprotocol/client';
import { SteadyMap } from '../util/steady-map.js';
import { WrappedTransport } from './wrapped-transport.js';

const PROGRESS = 'notifications/progress';
const LOG = 'notifications/message';
/** Longer lines take the validated path (see quickNotification). */
const QUICK_LINE_MAX = 64 * 1024;

export interface FlowLimits {
  /** Least time between two progress notifications of one request. */
  progressIntervalMs: number;
  /** Log messages passed per window, and queued for the next one; more are dropped. */
  logsPerWindow: number;
  logWindowMs: number;
}

export const DEFAULT_FLOW_LIMITS: FlowLimits = {
  progressIntervalMs: 100,
  logsPerWindow: 100,
  logWindowMs: 100,
};

type Deliver = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
type Token = string | number;

interface ProgressState {
  requestId: RequestId;
  lastAt: number;
  pending?: { message: JSONRPCMessage; extra?: MessageExtraInfo };
  timer?: NodeJS.Timeout;
}

/** The coalescing itself, fed every incoming message and told of every outgoing one. */
export class NotificationFlow {
  // Steady: at one call at a time, each request would empty both maps as it ends.
  private readonly progress = new SteadyMap<Token, ProgressState>();
  private readonly tokenOf = new SteadyMap<RequestId, Token>();
  private windowStart = 0;
  private passedInWindow = 0;
  private logQueue: Array<{ message: JSONRPCMessage; extra?: MessageExtraInfo }> = [];
  private logTimer: NodeJS.Timeout | undefined;
  private droppedLogs = 0;
  private reportedLogs = 0;
  /** Messages waiting one microtask behind a response (see received). */
  private deferred: Array<{ message: JSONRPCMessage; extra?: MessageExtraInfo }> | undefined;

  constructor(
    private readonly deliver: Deliver,
    private readonly limits: FlowLimits = DEFAULT_FLOW_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Log messages dropped so far (each also reported in the log itself). */
  get dropped(): number {
    return this.droppedLogs;
  }

  /** Messages held back right now: bounded by the limits, whatever the server sends. */
  get held(): number {
    let pending = 0;
    for (const state of this.progress.values()) if (state.pending) pending++;
    return this.logQueue.length + pending;
  }

  /** An outgoing message: requests that ask for progress, and our cancellations. */
  sent(message: JSONRPCMessage): void {
    if ('id' in message && 'method' in message) {
      const token = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
      if (typeof token === 'string' || typeof token === 'number') {
        this.progress.set(token, { requestId: message.id, lastAt: -Infinity });
        this.tokenOf.set(message.id, token);
      }
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.forget(id, false);
    }
  }

  received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.deferred) {
      this.deferred.push({ message, extra });
    } else if ('method' in message && !('id' in message) && message.method === PROGRESS) {
      this.onProgress(message, extra);
    } else if ('method' in message && !('id' in message) && message.method === LOG) {
      this.onLog(message, extra);
    } else if (
      !('method' in message) &&
      'id' in message &&
      message.id !== undefined &&
      this.forget(message.id, true)
    ) {
      // A response after its request's latest progress was just passed on. The SDK runs a
      // progress handler a microtask later, but forgets the request's handler the moment its
      // response arrives: the response (and whatever follows) waits that microtask.
      this.deferred = [{ message, extra }];
      queueMicrotask(() => {
        const deferred = this.deferred ?? [];
        this.deferred = undefined;
        for (const item of deferred) this.received(item.message, item.extra);
      });
    } else {
      this.deliver(message, extra);
    }
  }

  /** The connection is going: held log messages and the drop count are passed on, progress dropped. */
  close(): void {
    for (const state of this.progress.values()) clearTimeout(state.timer);
    this.progress.clear();
    this.tokenOf.clear();
    if (this.logTimer) this.drainLogs();
    clearTimeout(this.logTimer);
    this.logTimer = undefined;
  }

  private onProgress(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const token = (message as { params?: { progressToken?: unknown } }).params?.progressToken;
    const state =
      typeof token === 'string' || typeof token === 'number' ? this.progress.get(token) : undefined;
    if (!state) return; // not for any request of ours (or for one that has ended)
    const wait = state.lastAt + this.limits.progressIntervalMs - this.now();
    if (wait <= 0 && !state.pending) {
      state.lastAt = this.now();
      this.deliver(message, extra);
      return;
    }
    state.pending = { message, extra };
    state.timer ??= setTimeout(() => this.flushProgress(state), Math.max(0, wait)).unref();
  }

  private flushProgress(state: ProgressState): void {
    clearTimeout(state.timer);
    state.timer = undefined;
    const pending = state.pending;
    if (!pending) return;
    state.pending = undefined;
    state.lastAt = this.now();
    this.deliver(pending.message, pending.extra);
  }

  /** Stops following a request's progress; true when its held latest progress was passed on. */
  private forget(requestId: RequestId, flush: boolean): boolean {
    const token = this.tokenOf.get(requestId);
    if (token === undefined) return false;
    this.tokenOf.delete(requestId);
    const state = this.progress.get(token);
    if (!state) return false;
    const flushed = flush && state.pending !== undefined;
    if (flushed) this.flushProgress(state);
    clearTimeout(state.timer);
    this.progress.delete(token);
    return flushed;
  }

  private onLog(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const now = this.now();
    if (now - this.windowStart >= this.limits.logWindowMs && this.logQueue.length === 0) {
      this.windowStart = now;
      this.passedInWindow = 0;
    }
    if (this.logQueue.length === 0 && this.passedInWindow < this.limits.logsPerWindow) {
      this.passedInWindow++;
      this.deliver(message, extra);
      return;
    }
    if (this.logQueue.length < this.limits.logsPerWindow) this.logQueue.push({ message, extra });
    else this.droppedLogs++;
    this.logTimer ??= setTimeout(
      () => this.drainLogs(),
      Math.max(0, this.windowStart + this.limits.logWindowMs - now),
    ).unref();
  }

  /** A new window: the queued messages pass (they are its share), then the drop count. */
  private drainLogs(): void {
    clearTimeout(this.logTimer);
    this.logTimer = undefined;
    this.windowStart = this.now();
    const queued = this.logQueue;
    this.logQueue = [];
    this.passedInWindow = queued.length;
    for (const { message, extra } of queued) this.deliver(message, extra);
    const dropped = this.droppedLogs - this.reportedLogs;
    if (dropped > 0) {
      this.reportedLogs = this.droppedLogs;
      this.deliver(droppedNote(dropped));
    }
  }
}

function droppedNote(count: number): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    method: LOG,
    params: {
      level: 'warning',
      logger: 'geekagent',
      data: `… ${count} log messages dropped (the server sent them faster than they can be kept)`,
    },
  };
}

/** Told of every message, either way, before the flow sees it (probe-watch.ts). */
export interface MessageWatch {
  sent(message: JSONRPCMessage): void;
  received(message: JSONRPCMessage): void;
}

/** The transport the SDK client gets: `inner`, with its incoming notifications coalesced. */
export class CoalescingTransport extends WrappedTransport {
  private readonly flow: NotificationFlow;

  constructor(
    inner: Transport,
    limits: FlowLimits = DEFAULT_FLOW_LIMITS,
    private readonly watch?: MessageWatch,
  ) {
    super(inner);
    this.flow = new NotificationFlow((message, extra) => this.onmessage?.(message, extra), limits);
  }

  protected override deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.watch?.received(message);
    this.flow.received(message, extra);
  }

  protected override sending(message: JSONRPCMessage): void {
    this.watch?.sent(message);
    this.flow.sent(message);
  }

  protected override ending(): void {
    this.flow.close();
  }
}

/**
 * A progress or log notification, read from a raw line without the SDK's schema validation (the
 * costly part of a flood; what is delivered is validated by the SDK's handler for it). Undefined
 * for anything else, which takes the normal, validated path. A flood is of small messages: a long
 * line (a big result, mostly) is not searched for the two method names (bench row 6).
 */
export function quickNotification(line: string): JSONRPCMessage | undefined {
  if (line.length > QUICK_LINE_MAX) return undefined;
  if (!line.includes(`"${PROGRESS}"`) && !line.includes(`"${LOG}"`)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0' || 'id' in message) return undefined;
  if (message.method !== PROGRESS && message.method !== LOG) return undefined;
  if (typeof message.params !== 'object' || message.params === null) return undefined;
  return message as unknown as JSONRPCMessage;
}
