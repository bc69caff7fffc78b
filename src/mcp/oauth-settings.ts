/**
 * A remote server's OAuth settings, and its entry's `oauth` block read into them with `${VAR}`
 * expanded in every value (secrets live in the environment).
 */
import type { RemoteEntry } from './config-schema.js';

export interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  callbackPort?: number;
  clientMetadataUrl?: string;
  grant?: 'authorization_code' | 'client_credentials' | 'cross_app_access';
  privateKey?: string;
  signingAlgorithm?: string;
  idp?: { tokenEndpoint: string; clientId: string; idToken: string };
}

export function expandOAuth(
  oauth: NonNullable<RemoteEntry['oauth']>,
  expand: (value: string, ...where: Array<string | number>) => string,
): OAuthSettings {
  const text = (value: string | undefined, ...where: string[]) =>
    value === undefined ? undefined : expand(value, 'oauth', ...where);
  const settings: OAuthSettings = { ...oauth };
  for (const key of [
    'clientId',
    'clientSecret',
    'clientMetadataUrl',
    'privateKey',
    'signingAlgorithm',
  ] as const) {
    const value = text(oauth[key], key);
    if (value !== undefined) settings[key] = value;
  }
  if (oauth.scopes)
    settings.scopes = oauth.scopes.map((scope, index) => expand(scope, 'oauth', 'scopes', index));
  if (oauth.idp) {
    settings.idp = {
      tokenEndpoint: expand(oauth.idp.tokenEndpoint, 'oauth', 'idp', 'tokenEndpoint'),
      clientId: expand(oauth.idp.clientId, 'oauth', 'idp', 'clientId'),
      idToken: expand(oauth.idp.idToken, 'oauth', 'idp', 'idToken'),
    };
  }
  return settings;
}
