/** `geekagent mcp list/get/add/remove/call` against real servers, as a script would use them. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OAuthFixture, startOAuthFixture } from '../fixtures/oauth-server.js';
import { createProject, DEMO_SERVER, FIXTURE_SERVERS, type Project, runCli } from './harness.js';

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

describe('geekagent mcp', () => {
  it('list --json prints every server with status, error and tools', async () => {
    await project.mcpServers({
      demo: { command: 'node', args: [DEMO_SERVER] },
      broken: { command: 'no-such-command-here' },
    });
    const run = await runCli(['mcp', 'list', '--json'], { project });
    // A server failed: exit 1 and say which on stderr, the JSON still complete on stdout.
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe('geekagent mcp list: failed to connect: broken\n');
    const list = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(list[0]).toEqual({
      name: 'demo',
      status: 'connected',
      tools: [
        {
          name: 'mcp_demo_word_count',
          originalName: 'word_count',
          description:
            'Count the characters and words of a piece of text (words are counted by splitting on whitespace).',
        },
        {
          name: 'mcp_demo_dice',
          originalName: 'dice',
          description: 'Roll a six-sided die and return the random result.',
        },
      ],
    });
    expect(list[1]).toMatchObject({ name: 'broken', status: 'failed', tools: [] });
    expect(String(list[1]!.error)).toMatch(/^command not found: no-such-command-here/);
  });

  it('list (text) shows the seed format: demo (2 tools) and × name: error', async () => {
    await project.mcpServers({
      demo: { command: 'node', args: [DEMO_SERVER] },
      broken: { command: 'no-such-command-here' },
    });
    const run = await runCli(['mcp', 'list'], { project });
    expect(run.stdout).toContain('demo (2 tools)\n  mcp_demo_word_count');
    expect(run.stdout).toMatch(/× broken: command not found: no-such-command-here/);
  });

  it('list exits 1 when an enabled server failed or needs a login, 0 when the rest are disabled', async () => {
    await project.mcpServers({
      demo: { command: 'node', args: [DEMO_SERVER] },
      broken: { command: 'no-such-command-here' },
      off: { command: 'no-such-command-either', disabled: true },
    });
    const failed = await runCli(['mcp', 'list'], { project });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe('geekagent mcp list: failed to connect: broken\n');
    expect(failed.stdout).toContain('demo (2 tools)');

    oauth = await startOAuthFixture();
    await project.mcpServers({
      demo: { command: 'node', args: [DEMO_SERVER] },
      secure: { type: 'http', url: oauth.mcpUrl },
    });
    const login = await runCli(['mcp', 'list', '--json'], { project });
    expect(login.code).toBe(1);
    expect(login.stderr).toBe('geekagent mcp list: need a login (geekagent mcp login <name>): secure\n');

    await project.mcpServers({
      demo: { command: 'node', args: [DEMO_SERVER] },
      off: { command: 'no-such-command-either', disabled: true },
    });
    for (const args of [
      ['mcp', 'list'],
      ['mcp', 'list', '--json'],
    ]) {
      const ok = await runCli(args, { project });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toBe('');
    }
  });

  it('add, get and remove round-trip the project and user files', async () => {
    const add = await runCli(
      ['mcp', 'add', 'demo', '-e', 'LEVEL=${LEVEL:-3}', '--', 'node', DEMO_SERVER, '--flag'],
      { project },
    );
    expect(add.code, add.stderr).toBe(0);
    const file = path.join(project.dir, '.geekagent', 'mcp.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      mcpServers: { demo: { command: 'node', args: [DEMO_SERVER, '--flag'], env: { LEVEL: '${LEVEL:-3}' } } },
    });
    const again = await runCli(['mcp', 'add', 'demo', '--', 'node', DEMO_SERVER], { project });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');

    const get = await runCli(['mcp', 'get', 'demo'], { project });
    expect(get.stdout).toContain('demo (2 tools)');
    expect(get.stdout).toContain(`source: ${file} (project)`);
    expect(get.stdout).toContain('env: LEVEL (values not shown)');

    const user = await runCli(['mcp', 'add', '--scope', 'user', 'other', '--', 'node', DEMO_SERVER], {
      project,
    });
    expect(user.stdout).toContain(path.join(project.home, '.geekagent', 'mcp.json'));
    const list = JSON.parse((await runCli(['mcp', 'list', '--json'], { project })).stdout) as Array<{
      name: string;
    }>;
    expect(list.map((s) => s.name)).toEqual(['demo', 'other']);

    expect((await runCli(['mcp', 'remove', 'demo'], { project })).stdout).toContain(
      `Removed MCP server demo from ${file}`,
    );
    expect((await runCli(['mcp', 'remove', 'other'], { project })).code).toBe(0);
    const missing = await runCli(['mcp', 'remove', 'demo'], { project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no MCP server named demo');
  });

  it('call prints the result, and exits 1 on isError, unknown tools and bad JSON', async () => {
    await project.mcpServers({
      demo: { command: 'node', args: [DEMO_SERVER] },
      content: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'content.mjs')] },
    });
    const ok = await runCli(['mcp', 'call', 'demo', 'word_count', '{"text":"Model Context Protocol"}'], {
      project,
    });
    expect([ok.code, ok.stdout]).toEqual([0, 'Characters 22, words 3\n']);
    const failing = await runCli(['mcp', 'call', 'content', 'fails'], { project });
    expect([failing.code, failing.stderr]).toEqual([1, 'it failed on purpose\n']);
    const unknown = await runCli(['mcp', 'call', 'demo', 'nope'], { project });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('server demo has no tool named nope; its tools: word_count, dice');
    const bad = await runCli(['mcp', 'call', 'demo', 'dice', '{oops'], { project });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid JSON arguments/);
  });

  it('an unset ${VAR} fails only that server, naming the variable', async () => {
    await project.mcpServers({
      needy: { command: 'node', args: [DEMO_SERVER], env: { TOKEN: '${SURELY_UNSET_VAR_123}' } },
      demo: { command: 'node', args: [DEMO_SERVER] },
    });
    const list = JSON.parse((await runCli(['mcp', 'list', '--json'], { project })).stdout) as Array<
      Record<string, string>
    >;
    expect(list[0]!.status).toBe('failed');
    expect(list[0]!.error).toContain('SURELY_UNSET_VAR_123');
    expect(list[1]!.status).toBe('connected');
  });
});
