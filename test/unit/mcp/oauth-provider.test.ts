/**
 * GeekAgent's OAuth provider against the OAuth fixture server: a headless login through the SDK
 * flow, tokens stored 0600, and two agents (two providers on one store) refreshing at once —
 * only one refresh grant is spent, and both end up with the same fresh token.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorize } from '../../../src/mcp/auth/oauth-fetch.js';
import { followRedirectPrompter } from '../../../src/mcp/auth/prompters.js';
import { GeekAgentOAuthProvider } from '../../../src/mcp/auth/provider.js';
import { TokenStore } from '../../../src/mcp/auth/token-store.js';
import { type OAuthFixture, startOAuthFixture } from '../../fixtures/oauth-server.js';

let dir: string;
let oauth: OAuthFixture;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-oauth-'));
});
afterEach(async () => {
  await oauth.close();
  await rm(dir, { recursive: true, force: true });
});

const provider = () =>
  new GeekAgentOAuthProvider({
    server: 'secure',
    serverUrl: oauth.mcpUrl,
    settings: undefined,
    store: new TokenStore(path.join(dir, 'auth'), 'secure', oauth.mcpUrl),
    redirectUrl: 'http://127.0.0.1:59999/callback',
  });

describe('GeekAgentOAuthProvider', () => {
  it('logs in headlessly and stores the tokens with mode 0600', async () => {
    oauth = await startOAuthFixture();
    const first = provider();
    await authorize(
      {
        server: 'secure',
        serverUrl: new URL(oauth.mcpUrl),
        provider: first,
        prompter: followRedirectPrompter,
      },
      fetch,
    );
    expect(await first.hasTokens()).toBe(true);
    const store = new TokenStore(path.join(dir, 'auth'), 'secure', oauth.mcpUrl);
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dir, 'auth'))).mode & 0o777).toBe(0o700);
    expect(oauth.grants.authorization_code).toBe(1);
  });

  it('two agents refreshing at once spend one refresh token and share the result', async () => {
    // Tokens that are due at once: every tokens() call wants a refresh.
    oauth = await startOAuthFixture({ expiresInSeconds: 0 });
    await authorize(
      {
        server: 'secure',
        serverUrl: new URL(oauth.mcpUrl),
        provider: provider(),
        prompter: followRedirectPrompter,
      },
      fetch,
    );
    const loginToken = oauth.issued.at(-1);
    const [a, b] = await Promise.all([provider().tokens(), provider().tokens()]);
    expect(oauth.grants.refresh_token).toBe(1);
    expect(a?.access_token).toBe(b?.access_token);
    expect(a?.access_token).not.toBe(loginToken);
    expect(a?.access_token).toBe(oauth.issued.at(-1));
  });

  it('a registration stored before issuers were recorded is reused, then kept under its issuer', async () => {
    oauth = await startOAuthFixture();
    const registered = (await (
      await fetch(`${oauth.base}/register`, {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:59999/callback'] }),
      })
    ).json()) as { client_id: string };
    const store = new TokenStore(path.join(dir, 'auth'), 'secure', oauth.mcpUrl);
    await store.update(() => ({
      serverUrl: oauth.mcpUrl,
      clientInformation: { client_id: registered.client_id },
      redirectUrl: 'http://127.0.0.1:59999/callback',
    }));
    await authorize(
      {
        server: 'secure',
        serverUrl: new URL(oauth.mcpUrl),
        provider: provider(),
        prompter: followRedirectPrompter,
      },
      fetch,
    );
    expect(oauth.registrations).toHaveLength(1); // ours above: none by the login
    expect(oauth.authorizeClientIds).toEqual([registered.client_id]);
    const stored = await store.read();
    expect(stored.clientInformation).toBeUndefined();
    expect(stored.clients?.[oauth.base]?.information).toMatchObject({
      client_id: registered.client_id,
      issuer: oauth.base,
    });
    expect(stored.tokens?.issuer).toBe(oauth.base);
  });

  it('a background connect without a prompter asks for a login instead of opening anything', async () => {
    oauth = await startOAuthFixture();
    await expect(
      authorize({ server: 'secure', serverUrl: new URL(oauth.mcpUrl), provider: provider() }, fetch),
    ).rejects.toThrow('secure needs a login: run geekagent mcp login secure');
  });
});
