/**
 * Grants that need no person: client credentials (a secret, or a private-key JWT — the SDK's
 * providers) and cross-app access (SEP-990: trade an enterprise IdP's ID token for an ID-JAG
 * grant, then the ID-JAG for an access token with the jwt-bearer grant).
 */

import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../oauth-settings.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A provider for a machine grant, or undefined when the settings ask for a browser login. */
export function machineProvider(
  server: string,
  settings: OAuthSettings | undefined,
): OAuthClientProvider | undefined {
  if (!settings?.grant || settings.grant === 'authorization_code') return undefined;
  const clientId = required(server, settings.clientId, 'oauth.clientId');
  const scope = settings.scopes?.join(' ') || undefined;
  if (settings.grant === 'client_credentials') {
    if (settings.privateKey) {
      return new PrivateKeyJwtProvider({
        clientId,
        privateKey: settings.privateKey,
        algorithm: settings.signingAlgorithm ?? 'ES256',
        clientName: 'GeekAgent',
        scope,
      });
    }
    return new ClientCredentialsProvider({
      clientId,
      clientSecret: required(server, settings.clientSecret, 'oauth.clientSecret'),
      clientName: 'GeekAgent',
      scope,
    });
  }
  return new CrossAppAccessProvider(
    server,
    clientId,
    required(server, settings.clientSecret, 'oauth.clientSecret'),
    {
      ...required(server, settings.idp, 'oauth.idp'),
    },
  );
}

function required<T>(server: string, value: T | undefined, key: string): T {
  if (value === undefined || value === '')
    throw new Error(`server ${server}: ${key} is required for this oauth.grant`);
  return value;
}

class CrossAppAccessProvider implements OAuthClientProvider {
  private tokenValue: OAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    private readonly server: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly idp: { tokenEndpoint: string; clientId: string; idToken: string },
  ) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'GeekAgent',
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    return {
      client_id: this.clientId,
      client_secret: this.clientSecret,
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }

  tokens(): OAuthTokens | undefined {
    return this.tokenValue;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.tokenValue = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error(`server ${this.server} uses cross-app access; there is no browser login`);
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('cross-app access uses no PKCE verifier');
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** Step 1 at the IdP (RFC 8693 token exchange → ID-JAG), step 2 is the request returned here. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const issuer =
      this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
    const resource = this.discovery?.resourceMetadata?.resource;
    if (!issuer || !resource)
      throw new Error(`server ${this.server}: discovery did not name the authorization server`);
    const exchange = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: issuer,
      resource,
      subject_token: this.idp.idToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: this.idp.clientId,
      ...(scope ? { scope } : {}),
    });
    const response = await fetch(this.idp.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: exchange,
    });
    if (!response.ok)
      throw new Error(`IdP token exchange failed: HTTP ${response.status}: ${await response.text()}`);
    const { access_token: grant } = (await response.json()) as { access_token?: string };
    if (!grant) throw new Error('IdP token exchange returned no ID-JAG');
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion: grant, ...(scope ? { scope } : {}) });
  }
}
