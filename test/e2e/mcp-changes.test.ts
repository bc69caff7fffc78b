/**
 * Change notifications through the built CLI, with the real fixture servers: a 2026-07-28 server's
 * `subscriptions/listen` stream brings list changes (a tool the model's call added is declared in
 * the very next request), a stream the server drops is opened again, and an `@`-mentioned resource
 * that changes goes with the next turn — over a 2026 listen stream's `resourceSubscriptions` and
 * over a 2025 server's `resources/subscribe`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const FIXTURES_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026');
const LIST_CHANGES = path.join(FIXTURES_2026, 'list-changes.mjs');
const RESOURCE_UPDATES = path.join(FIXTURES_2026, 'resource-updates.mjs');
const SUBSCRIBING_2025 = path.join(FIXTURE_SERVERS, 'subscribing.mjs');
const CACHE_HINTS = path.join(FIXTURES_2026, 'cache-hints.mjs');
const ODD_RESULT = path.join(FIXTURE_SERVERS, 'odd-result-type.mjs');

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});
const user = (content: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`;

const servers: ChildProcess[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.kill();
});

/** Starts a fixture over Streamable HTTP on a free port; resolves with its endpoint. */
async function startHttp(fixture: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [fixture, '--http', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(child);
  for await (const line of createInterface({ input: child.stdout! }))
    return `http://127.0.0.1:${line.trim()}/mcp`;
  throw new Error(`${fixture} exited before listening`);
}

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

function declared(request: RecordedRequest | undefined): string[] {
  return ((request?.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
}

/** The text of every user message of a request. */
function userTexts(request: RecordedRequest | undefined): string[] {
  return (request?.body.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content));
}

describe('list changes over subscriptions/listen (2026-07-28)', () => {
  it('a tool the model adds is declared in the next request and can be called', async () => {
    const log = path.join(fx.project.dir, 'methods.log');
    await fx.project.mcpServers({
      lc: { command: 'node', args: [LIST_CHANGES], env: { MCP_FIXTURE_LOG: log } },
    });
    fx.fake.push(call('mcp_lc_add_tool', { name: 'fresh' }), call('mcp_lc_fresh'), { text: 'done' });
    const run = await fx.run(['-p', 'grow', '--output-format', 'json', '--allow', 'mcp_lc_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => [c.name, c.result])).toEqual([
      ['mcp_lc_add_tool', 'added tool fresh'],
      ['mcp_lc_fresh', 'called fresh'],
    ]);
    expect(declared(fx.fake.requests[0])).not.toContain('mcp_lc_fresh');
    expect(declared(fx.fake.requests[1])).toContain('mcp_lc_fresh');
    const methods = await lines(log);
    // The stream was opened once, and the change came over it (a re-list after the call).
    expect(methods.filter((m) => m === 'subscriptions/listen')).toHaveLength(1);
    expect(methods.filter((m) => m === 'tools/list')).toHaveLength(2);
    // The agent's exit cancelled the stream.
    expect(methods.at(-1)).toBe('notifications/cancelled');
  });

  it('a stream the server drops is opened again, and changes keep coming', async () => {
    const log = path.join(fx.project.dir, 'methods.log');
    await fx.project.mcpServers({
      lc: { command: 'node', args: [LIST_CHANGES], env: { MCP_FIXTURE_LOG: log } },
    });
    fx.fake.push(
      call('mcp_lc_drop_listen'),
      call('mcp_lc_add_tool', { name: 'later' }),
      call('mcp_lc_later'),
      call('mcp_lc_drop_listen'),
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'drop', '--output-format', 'json', '--allow', 'mcp_lc_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((c) => [c.name, c.result])).toEqual([
      ['mcp_lc_drop_listen', 'dropped 1'],
      ['mcp_lc_add_tool', 'added tool later'],
      ['mcp_lc_later', 'called later'],
      ['mcp_lc_drop_listen', 'dropped 1'],
    ]);
    expect((await lines(log)).filter((m) => m === 'subscriptions/listen').length).toBeGreaterThanOrEqual(2);
    const serverLog = await readFile(path.join(fx.project.dir, '.geekagent', 'logs', 'lc.log'), 'utf8');
    // The first drop is answered at once; a stream that drops again soon waits (backoff).
    expect(serverLog).toContain('the subscriptions/listen stream dropped; listening again in 0 ms');
    expect(serverLog).toContain('the subscriptions/listen stream dropped; listening again in 250 ms');
  });
});

describe('list changes over Streamable HTTP (2026-07-28)', () => {
  it('the listen stream is an SSE response: a tool added there is declared from then on', async () => {
    const log = path.join(fx.project.dir, 'methods.log');
    const url = await startHttp(LIST_CHANGES, { MCP_FIXTURE_LOG: log });
    await fx.project.mcpServers({ lh: { type: 'http', url } });
    // Over HTTP the change and the call's answer come on two streams: the tool is called a step later.
    fx.fake.push(
      call('mcp_lh_add_tool', { name: 'remote' }),
      call('mcp_lh_echo', { text: 'x' }),
      call('mcp_lh_remote'),
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'grow', '--output-format', 'json', '--allow', 'mcp_lh_*']);
    expect(run.code, run.stderr).toBe(0);
    expect(parseJsonOutput(run).tool_calls.at(-1)).toMatchObject({
      name: 'mcp_lh_remote',
      result: 'called remote',
    });
    expect((await lines(log)).filter((m) => m === 'subscriptions/listen')).toHaveLength(1);
  });
});

