/**
 * A transport between ours and the SDK client that sees every message and passes it on: the one
 * shape of the wrappers that change what passes (notification-flow.ts coalesces floods,
 * tasks/task-results.ts turns task answers into handles). A wrapper overrides what it needs —
 * `deliver` an incoming message, `sending` an outgoing one, `ending` at close — and the base keeps
 * the rest of the Transport contract: errors and close pass up, `sessionId` and the protocol
 * version pass down, and a stdio transport's wrapper still looks like stdio to the SDK.
 */
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';

export abstract class WrappedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** A 2026 HTTP connection cancels a request by closing its stream: the SDK asks the transport. */
  readonly hasPerRequestStream?: boolean;

  constructor(protected readonly inner: Transport) {
    if (inner.hasPerRequestStream) this.hasPerRequestStream = true;
    // The SDK tells stdio (a silent server/discover probe means a 2025 server) from HTTP (silence
    // is an outage) by these two members: a stdio transport's wrapper has them too.
    if ('pid' in inner && 'stderr' in inner) {
      Object.defineProperty(this, 'pid', { get: () => (inner as { pid?: unknown }).pid });
      Object.defineProperty(this, 'stderr', { get: () => null });
    }
    inner.onmessage = (message, extra) => this.deliver(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.ending();
      this.onclose?.();
    };
  }

  /** An incoming message: passed on as it is unless a wrapper changes that. */
  protected deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** An outgoing message, before the inner transport sends it. */
  protected sending(_message: JSONRPCMessage): void {}

  /** The connection ends (closed by us or by the other side): drop what is kept per request. */
  protected ending(): void {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sending(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    this.ending();
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
