/**
 * GeekAgent's OAuthClientProvider for the SDK's auth flow: client registration (a client ID
 * metadata document where the authorization server supports one — the SDK prefers it —, else
 * dynamic registration as a `native` application, or pre-registered), kept per authorization
 * server issuer, so a server that moves to another authorization server gets a new registration
 * and login (the SDK passes the issuer, and ignores tokens stamped with another one); PKCE state,
 * tokens in the per-server TokenStore, and refresh shortly before expiry under the store's lock.
 * The redirect to the authorization page is recorded here; who follows it (browser, paste-back, a
 * test) is the login's business.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthTokens,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import {
  discoverAuthorizationServerMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  refreshAuthorization,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../oauth-settings.js';
import { expiresSoon, type StoredAuth, type TokenStore } from './token-store.js';

/** Refresh this long before the access token expires — at most half its lifetime. */
const REFRESH_MARGIN_MS = 60_000;

function refreshMargin(tokens: OAuthTokens): number {
  return tokens.expires_in === undefined
    ? REFRESH_MARGIN_MS
    : Math.min(REFRESH_MARGIN_MS, (tokens.expires_in * 1000) / 2);
}

export interface ProviderOptions {
  server: string;
  serverUrl: string;
  settings: OAuthSettings | undefined;
  store: TokenStore;
  /** `http://127.0.0.1:<port>/callback` */
  redirectUrl: string;
  clientName?: string;
}

export class GeekAgentOAuthProvider implements OAuthClientProvider {
  /** The authorization page the SDK asked us to send the person to, if it did. */
  pendingAuthorization: URL | undefined;
  readonly clientMetadataUrl: string | undefined;
  private lastState: string | undefined;
  private cache: StoredAuth | undefined;

  constructor(private readonly options: ProviderOptions) {
    this.clientMetadataUrl = options.settings?.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get expectedState(): string | undefined {
    return this.lastState;
  }

  get clientMetadata(): OAuthClientMetadata {
    const settings = this.options.settings;
    return {
      client_name: this.options.clientName ?? 'GeekAgent',
      // A CLI on the person's machine with a loopback redirect (RFC 8252), said outright.
      application_type: 'native',
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: settings?.clientSecret ? 'client_secret_basic' : 'none',
      ...(settings?.scopes?.length ? { scope: settings.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  /**
   * The registration at the authorization server `ctx.issuer` names (without one: the issuer of
   * the stored tokens). A registration for another redirect URI (another port) cannot be reused.
   */
  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const settings = this.options.settings;
    if (settings?.clientId) {
      return {
        client_id: settings.clientId,
        ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
        // Pre-registered for whichever authorization server the entry points at.
        ...(ctx ? { issuer: ctx.issuer } : {}),
      };
    }
    const stored = await this.stored();
    const issuer = ctx?.issuer ?? stored.tokens?.issuer;
    const client = issuer === undefined ? undefined : stored.clients?.[issuer];
    if (client) return client.redirectUrl === this.options.redirectUrl ? client.information : undefined;
    // From before issuers were recorded: the SDK stamps it with the current issuer (saved below).
    if (stored.redirectUrl && stored.redirectUrl !== this.options.redirectUrl) return undefined;
    return stored.clientInformation;
  }

  async saveClientInformation(
    information: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    const issuer = information.issuer ?? ctx?.issuer;
    const redirectUrl = this.options.redirectUrl;
    await this.save((current) => {
      if (issuer === undefined) return { ...current, clientInformation: information, redirectUrl };
      const { clientInformation: _old, redirectUrl: _oldRedirect, ...rest } = current;
      return { ...rest, clients: { ...current.clients, [issuer]: { information, redirectUrl } } };
    });
  }

  /** The tokens of the last login or refresh, whichever issuer they are from (the SDK checks it). */
  async tokens(): Promise<StoredOAuthTokens | undefined> {
    const stored = await this.stored();
    const tokens = stored.tokens;
    if (!tokens?.refresh_token || !expiresSoon(tokens, stored.tokensSavedAt, refreshMargin(tokens))) {
      return tokens;
    }
    return (await this.refreshSoonExpiring(tokens.access_token).catch(() => undefined)) ?? tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.save((current) => ({ ...current, tokens, tokensSavedAt: Date.now() }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.pendingAuthorization = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.save((current) => ({ ...current, codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.stored()).codeVerifier;
    if (!verifier)
      throw new Error(`no PKCE code verifier saved for ${this.options.server}; start the login again`);
    return verifier;
  }

  async saveDiscoveryState(discoveryState: OAuthDiscoveryState): Promise<void> {
    await this.save((current) => ({ ...current, discoveryState }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.stored()).discoveryState;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.save((current) => {
      if (scope === 'all') return { serverUrl: current.serverUrl };
      const next = { ...current };
      if (scope === 'client') {
        delete next.clientInformation;
        delete next.clients;
      }
      if (scope === 'tokens') {
        delete next.tokens;
        delete next.tokensSavedAt;
      }
      if (scope === 'verifier') delete next.codeVerifier;
      if (scope === 'discovery') delete next.discoveryState;
      return next;
    });
  }

  /** Whether a login has left usable tokens. */
  async hasTokens(): Promise<boolean> {
    return (await this.stored()).tokens !== undefined;
  }

  /**
   * Refresh under the lock; whoever holds it second finds fresh tokens already saved by the
   * first (another agent, or a parallel request of ours) and uses those instead.
   */
  private async refreshSoonExpiring(seenAccessToken: string): Promise<OAuthTokens | undefined> {
    const { store } = this.options;
    return store.withLock(async () => {
      this.cache = undefined;
      const current = await this.stored();
      const tokens = current.tokens;
      if (!tokens?.refresh_token) return tokens;
      // Someone refreshed while we waited for the lock: theirs is the token to use.
      if (tokens.access_token !== seenAccessToken) return tokens;
      const clientInformation = await this.clientInformation();
      const discovery = current.discoveryState;
      if (!clientInformation || !discovery) return tokens;
      const metadata =
        discovery.authorizationServerMetadata ??
        (await discoverAuthorizationServerMetadata(discovery.authorizationServerUrl));
      const refreshed = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata,
        clientInformation,
        refreshToken: tokens.refresh_token,
        ...(discovery.resourceMetadata?.resource
          ? { resource: new URL(discovery.resourceMetadata.resource) }
          : {}),
      });
      // Same authorization server as the tokens refreshed: the stamp carries over.
      const stamped = tokens.issuer === undefined ? refreshed : { ...refreshed, issuer: tokens.issuer };
      await this.saveTokens(stamped);
      return stamped;
    });
  }

  private async stored(): Promise<StoredAuth> {
    this.cache ??= await this.options.store.read();
    return this.cache;
  }

  private async save(change: (current: StoredAuth) => StoredAuth): Promise<void> {
    this.cache = await this.options.store.update(change);
  }
}