describe('@-mentioned resources that change', () => {
  /** Turn 1 attaches res://counter and the model bumps it (and res://other); turn 2 asks again. */
  async function twoTurns(server: string) {
    fx.fake.push(
      call(`mcp_${server}_bump`),
      call(`mcp_${server}_bump`, { uri: 'res://other' }),
      { text: 'bumped' },
      { text: 'seen' },
    );
    const input = user(`look at @${server}:res://counter`) + user('and now?');
    const run = await fx.run(
      ['--input-format', 'stream-json', '--output-format', 'stream-json', '--allow', `mcp_${server}_*`],
      { input },
    );
    expect(run.code, run.stderr).toBe(0);
    const first = userTexts(fx.fake.requests[0]);
    expect(first.at(-1)).toContain(
      `Attached resource @${server}:res://counter:\n[resource res://counter]\ncount 0`,
    );
    const second = userTexts(fx.fake.requests[3]);
    // The new content goes with the next message, after it; an unattached resource's change does not.
    expect(second.at(-1)).toBe(
      `and now?\n\nResource @${server}:res://counter changed since it was attached; its content now:\n[resource res://counter]\ncount 1`,
    );
    expect(second.join('\n')).not.toContain('res://other');
    return run;
  }

  it('2026-07-28: watched through the listen stream’s resourceSubscriptions', async () => {
    const log = path.join(fx.project.dir, 'methods.log');
    await fx.project.mcpServers({
      ru: { command: 'node', args: [RESOURCE_UPDATES], env: { MCP_FIXTURE_LOG: log } },
    });
    await twoTurns('ru');
    const methods = await lines(log);
    // The server declares no list changes: the mention opened the one stream, for its resource.
    expect(methods.filter((m) => m === 'subscriptions/listen')).toHaveLength(1);
    expect(methods.indexOf('subscriptions/listen')).toBeGreaterThan(methods.indexOf('resources/read'));
    expect(methods).not.toContain('resources/subscribe');
  });

  it('2025 era: resources/subscribe for the attached resource only', async () => {
    const log = path.join(fx.project.dir, 'subscribe.log');
    await fx.project.mcpServers({
      old: { command: 'node', args: [SUBSCRIBING_2025], env: { SUBSCRIBE_LOG: log } },
    });
    await twoTurns('old');
    expect(await lines(log)).toEqual(['subscribe res://counter']);
  });
});

describe('cache hints on the tool list (ttlMs, cacheScope)', () => {
  /**
   * A cold `mcp list` caches the tool list with its hints; then a warm two-turn run calls `counts`
   * in each turn: how many times each list method reached that run's server process.
   */
  async function warmRunCounts(ttlMs: string): Promise<Array<Record<string, number>>> {
    await fx.project.mcpServers({
      ch: { command: 'node', args: [CACHE_HINTS], env: { CACHE_TTL_MS: ttlMs } },
    });
    const cold = await fx.run(['mcp', 'list']);
    expect(cold.code, cold.stderr).toBe(0);
    expect(cold.stdout).toContain('ch (3 tools)');
    fx.fake.push(call('mcp_ch_counts'), { text: 'one' }, call('mcp_ch_counts'), { text: 'two' });
    const input = user('count') + user('count again');
    const run = await fx.run(
      ['--input-format', 'stream-json', '--output-format', 'stream-json', '--allow', 'mcp_ch_*'],
      { input },
    );
    expect(run.code, run.stderr).toBe(0);
    return [1, 3].map((index) => {
      const tool = fx.fake.requests[index]!.body.messages.filter((m) => m.role === 'tool').at(-1);
      return JSON.parse(String(tool?.content)) as Record<string, number>;
    });
  }

  it('within its ttl a cached tool list is used as it is: no tools/list on a warm start or a later turn', async () => {
    const [first, second] = await warmRunCounts('60000');
    expect(first!['tools/list']).toBeUndefined();
    expect(second!['tools/list']).toBeUndefined();
    const serverLog = await readFile(path.join(fx.project.dir, '.geekagent', 'logs', 'ch.log'), 'utf8');
    expect(serverLog).toMatch(/tools from the cache \(listed \d+ s ago, fresh for 60 s\): no tools\/list/);
  });

  it('past its ttl (ttlMs 0) the warm start lists, and so does each turn', async () => {
    const [first, second] = await warmRunCounts('0');
    expect(first!['tools/list']).toBe(1);
    expect(second!['tools/list']).toBe(2);
  });
});

describe('a result of an unknown resultType', () => {
  it('a call’s is an error naming the type (escaped), nothing of it taken as content', async () => {
    await fx.project.mcpServers({ odd: { command: 'node', args: [ODD_RESULT] } });
    const run = await fx.run(['mcp', 'call', 'odd', 'odd', '{}']);
    expect(run.code).not.toBe(0);
    const output = run.stdout + run.stderr;
    expect(output).toContain(
      'MCP server odd answered tools/call "odd" with a result of type "banana\\u001b[31m", which GeekAgent cannot use',
    );
    expect(output).not.toContain('\u001b');
    expect(output).not.toContain('must not be shown');
  });

  it('a listing’s fails the server with the same reason', async () => {
    await fx.project.mcpServers({ odd: { command: 'node', args: [ODD_RESULT], env: { ODD_LIST: '1' } } });
    const run = await fx.run(['mcp', 'list']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'the server answered tools/list with a result of type "banana\\u001b[31m", which GeekAgent cannot use',
    );
    expect(run.stdout).not.toContain('\u001b');
  });

  it('a 2026 list result without its cache hints is named as invalid, not as the exit that followed', async () => {
    await fx.project.mcpServers({
      odd: { command: 'node', args: [ODD_RESULT], env: { ODD_LIST: 'no-hints' } },
    });
    const run = await fx.run(['mcp', 'list']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'the server answered start-up with an invalid result: Invalid result for tools/list',
    );
    expect(run.stdout).toContain('ttlMs');
    expect(run.stdout).not.toContain('exited');
  });
});
