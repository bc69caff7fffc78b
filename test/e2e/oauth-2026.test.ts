/**
 * OAuth as MCP 2026-07-28 asks, through the built CLI against the OAuth fixture: the `iss` of the
 * authorization response checked (RFC 9207 — a wrong one refuses the login and stores nothing),
 * dynamic registration as a `native` application, credentials kept per issuer (a server that
 * moves to another authorization server is registered there and logged in again), and a client
 * ID metadata document used instead of registration where the authorization server takes one.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OAuthFixture, type OAuthFixtureOptions, startOAuthFixture } from '../fixtures/oauth-server.js';
import { createProject, type Project, runCli } from './harness.js';
import { runLogin } from './oauth-login.js';

let project: Project;
let oauth: OAuthFixture | undefined;

beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await oauth?.close();
  oauth = undefined;
  await project.cleanup();
});

async function serve(options: OAuthFixtureOptions, oauthEntry?: Record<string, unknown>) {
  const fixture = await startOAuthFixture(options);
  oauth = fixture;
  await project.mcpServers({
    secure: { type: 'http', url: fixture.mcpUrl, ...(oauthEntry ? { oauth: oauthEntry } : {}) },
  });
  return fixture;
}

async function storedAuth(): Promise<Record<string, unknown>> {
  const authDir = path.join(project.home, '.geekagent', 'auth');
  const [file] = await readdir(authDir);
  return JSON.parse(await readFile(path.join(authDir, file!), 'utf8')) as Record<string, unknown>;
}

async function status(): Promise<Record<string, string>> {
  const list = await runCli(['mcp', 'list', '--json'], { project });
  return (JSON.parse(list.stdout) as Array<Record<string, string>>)[0]!;
}

describe('OAuth 2026-07-28', () => {
  it('registers as a native application, and a login whose response carries the right iss goes through', async () => {
    const fixture = await serve({ iss: 'own' });
    const login = await runLogin(project, 'paste');
    expect(login.code, login.stderr).toBe(0);
    expect(login.pastedUrl).toContain(`iss=${encodeURIComponent(fixture.base)}`);
    expect(fixture.registrations).toHaveLength(1);
    expect(fixture.registrations[0]!.metadata).toMatchObject({
      application_type: 'native',
      redirect_uris: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)],
    });
    const call = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(call.stdout, call.stderr).toMatch(/^hello client-/);
  });

  it('an authorization response from another issuer is refused, naming the server and both issuers; nothing is stored', async () => {
    const fixture = await serve({ iss: 'https://attacker.example/as' });
    const login = await runLogin(project, 'paste');
    expect(login.code).toBe(1);
    expect(login.stderr).toContain(
      `login to secure refused: the authorization response came from issuer https://attacker.example/as, but the login went to issuer ${fixture.base} (RFC 9207)`,
    );
    expect(fixture.grants.authorization_code).toBe(0);
    expect((await storedAuth()).tokens).toBeUndefined();
    expect((await status()).status).toBe('needs_auth');
  });

  it('a response without iss from a server that promises one is refused', async () => {
    const fixture = await serve({ iss: 'omit' });
    const login = await runLogin(project, 'paste');
    expect(login.code).toBe(1);
    expect(login.stderr).toContain(
      `login to secure refused: the authorization response carried no iss, though issuer ${fixture.base} says it sends one`,
    );
    expect(fixture.grants.authorization_code).toBe(0);
  });

  it('a server that moves to another authorization server is registered there and logged in again', async () => {
    const fixture = await serve({ iss: 'own' });
    expect((await runLogin(project, 'paste')).code).toBe(0);
    const first = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(first.stdout, first.stderr).toMatch(/^hello client-/);

    fixture.moveToSecondIssuer();
    // In the background nobody can log in: the server asks for one (the old tokens are not sent on).
    expect(await status()).toMatchObject({ status: 'needs_auth', error: 'run geekagent mcp login secure' });
    const again = await runLogin(project, 'paste');
    expect(again.code, again.stderr).toBe(0);
    expect(again.pastedUrl).toContain(`iss=${encodeURIComponent(`${fixture.base}/second`)}`);
    expect(fixture.registrations.map((r) => r.issuer)).toEqual([fixture.base, `${fixture.base}/second`]);

    const second = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(second.code, second.stderr).toBe(0);
    const secondClient = second.stdout.trim().replace(/^hello /, '');
    expect(second.stdout.trim()).not.toBe(first.stdout.trim());
    // Both registrations kept, each under its issuer; the tokens are the new issuer's.
    const stored = await storedAuth();
    expect(Object.keys(stored.clients as object).sort()).toEqual([fixture.base, `${fixture.base}/second`]);
    expect(
      (stored.clients as Record<string, { information: { client_id: string } }>)[`${fixture.base}/second`]!
        .information.client_id,
    ).toBe(secondClient);
    expect((stored.tokens as { issuer: string }).issuer).toBe(`${fixture.base}/second`);
  });

  it('a client ID metadata document is used instead of registration where the authorization server takes one', async () => {
    const document = 'https://geekagent.example/oauth/client.json';
    const fixture = await serve(
      { iss: 'own', clientIdMetadataDocuments: true },
      { clientMetadataUrl: document },
    );
    const login = await runLogin(project, 'paste');
    expect(login.code, login.stderr).toBe(0);
    expect(fixture.registrations).toEqual([]);
    expect(fixture.authorizeClientIds).toEqual([document]);
    const call = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(call.stdout.trim(), call.stderr).toBe(`hello ${document}`);
  });

  it('with a metadata document configured, a server that takes none is registered with dynamically', async () => {
    const fixture = await serve({}, { clientMetadataUrl: 'https://geekagent.example/oauth/client.json' });
    const login = await runLogin(project, 'paste');
    expect(login.code, login.stderr).toBe(0);
    expect(fixture.registrations).toHaveLength(1);
    expect(fixture.authorizeClientIds[0]).toMatch(/^client-/);
  });
});
