/**
 * What opening a server's transport gives the connection: the transport, why its process went
 * away, and an `http` entry's SSE fallback. A leaf that transports.ts and remote-transport.ts
 * both build (transports.ts re-exports it for the connection's modules).
 */
import type { Transport } from '@modelcontextprotocol/client';

export interface OpenedTransport {
  transport: Transport;
  /** Why the server went away, when the transport knows (a process exit). */
  exitReason(): string | undefined;
  /** For `http` entries: legacy SSE, tried when the server answers like an SSE-only server. */
  fallback?: () => OpenedTransport;
}
