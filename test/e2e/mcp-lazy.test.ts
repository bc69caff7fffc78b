/**
 * Lazy MCP servers from a cached tool list (issue 14 §1), end to end with the built CLI: the first
 * run lists and caches each server's tools; later runs register them from the cache without
 * spawning anything, and a call starts exactly the server it needs. Plus: `/mcp` shows `idle`,
 * a changed listing updates the cache and the model's tools, a failing lazy start is a clear
 * error naming the log, `startup: eager` still starts at once, and a start-up error answer is shown.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput, runCli } from './harness.js';

const LAZY = path.join(FIXTURE_SERVERS, 'lazy.mjs');

const fx = cliFixture();

/** A lazy.mjs server per name, each with its own behaviour folder. */
async function servers(names: string[], extra: Record<string, unknown> = {}): Promise<void> {
  const entries: Record<string, unknown> = {};
  for (const name of names) {
    await mkdir(path.join(fx.project.dir, 'srv', name), { recursive: true });
    entries[name] = { command: 'node', args: [LAZY, path.join(fx.project.dir, 'srv', name)], ...extra };
  }
  await fx.project.mcpServers(entries);
}

async function starts(name: string): Promise<number> {
  const text = await readFile(path.join(fx.project.dir, 'srv', name, 'starts'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).length;
}

function toolNames(index: number): string[] {
  const tools = (fx.fake.requests[index]?.body.tools ?? []) as Array<{ function: { name: string } }>;
  return tools.map((tool) => tool.function.name).sort();
}

async function say(prompt = 'hello', args: string[] = []) {
  fx.fake.push({ text: 'hi' });
  const run = await fx.run(['-p', prompt, ...args]);
  expect(run.code, run.stderr).toBe(0);
  return run;
}

async function callEcho(server: string, text: string) {
  fx.fake.push(
    { toolCalls: [{ name: `mcp_${server}_echo`, arguments: JSON.stringify({ text }) }] },
    { text: 'done' },
  );
  const run = await fx.run(['-p', 'call it', '--output-format', 'json', '--allow', 'mcp_*']);
  return parseJsonOutput(run);
}

async function cacheFiles(): Promise<string[]> {
  const dir = path.join(fx.project.home, '.geekagent', 'cache');
  return (await readdir(dir).catch(() => [])).map((name) => path.join(dir, name));
}

describe('lazy MCP servers from a cached tool list', () => {
  it('a second run spawns no server when the model calls none; a call spawns exactly that server', async () => {
    await servers(['a', 'b']);
    await say();
    expect([await starts('a'), await starts('b')]).toEqual([1, 1]);
    expect(await cacheFiles()).toHaveLength(2);

    await say();
    expect([await starts('a'), await starts('b')]).toEqual([1, 1]);
    // The model still saw both servers' tools, from the cache.
    expect(toolNames(1)).toEqual(expect.arrayContaining(['mcp_a_echo', 'mcp_b_echo']));

    const out = await callEcho('a', 'ping');
    expect(out.tool_calls.map((call) => [call.name, call.result])).toEqual([['mcp_a_echo', 'echo: ping']]);
    expect([await starts('a'), await starts('b')]).toEqual([2, 1]);
  });

  it('/mcp shows a never-started server as idle with its cached tools', async () => {
    await servers(['a']);
    await say();
    const run = await fx.run(['-p', '/mcp']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('a (1 tool, idle: starts on first use)');
    expect(run.stdout).toContain('mcp_a_echo');
    expect(await starts('a')).toBe(1);
  });

  it('a listing that differs from the cache updates it and the tools the model sees', async () => {
    await servers(['a']);
    await say();
    await writeFile(path.join(fx.project.dir, 'srv', 'a', 'tools'), 'echo,shout');
    const out = await callEcho('a', 'x');
    expect(out.tool_calls[0]?.result).toBe('echo: x');
    // The request after the call (same turn) carries the server's new tool.
    expect(toolNames(1)).not.toContain('mcp_a_shout');
    expect(toolNames(2)).toContain('mcp_a_shout');
    const [file] = await cacheFiles();
    expect(await readFile(file!, 'utf8')).toContain('"shout"');

    await say();
    expect(toolNames(3)).toContain('mcp_a_shout');
    expect(await starts('a')).toBe(2);
  });

  it('a lazily started server that fails to start makes its calls clear errors naming it and its log', async () => {
    await servers(['a']);
    await say();
    await writeFile(path.join(fx.project.dir, 'srv', 'a', 'fail'), 'cannot open the database');
    const out = await callEcho('a', 'x');
    const result = out.tool_calls[0]?.result ?? '';
    expect(out.tool_calls[0]?.is_error).toBe(true);
    expect(result).toContain('MCP server a is not connected');
    expect(result).toContain('cannot open the database');
    expect(result).toContain(path.join('.geekagent', 'logs', 'a.log'));
  });

  it('a tool the started server describes differently than the cache did is not called unchecked', async () => {
    await servers(['a']);
    await say();
    await writeFile(path.join(fx.project.dir, 'srv', 'a', 'note'), ' (now also deletes files)');
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_a_echo', arguments: JSON.stringify({ text: 'x' }) }] },
      { toolCalls: [{ name: 'mcp_a_echo', arguments: JSON.stringify({ text: 'y' }) }] },
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'call it', '--output-format', 'json', '--allow', 'mcp_*']);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]?.result).toContain('now describes mcp_a_echo differently');
    // The second call meets the pin check with the new definition: refused in print mode.
    expect(out.tool_calls[1]?.decision).toBe('refused');
    expect(out.tool_calls[1]?.result).toContain('mcp approve a');
  });

  it('"startup": "eager" starts the server with the agent even with a cache', async () => {
    await servers(['a'], { startup: 'eager' });
    await say();
    await say();
    expect(await starts('a')).toBe(2);
  });

  it('a broken cache file is no cache: the server starts and the file is rewritten', async () => {
    await servers(['a']);
    await say();
    const [file] = await cacheFiles();
    await writeFile(file!, '{ broken');
    await say();
    expect(await starts('a')).toBe(2);
    expect(JSON.parse(await readFile(file!, 'utf8')).tools[0].name).toBe('echo');
  });

  it('an untrusted folder uses no cached project server', async () => {
    await servers(['a']);
    await say();
    fx.fake.push({ text: 'hi' });
    const run = await fx.run(['-p', 'hello'], { trusted: false });
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(1)).not.toContain('mcp_a_echo');
  });
});

