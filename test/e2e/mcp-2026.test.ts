/**
 * MCP 2026-07-28 through the built CLI: servers on SDK v2 that speak only the 2026 revision (stdio
 * and Streamable HTTP) connect and work, a server of both eras is used as a 2026 one, a 2025
 * server still works, a cached verdict spares a warm start the `server/discover` probe, and an
 * HTTP server whose versions we do not share is reported as such (not as a failed SSE attempt).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const FIXTURES_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026');
const STDIO_2026 = path.join(FIXTURES_2026, 'stdio-2026.mjs');
const HTTP_2026 = path.join(FIXTURES_2026, 'http-2026.mjs');
const DUAL_ERA = path.join(FIXTURES_2026, 'dual-era.mjs');

const fx = cliFixture();
const servers: ChildProcess[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.kill();
});

/** Starts an HTTP fixture and resolves with the URL it printed. */
async function startHttp(args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(child);
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const match = /^listening (\S+)$/.exec(line);
    if (match) return match[1]!;
  }
  throw new Error(`${args.join(' ')} exited before listening`);
}

async function methods(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

describe('MCP 2026-07-28 servers', () => {
  it('a 2026-only stdio server connects: mcp list, get and call, after server/discover', async () => {
    const log = path.join(fx.project.dir, 'methods.log');
    await fx.project.mcpServers({ s26: { command: 'node', args: [STDIO_2026], env: { METHODS_LOG: log } } });
    const list = await fx.run(['mcp', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('s26 (2 tools)\n  mcp_s26_echo');
    const get = await fx.run(['mcp', 'get', 's26']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toContain('  protocol: 2026-07-28 (server/discover)');
    const call = await fx.run(['mcp', 'call', 's26', 'echo', '{"text":"hi"}']);
    expect(call.stdout.trim()).toBe('echo: hi (modern era)');
    // The first start asked server/discover; later ones had the verdict cached.
    expect((await methods(log))[0]).toBe('server/discover');
    expect((await methods(log)).filter((m) => m === 'server/discover')).toHaveLength(1);
    expect(await methods(log)).not.toContain('initialize');
  });

  it('a warm start of a cached 2026 server sends no probe; the fake model calls its tool in print mode', async () => {
    const log = path.join(fx.project.dir, 'methods.log');
    await fx.project.mcpServers({ s26: { command: 'node', args: [STDIO_2026], env: { METHODS_LOG: log } } });
    expect((await fx.run(['mcp', 'list'])).code).toBe(0);
    const cold = await methods(log);
    expect(cold).toEqual(['server/discover', 'tools/list']);
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_s26_add', arguments: JSON.stringify({ a: 2, b: 40 }) }] },
      (request) => ({
        text: `sum ${request.body.messages.filter((m) => m.role === 'tool').map((m) => m.content)}`,
      }),
    );
    const run = await fx.run(['-p', 'add them', '--output-format', 'json', '--allow', 'mcp_s26_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({ name: 'mcp_s26_add', result: '42', is_error: false });
    expect(out.result).toBe('sum 42');
    // Lazy start from the cache: the call itself started the server, with no server/discover.
    // (The agent also follows the server's list changes: a listen stream, cancelled at exit.)
    const warm = (await methods(log)).slice(cold.length);
    expect(warm.filter((m) => m !== 'subscriptions/listen' && m !== 'notifications/cancelled')).toEqual([
      'tools/list',
      'tools/call',
    ]);
  });

  it('a 2026-only Streamable HTTP server connects and answers a call', async () => {
    const url = await startHttp([HTTP_2026]);
    await fx.project.mcpServers({ h26: { type: 'http', url } });
    const list = await fx.run(['mcp', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('h26 (1 tool)\n  mcp_h26_echo');
    const call = await fx.run(['mcp', 'call', 'h26', 'echo', '{"text":"over http"}']);
    expect(call.stdout.trim()).toBe('echo: over http (modern era)');
  });

  it('a server of both eras is used as a 2026 one (stdio and HTTP)', async () => {
    const url = await startHttp([DUAL_ERA, '--http']);
    await fx.project.mcpServers({
      dual: { command: 'node', args: [DUAL_ERA] },
      dualhttp: { type: 'http', url },
    });
    expect((await fx.run(['mcp', 'call', 'dual', 'echo', '{"text":"a"}'])).stdout.trim()).toBe(
      'echo: a (modern era)',
    );
    expect((await fx.run(['mcp', 'call', 'dualhttp', 'echo', '{"text":"b"}'])).stdout.trim()).toBe(
      'echo: b (modern era)',
    );
  });

  it('a 2025-only server still connects through initialize', async () => {
    await fx.project.mcpServers({ old: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'env.mjs')] } });
    const get = await fx.run(['mcp', 'get', 'old']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toMatch(/ {2}protocol: 2025-\d\d-\d\d \(initialize\)/);
  });

  it('an HTTP server whose versions we do not share is named with both lists, never as an SSE failure', async () => {
    const url = await startHttp([HTTP_2026, '--only-version', '2027-01-01']);
    await fx.project.mcpServers({ future: { type: 'http', url } });
    const list = await fx.run(['mcp', 'list']);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain(
      'MCP server future speaks protocol version 2027-01-01; GeekAgent speaks 2026-07-28, 2025-11-25',
    );
    expect(list.stdout).not.toMatch(/SSE|405/);
  });
});
