/**
 * Transports for remote servers: Streamable HTTP (with the SDK's resumption — Last-Event-ID and
 * the server's `retry`), legacy SSE, and OAuth on both. An `http` entry whose server answers the
 * way only an SSE server does is retried over SSE by the connection (see `fallback`).
 */
import { createHash } from 'node:crypto';
import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { machineProvider } from './auth/machine.js';
import { createOAuthFetch } from './auth/oauth-fetch.js';
import type { AuthorizationPrompter } from './auth/prompters.js';
import { GeekAgentOAuthProvider } from './auth/provider.js';
import { TokenStore } from './auth/token-store.js';
import type { RemoteDefinition } from './config.js';
import type { OpenedTransport } from './opened-transport.js';

export interface RemoteOptions {
  /** `~/.geekagent/auth` */
  authDir: string;
  /** Present where a login may happen now; background connects have none (→ needs_auth). */
  prompter?: AuthorizationPrompter;
}

/** The redirect port is stable per server, so a dynamic registration stays valid across runs. */
export function callbackPort(definition: RemoteDefinition): number {
  if (definition.oauth?.callbackPort) return definition.oauth.callbackPort;
  const hash = createHash('sha256').update(`${definition.name}\0${definition.url}`).digest().readUInt16BE(0);
  return 49152 + (hash % 16000);
}

export function tokenStoreFor(definition: RemoteDefinition, authDir: string): TokenStore {
  return new TokenStore(authDir, definition.name, definition.url);
}

interface RemoteAuth {
  fetch?: FetchLike;
  authProvider?: OAuthClientProvider;
}

function remoteAuth(definition: RemoteDefinition, options: RemoteOptions): RemoteAuth {
  // Machine grants need no person: the SDK's own 401 handling gets their tokens.
  const machine = machineProvider(definition.name, definition.oauth);
  if (machine) return { authProvider: machine };
  const serverUrl = new URL(definition.url);
  const provider = new GeekAgentOAuthProvider({
    server: definition.name,
    serverUrl: definition.url,
    settings: definition.oauth,
    store: tokenStoreFor(definition, options.authDir),
    redirectUrl: `http://127.0.0.1:${callbackPort(definition)}/callback`,
  });
  return {
    fetch: createOAuthFetch({ server: definition.name, serverUrl, provider, prompter: options.prompter }),
  };
}

export function openRemoteTransport(definition: RemoteDefinition, options: RemoteOptions): OpenedTransport {
  const url = new URL(definition.url);
  const requestInit: RequestInit = { headers: definition.headers };
  const sse = (): OpenedTransport => {
    const auth = remoteAuth(definition, options);
    return {
      transport: new SSEClientTransport(url, { ...auth, requestInit }),
      exitReason: () => undefined,
    };
  };
  if (definition.transport === 'sse') return sse();
  const auth = remoteAuth(definition, options);
  return {
    transport: new StreamableHTTPClientTransport(url, {
      ...auth,
      requestInit,
      reconnectionOptions: {
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 30_000,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 5,
      },
    }),
    exitReason: () => undefined,
    fallback: sse,
  };
}