describe('start-up errors a server answers with', () => {
  for (const mode of ['initialize', 'tools']) {
    it(`shows the error of a server that fails ${mode === 'tools' ? 'tools/list' : 'initialize'} and exits`, async () => {
      await fx.project.mcpServers({
        broken: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'start-error.mjs'), mode] },
      });
      const run = await runCli(['mcp', 'list'], { project: fx.project });
      expect(run.stdout + run.stderr).toContain('upstream unavailable: fetch failed');
    });
  }
});

describe('a result cut by the token limit', () => {
  it('keeps the whole text in .geekagent/tool-output/ and the note gives the path the model can read', async () => {
    await servers(['a'], { maxResultTokens: 10 });
    const long = `${'lorem ipsum '.repeat(40)}THE-END`;
    let kept = '';
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_a_echo', arguments: JSON.stringify({ text: long }) }] },
      (request) => {
        const note = String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content);
        kept = /is kept in (\S+):/.exec(note)?.[1] ?? '';
        return { toolCalls: [{ name: 'read', arguments: JSON.stringify({ path: kept }) }] };
      },
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'call it', '--output-format', 'json', '--allow', 'mcp_*']);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]?.result).toContain('(result truncated');
    expect(kept.startsWith(path.join(fx.project.dir, '.geekagent', 'tool-output'))).toBe(true);
    expect(await readFile(kept, 'utf8')).toBe(`echo: ${long}`);
    expect(out.tool_calls[1]?.name).toBe('read');
    expect(out.tool_calls[1]?.result).toContain('THE-END');
  });
});
