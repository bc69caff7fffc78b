/**
 * What running the 33 most-downloaded real MCP servers found (issue 25), through the built CLI: a
 * server that never answers `initialize` is reported as not answering in time (not by the exit our
 * own close caused), with its last stderr line as its own words; the default per-call timeout is
 * the SDK's 60 s and progress keeps a call alive past a configured one; `"roots": false` keeps a
 * server from being offered the project folder as a root.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const fx = cliFixture();
const fixture = (name: string) => path.join(FIXTURE_SERVERS, name);
const mcpJson = () => path.join(fx.project.dir, '.geekagent', 'mcp.json');

describe('a server that never answers initialize', () => {
  // Like Stripe's and TestSprite's stdio proxies offline: a stderr line, no answer, exit 0 on stdin close.
  const silentProxy = {
    command: process.execPath,
    // The line carries a terminal title sequence: it must reach the screen escaped.
    args: [fixture('silent-proxy.mjs'), 'upstream unreachable \u001b]0;pwned\u0007}'],
    startupTimeout: 1500,
  };
  const expected = () =>
    `× stripe: did not answer initialize within 1.5 s (raise "startupTimeout" for stripe in ${mcpJson()} if it needs longer); ` +
    `the server's last stderr line: "upstream unreachable ^[]0;pwned^G}"`;

  it('mcp list says it did not answer within the start-up timeout, not that it exited', async () => {
    await fx.project.mcpServers({ stripe: silentProxy });
    const run = await fx.run(['mcp', 'list']);
    expect(run.stdout).toContain(expected());
    expect(run.stdout).not.toContain('exited with code');
    expect(run.stdout).not.toContain('\u001b');
  });

  it('print mode (/mcp) shows the same reason', async () => {
    await fx.project.mcpServers({ stripe: silentProxy });
    const run = await fx.run(['-p', '/mcp']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(expected());
    expect(run.stdout).not.toContain('exited with code');
  });
});

describe('per-call timeout', () => {
  it('is 60 s by default (mcp get)', async () => {
    await fx.project.mcpServers({ hang: { command: process.execPath, args: [fixture('hang.mjs')] } });
    const run = await fx.run(['mcp', 'get', 'hang']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('timeout: 60000 ms per request, start-up 30000 ms');
  });

  it('a configured short timeout cancels a silent call with the clear message; progress extends a working one', async () => {
    await fx.project.mcpServers({
      hang: { command: process.execPath, args: [fixture('hang.mjs')], timeout: 1000 },
    });
    fx.fake.push(
      {
        toolCalls: [
          { name: 'mcp_hang_hang', arguments: '{}' },
          // Five progress steps 400 ms apart: 2 s in all, twice the configured timeout.
          { name: 'mcp_hang_slow', arguments: '{"steps":5,"intervalMs":400}' },
        ],
      },
      { text: 'done' },
    );
    const output = parseJsonOutput(
      await fx.run(['-p', 'go', '--output-format', 'json', '--allow', 'mcp_hang_*']),
    );
    const [hang, slow] = output.tool_calls;
    expect(hang).toMatchObject({ name: 'mcp_hang_hang', is_error: true });
    expect(hang?.result).toBe(
      `MCP server hang did not answer tools/call "hang" within 1 s; the request was cancelled (raise "timeout" for hang in ${mcpJson()} if it needs longer)`,
    );
    expect(slow).toMatchObject({ name: 'mcp_hang_slow', is_error: false, result: 'done after 5 steps' });
  });

  it('progress extends a call of geekagent mcp call too', async () => {
    await fx.project.mcpServers({
      hang: { command: process.execPath, args: [fixture('hang.mjs')], timeout: 1000 },
    });
    const run = await fx.run(['mcp', 'call', 'hang', 'slow', '{"steps":5,"intervalMs":400}']);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, 'done after 5 steps\n', '']);
  });
});

describe('"roots": false', () => {
  it('the server sees no roots capability; others are offered the project folder', async () => {
    const roots = { command: process.execPath, args: [fixture('roots.mjs')] };
    await fx.project.mcpServers({ offered: roots, kept: { ...roots, roots: false } });
    fx.fake.push(
      {
        toolCalls: [
          { name: 'mcp_offered_client_roots', arguments: '{}' },
          { name: 'mcp_kept_client_roots', arguments: '{}' },
        ],
      },
      { text: 'done' },
    );
    const output = parseJsonOutput(await fx.run(['-p', 'go', '--output-format', 'json', '--allow', 'mcp_*']));
    const [offered, kept] = output.tool_calls;
    expect(offered?.result).toMatch(/^roots: file:\/\/\//);
    expect(kept).toMatchObject({ is_error: false, result: 'no roots capability' });

    const get = await fx.run(['mcp', 'get', 'kept']);
    expect(get.stdout).toContain('roots: not declared ("roots": false)');
  });

  it('is a known key, checked as a boolean: another value fails the server naming the key', async () => {
    await fx.project.mcpServers({
      bad: { command: process.execPath, args: [fixture('roots.mjs')], roots: 'no' },
    });
    const run = await fx.run(['mcp', 'list']);
    expect(run.stdout).toContain(
      `× bad: ${mcpJson()}: at mcpServers.bad.roots: Invalid input: expected boolean, received string`,
    );
  });
});
