/**
 * GeekAgent's OAuthClientProvider for the SDK's auth flow: client registration (dynamic, a client
 * ID metadata document, or pre-registered), PKCE state, tokens in the per-server TokenStore, and
 * refresh shortly before expiry under the store's lock. The redirect to the authorization page is
 * recorded here; who follows it (browser, paste-back, a test) is the login's business.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import {
  discoverAuthorizationServerMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  refreshAuthorization,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../config.js';
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

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const settings = this.options.settings;
    if (settings?.clientId) {
      return {
        client_id: settings.clientId,
        ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
      };
    }
    const stored = await this.stored();
    // A registration made for another redirect URI (another port) cannot be reused.
    if (stored.redirectUrl && stored.redirectUrl !== this.options.redirectUrl) return undefined;
    return stored.clientInformation;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    await this.save((current) => ({ ...current, clientInformation, redirectUrl: this.options.redirectUrl }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.stored();
    const tokens = stored.tokens;
    if (!tokens?.refresh_token || !expiresSoon(tokens, stored.tokensSavedAt, refreshMargin(tokens))) {
      return tokens;
    }
    return (await this.refreshSoonExpiring(tokens.access_token).catch(() => undefined)) ?? tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
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
      if (scope === 'client') delete next.clientInformation;
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
      await this.saveTokens(refreshed);
      return refreshed;
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
