/**
 * A server that demands OAuth, end to end through the CLI: needs_auth before login, `mcp login`
 * through the paste-back path (no browser), a tool call on the stored token, the token store's
 * 0600 file, refresh before expiry and after a rejected token, and `mcp logout`.
 */
import { chmod, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OAuthFixture, startOAuthFixture } from '../fixtures/oauth-server.js';
import { createProject, type Project, runCli } from './harness.js';
import { runLogin } from './oauth-login.js';

let project: Project;
let oauth: OAuthFixture;

beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await oauth?.close();
  await project.cleanup();
});

const loginAs = (how: 'paste' | 'browser') => runLogin(project, how);

describe('OAuth end to end', () => {
  it('needs_auth → login by paste-back → tool call on the stored token → logout', async () => {
    oauth = await startOAuthFixture();
    await project.mcpServers({ secure: { type: 'http', url: oauth.mcpUrl } });

    const before = JSON.parse((await runCli(['mcp', 'list', '--json'], { project })).stdout) as Array<
      Record<string, string>
    >;
    expect(before[0]).toMatchObject({
      name: 'secure',
      status: 'needs_auth',
      error: 'run geekagent mcp login secure',
    });

    const login = await loginAs('paste');
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('paste the URL you were redirected to');
    expect(login.pastedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    expect(login.stdout).toContain('Logged in to secure (1 tools)');
    expect(oauth.grants.authorization_code).toBe(1);

    const authDir = path.join(project.home, '.geekagent', 'auth');
    const [file] = await readdir(authDir);
    expect(file).toMatch(/^secure-[0-9a-f]{12}\.json$/);
    expect((await stat(path.join(authDir, file!))).mode & 0o777).toBe(0o600);

    const call = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toMatch(/^hello client-/);
    expect(oauth.grants).toEqual({ authorization_code: 1, refresh_token: 0 });

    const logout = await runCli(['mcp', 'logout', 'secure'], { project });
    expect(logout.stdout).toContain('Logged out of secure');
    const after = JSON.parse((await runCli(['mcp', 'list', '--json'], { project })).stdout) as Array<
      Record<string, string>
    >;
    expect(after[0]!.status).toBe('needs_auth');
  });

  it('refreshes a token that is about to expire before using it', async () => {
    oauth = await startOAuthFixture();
    await project.mcpServers({ secure: { type: 'http', url: oauth.mcpUrl } });
    expect((await loginAs('paste')).code).toBe(0);
    // Age the stored token to the end of its life (the server still accepts it): the next run
    // must refresh first rather than spend a token it believes is expiring.
    const authDir = path.join(project.home, '.geekagent', 'auth');
    const [file] = await readdir(authDir);
    const stored = JSON.parse(await readFile(path.join(authDir, file!), 'utf8'));
    stored.tokensSavedAt -= stored.tokens.expires_in * 1000;
    await writeFile(path.join(authDir, file!), JSON.stringify(stored));

    const call = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(call.code, call.stderr).toBe(0);
    expect(oauth.grants).toEqual({ authorization_code: 1, refresh_token: 1 });
    expect(oauth.lastAccepted()).toBe(oauth.issued.at(-1));
  });

  it('a token the server rejected is refreshed and the call goes through', async () => {
    oauth = await startOAuthFixture();
    await project.mcpServers({ secure: { type: 'http', url: oauth.mcpUrl } });
    expect((await loginAs('paste')).code).toBe(0);
    oauth.expireAccessTokens();

    const call = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toMatch(/^hello client-/);
    expect(oauth.grants).toEqual({ authorization_code: 1, refresh_token: 1 });
    expect(oauth.lastAccepted()).toBe(oauth.issued.at(-1));
  });

  it('a token folder or file open to others is made private when used; a linked folder is refused', async () => {
    oauth = await startOAuthFixture();
    await project.mcpServers({ secure: { type: 'http', url: oauth.mcpUrl } });
    const authDir = path.join(project.home, '.geekagent', 'auth');
    // Already there, open to everyone (chmod: the umask narrows mkdir's mode).
    await mkdir(authDir, { recursive: true });
    await chmod(authDir, 0o777);
    expect((await loginAs('paste')).code).toBe(0);
    const mode = async (file: string) => (await stat(file)).mode & 0o777;
    expect(await mode(authDir)).toBe(0o700);
    const [name] = await readdir(authDir);
    const tokens = path.join(authDir, name!);
    expect(await mode(tokens)).toBe(0o600);

    // Loosened again by hand (or an old release): the next use tightens both.
    await chmod(authDir, 0o777);
    await chmod(tokens, 0o666);
    const call = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(call.stdout, call.stderr).toMatch(/^hello client-/);
    expect(await mode(authDir)).toBe(0o700);
    expect(await mode(tokens)).toBe(0o600);

    // A folder that is a link elsewhere is neither followed nor changed.
    const elsewhere = path.join(project.home, 'elsewhere');
    await rename(authDir, elsewhere);
    await chmod(elsewhere, 0o777);
    await symlink(elsewhere, authDir);
    const linked = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(linked.code).not.toBe(0);
    expect(linked.stderr).toContain('is a symbolic link');
    expect(await mode(elsewhere)).toBe(0o777);
  });

  it('logs in through the loopback callback, as a browser would', async () => {
    oauth = await startOAuthFixture();
    await project.mcpServers({ secure: { type: 'http', url: oauth.mcpUrl } });
    const result = await loginAs('browser');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Logged in to secure (1 tools)');
    const call = await runCli(['mcp', 'call', 'secure', 'whoami'], { project });
    expect(call.stdout).toMatch(/^hello client-/);
  });

  it('mcp add --transport http writes a remote entry with headers', async () => {
    oauth = await startOAuthFixture();
    const add = await runCli(
      ['mcp', 'add', '--transport', 'http', 'secure', oauth.mcpUrl, '--header', 'X-Team: ${TEAM:-core}'],
      { project },
    );
    expect(add.code, add.stderr).toBe(0);
    const config = JSON.parse(await readFile(path.join(project.dir, '.geekagent', 'mcp.json'), 'utf8'));
    expect(config.mcpServers.secure).toEqual({
      type: 'http',
      url: oauth.mcpUrl,
      headers: { 'X-Team': '${TEAM:-core}' },
    });
    const list = JSON.parse((await runCli(['mcp', 'list', '--json'], { project })).stdout) as Array<
      Record<string, string>
    >;
    expect(list[0]!.status).toBe('needs_auth');
  });

  it('a needs_auth server never blocks the others', async () => {
    oauth = await startOAuthFixture();
    await project.mcpServers({
      secure: { type: 'http', url: oauth.mcpUrl },
      demo: { command: 'node', args: [path.resolve(import.meta.dirname, '../../examples/demo-server.mjs')] },
    });
    const list = JSON.parse((await runCli(['mcp', 'list', '--json'], { project })).stdout) as Array<
      Record<string, string>
    >;
    expect(list.map((s) => s.status)).toEqual(['needs_auth', 'connected']);
  });
});
