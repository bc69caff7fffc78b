/**
 * Start-up loads only what the run needs (issue 18): the built CLI runs with the watch fixture
 * (test/fixtures/modules/watch.mjs), which records every package whose code the run reads — the
 * script bundles the launcher compiles (core.cjs, lib/openai.cjs, lib/mcp-sdk.cjs, lib/tui.cjs),
 * by their source maps.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeTooOld } from '../../src/cli/launch/node-check.js';
import { CLI, DEMO_SERVER, FIXTURE_SERVERS, parseJsonOutput, REPO_ROOT, runCli } from './harness.js';
import { spawnTui, tuiFixture } from './pty.js';

const WATCH = path.join(REPO_ROOT, 'test', 'fixtures', 'modules', 'watch.mjs');
const OLD_NODE = path.join(REPO_ROOT, 'test', 'fixtures', 'modules', 'node-version.mjs');
const UNDICI_WATCH = path.join(REPO_ROOT, 'test', 'fixtures', 'modules', 'undici-watch.cjs');

const fx = tuiFixture();

const logFile = () => path.join(fx.project.home, 'modules.log');
const watched = (extra: Record<string, string> = {}) => ({
  NODE_OPTIONS: `--import=${WATCH}`,
  MODULE_LOG: logFile(),
  ...extra,
});
const loaded = (): string[] =>
  existsSync(logFile()) ? readFileSync(logFile(), 'utf8').split('\n').filter(Boolean) : [];

describe('start-up loads only what the run needs', () => {
  it('print mode without MCP servers loads neither Ink/React nor the MCP SDK', async () => {
    fx.fake.push({ text: 'hello from the model' });
    const run = await runCli(['-p', 'hi'], { project: fx.project, modelUrl: fx.fake.url, env: watched() });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('hello from the model\n');
    const packages = loaded();
    // The watch sees packages at all: the model client is loaded for the request.
    expect(packages).toContain('openai');
    expect(packages).not.toContain('ink');
    expect(packages).not.toContain('react');
    expect(packages).not.toContain('@modelcontextprotocol/client');
    // The editor protocol's SDK is `geekagent acp`'s alone.
    expect(packages).not.toContain('@agentclientprotocol/sdk');
    // The tools' and config readers' parsers are bundles of their own, read on first use.
    for (const parser of ['html-to-text', 'diff', 'tinyglobby', 'ignore', 'jsonc-parser', 'smol-toml'])
      expect(packages).not.toContain(parser);
    // The minified bundle shortens class names; the SDK would name itself by its class.
    expect(fx.fake.requests[0]?.headers['user-agent']).toMatch(
      /^GeekAgent\/\d+\.\d+\.\d+\S* OpenAI\/JS \d+\.\d+/,
    );
  });

  it("print mode sends its model request without loading Node's fetch stack (undici)", async () => {
    fx.fake.push({ text: 'streamed in small pieces', fragmentSize: 3 });
    const undiciLog = path.join(fx.project.home, 'undici.log');
    const firstRequestLog = path.join(fx.project.home, 'first-request.log');
    const run = await runCli(['-p', 'hi'], {
      project: fx.project,
      modelUrl: fx.fake.url,
      // As a script runs it (`geekagent -p … < /dev/null`): Node's stdin would be a file stream.
      stdinFile: '/dev/null',
      env: {
        NODE_OPTIONS: `--require=${UNDICI_WATCH}`,
        UNDICI_LOG: undiciLog,
        FIRST_REQUEST_LOG: firstRequestLog,
      },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('streamed in small pieces\n');
    expect(readFileSync(undiciLog, 'utf8')).toBe('not loaded\n');
    // Nor, before its request, web streams (the SDK tests each body against ReadableStream) or the
    // promise file API (loaded with readline and file watchers; Node's stdin on a file loads it).
    const beforeRequest = readFileSync(firstRequestLog, 'utf8').split('\n');
    expect(beforeRequest).toContain('NativeModule http');
    expect(beforeRequest.filter((name) => /webstreams|fs\/promises|readline/.test(name))).toEqual([]);
    // Its light Headers still send what the SDK sets.
    const headers = fx.fake.requests[0]?.headers;
    expect(headers?.['user-agent']).toMatch(/^GeekAgent\/\d+\.\d+\.\d+\S* OpenAI\/JS \d+\.\d+/);
    expect(headers?.authorization).toBe('Bearer test-key');
    expect(headers?.['content-type']).toBe('application/json');
    expect(fx.fake.requests[0]?.body.stream).toBe(true);
  });

  it('a run whose servers all start lazily from cached tool lists loads no MCP SDK until one is called', async () => {
    const srv = path.join(fx.project.dir, 'srv');
    await mkdir(srv, { recursive: true });
    await fx.project.mcpServers({
      lazy: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'lazy.mjs'), srv] },
    });
    fx.fake.push({ text: 'first' });
    const first = await runCli(['-p', 'hi'], { project: fx.project, modelUrl: fx.fake.url });
    expect(first.code, first.stderr).toBe(0); // lists the server and caches its tools
    await rm(logFile(), { force: true });

    fx.fake.push({ text: 'second' });
    const second = await runCli(['-p', 'hi'], { project: fx.project, modelUrl: fx.fake.url, env: watched() });
    expect(second.stdout).toBe('second\n');
    const tools = (fx.fake.requests[1]?.body.tools ?? []) as Array<{ function: { name: string } }>;
    expect(tools.map((tool) => tool.function.name)).toContain('mcp_lazy_echo');
    expect(loaded()).toContain('openai');
    expect(loaded()).not.toContain('@modelcontextprotocol/client');
    await rm(logFile(), { force: true });

    fx.fake.push(
      { toolCalls: [{ name: 'mcp_lazy_echo', arguments: JSON.stringify({ text: 'ping' }) }] },
      { text: 'done' },
    );
    const third = await runCli(['-p', 'call it', '--output-format', 'json', '--allow', 'mcp_*'], {
      project: fx.project,
      modelUrl: fx.fake.url,
      env: watched(),
    });
    const out = parseJsonOutput(third);
    expect(out.tool_calls.map((call) => [call.name, call.result])).toEqual([['mcp_lazy_echo', 'echo: ping']]);
    expect(loaded()).toContain('@modelcontextprotocol/client');
  });

  it('geekagent mcp list loads the MCP SDK but not Ink, React or the model client', async () => {
    await fx.project.mcpServers({ demo: { command: process.execPath, args: [DEMO_SERVER] } });
    const run = await runCli(['mcp', 'list'], { project: fx.project, env: watched() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('word_count');
    const packages = loaded();
    expect(packages).toContain('@modelcontextprotocol/client');
    expect(packages).not.toContain('ink');
    expect(packages).not.toContain('react');
    expect(packages).not.toContain('openai');
  });

  it('--version prints the version without loading commander or any dependency', async () => {
    const run = await runCli(['--version'], { project: fx.project, trusted: false, env: watched() });
    const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(run.stdout).toBe(`${version} (needs Node.js >=22.12)\n`);
    expect(loaded()).toEqual([]);
  });

  it('a Node older than 22.12 gets one line naming what is needed, and exit code 1', async () => {
    const line =
      'geekagent needs Node.js >=22.12; this is Node.js 22.11.0. Install Node.js 24 or 22 (https://nodejs.org).\n';
    const run = await runCli(['-p', 'hi'], {
      project: fx.project,
      modelUrl: fx.fake.url,
      env: { NODE_OPTIONS: `--import=${OLD_NODE}`, FAKE_NODE_VERSION: '22.11.0' },
    });
    expect([run.code, run.stdout, run.stderr]).toEqual([1, '', line]);
    expect(fx.fake.requests).toEqual([]);
    // A real old Node, where the machine has one (this image's system Node is 20): the launcher
    // still parses there, so the check runs instead of a SyntaxError.
    for (const node of ['/usr/bin/node', '/usr/local/bin/node']) {
      if (!existsSync(node)) continue;
      const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
      if (nodeTooOld(version) === undefined) continue;
      const real = spawnSync(node, [CLI, '--version'], { encoding: 'utf8' });
      expect([real.status, real.stdout, real.stderr]).toEqual([1, '', `${nodeTooOld(version)}\n`]);
    }
  });

  it('the TUI draws its input line and panel while a server hangs in its handshake, and answers', async () => {
    // A server that never answers initialize (gives up after 2 s, so a turn can run afterwards).
    // (The frame before the model client loads: tui-startup.test.ts, with createApp held.)
    await fx.project.mcpServers({
      silent: {
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1 << 30)'],
        startupTimeout: 2000,
      },
    });
    const tui = spawnTui({ project: fx.project, modelUrl: fx.fake.url, env: watched() });
    fx.sessions.push(tui);
    await tui.waitUntil(
      (screen) =>
        (screen.trimEnd().split('\n').pop() ?? '').startsWith('›') &&
        screen.includes('Model openai · fake-model') &&
        screen.includes('MCP silent(connecting)'),
      'the input line and the panel while silent is connecting',
    );
    expect(loaded()).toContain('ink');

    fx.fake.push({ text: 'answered while silent connects' });
    tui.send('hi');
    tui.send('\r');
    await tui.waitFor('answered while silent connects', 20_000);
    expect(loaded()).toContain('openai');
  });
});
