/**
 * The OAuth layer of a remote server's HTTP traffic: adds the bearer token, and on 401 (or 403
 * `insufficient_scope`, scope step-up) runs the SDK's auth flow and retries the request. When the
 * flow needs a person (a browser login) and none is available, it fails with NeedsLoginError and
 * the server's status becomes needs_auth. Step-up gives up after a bounded number of attempts, or
 * at once when the server repeats the same challenge. A 401 that comes back after an authorization
 * that succeeded drops the cached discovery: the server may name another authorization server
 * now (its credentials are keyed by issuer, and a new issuer means a new registration and login).
 * The SDK checks issuers (RFC 8414, RFC 9207 `iss`); issuer-errors.ts words its refusals.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { issuerRefusal } from './issuer-errors.js';
import type { AuthorizationPrompter } from './prompters.js';
import type { GeekAgentOAuthProvider } from './provider.js';

const MAX_AUTH_ATTEMPTS = 3;

export class NeedsLoginError extends UnauthorizedError {
  constructor(readonly server: string) {
    super(`${server} needs a login: run geekagent mcp login ${server}`);
  }
}

export interface OAuthFetchOptions {
  server: string;
  serverUrl: URL;
  provider: OAuthClientProvider;
  /** Present only where a login may happen now (`mcp login`, tests); absent in background connects. */
  prompter?: AuthorizationPrompter;
  baseFetch?: FetchLike;
}

export function createOAuthFetch(options: OAuthFetchOptions): FetchLike {
  const baseFetch = options.baseFetch ?? fetch;
  // Parallel requests that all hit a 401 share one authorization.
  let inFlight: Promise<void> | undefined;

  const send = async (input: string | URL, init: RequestInit | undefined) => {
    const headers = new Headers(init?.headers);
    const tokens = await options.provider.tokens();
    if (tokens) headers.set('authorization', `Bearer ${tokens.access_token}`);
    return baseFetch(input, { ...init, headers });
  };

  return async (input, init) => {
    let response = await send(input, init);
    let lastChallenge: string | null = null;
    for (let attempt = 0; attempt < MAX_AUTH_ATTEMPTS && needsAuthorization(response); attempt++) {
      const challenge = response.headers.get('www-authenticate');
      if (response.status === 403 && challenge === lastChallenge) break;
      lastChallenge = challenge;
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      await response.body?.cancel();
      // Authorized, and refused again: what discovery found before may be what changed.
      if (attempt > 0 && response.status === 401) await options.provider.invalidateCredentials?.('discovery');
      inFlight ??= authorize(options, baseFetch, { resourceMetadataUrl, scope }).finally(() => {
        inFlight = undefined;
      });
      await inFlight;
      response = await send(input, init);
    }
    return response;
  };
}

function needsAuthorization(response: Response): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope';
}

/** One run of the SDK flow: refresh, register, or send the person through the authorization page. */
export async function authorize(
  options: OAuthFetchOptions,
  fetchFn: FetchLike,
  challenge: { resourceMetadataUrl?: URL; scope?: string } = {},
): Promise<void> {
  try {
    await authorizeOnce(options, fetchFn, challenge);
  } catch (error) {
    throw issuerRefusal(options.server, error) ?? error;
  }
}

async function authorizeOnce(
  options: OAuthFetchOptions,
  fetchFn: FetchLike,
  challenge: { resourceMetadataUrl?: URL; scope?: string },
): Promise<void> {
  const { provider, serverUrl } = options;
  const flow = {
    serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope: challenge.scope,
    fetchFn,
    ...(await issuerCheck(provider, serverUrl, challenge.resourceMetadataUrl, fetchFn)),
  };
  if ((await auth(provider, flow)) === 'AUTHORIZED') return;
  const pending = (provider as Partial<GeekAgentOAuthProvider>).pendingAuthorization;
  if (!options.prompter || !pending || !provider.redirectUrl) throw new NeedsLoginError(options.server);
  const response = await options.prompter.obtainCode({
    server: options.server,
    authorizationUrl: pending,
    redirectUrl: new URL(String(provider.redirectUrl)),
    expectedState: (provider as Partial<GeekAgentOAuthProvider>).expectedState,
  });
  // The SDK checks `iss` against the issuer the login went to before it redeems the code.
  const answer = {
    authorizationCode: response.code,
    ...(response.iss === undefined ? {} : { iss: response.iss }),
  };
  if ((await auth(provider, { ...flow, ...answer })) !== 'AUTHORIZED') {
    throw new UnauthorizedError(`the authorization server did not accept the login for ${options.server}`);
  }
}

/**
 * SDK v2 checks that an authorization server's metadata names the issuer it was fetched for
 * (RFC 8414 §3.3). A 2025-03-26 server without protected-resource metadata is its own
 * authorization server, and those often publish another issuer (`…/oauth`): the check is left out
 * for them alone, as before; a server with protected-resource metadata keeps it.
 */
async function issuerCheck(
  provider: OAuthClientProvider,
  serverUrl: URL,
  resourceMetadataUrl: URL | undefined,
  fetchFn: FetchLike,
): Promise<{ skipIssuerMetadataValidation?: true }> {
  if (resourceMetadataUrl || (await provider.discoveryState?.())?.resourceMetadata) return {};
  try {
    await discoverOAuthProtectedResourceMetadata(serverUrl, {}, fetchFn);
    return {};
  } catch {
    return { skipIssuerMetadataValidation: true };
  }
}
