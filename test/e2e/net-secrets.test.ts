/**
 * Network and secrets through the built CLI and the fake model: fetch refuses private addresses
 * (allow list in GeekAgent.json), cross-host redirects come back unfollowed, secrets are redacted
 * before output is cut, in server logs and in provider errors; a stalled model request times out
 * (the TUI keeps working), an HTML page is named as such; config files with a BOM load; numeric
 * settings out of range are refused with the file or variable named.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import {
  createProject,
  DEMO_SERVER,
  type Project,
  parseJsonOutput,
  runCli,
  toolMessages,
} from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
let web: Server;
let port: number;
const hits: string[] = [];
const sessions: PtySession[] = [];

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
  hits.length = 0;
  web = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/go') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/admin` });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`page ${req.url}`);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  port = (web.address() as AddressInfo).port;
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.dispose()));
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
  await fake.close();
  await project.cleanup();
});

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const json = (...extra: string[]) => ['-p', 'go', '--output-format', 'json', ...extra];

describe('fetch and private addresses', () => {
  it('refuses loopback by default (127.0.0.1, 2130706433, [::ffff:127.0.0.1], localhost)', async () => {
    const urls = [
      `http://127.0.0.1:${port}/admin`,
      `http://2130706433:${port}/admin`,
      `http://[::ffff:127.0.0.1]:${port}/admin`,
      `http://localhost:${port}/admin`,
    ];
    fake.push({ toolCalls: urls.map((url) => call('fetch', { url })) }, { text: 'blocked' });
    const run = await runCli(json('--allow', 'fetch'), { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    for (const result of out.tool_calls) {
      expect(result.is_error).toBe(true);
      expect(result.result).toMatch(
        /^fetch: refused http:\/\/.*(loopback address|local name); private network/,
      );
    }
    expect(hits).toEqual([]);
  });

  it('reaches a host on the GeekAgent.json allow list, and returns its redirect to 127.0.0.1/admin unfollowed', async () => {
    await project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ root: '..', fetch: { allowHosts: [`localhost:${port}`] } }),
    );
    fake.push(
      { toolCalls: [call('fetch', { url: `http://localhost:${port}/page` })] },
      { toolCalls: [call('fetch', { url: `http://localhost:${port}/go` })] },
      { text: 'done' },
    );
    const run = await runCli(json('--allow', 'fetch'), { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    const [page, go] = parseJsonOutput(run).tool_calls;
    expect(page).toMatchObject({
      is_error: false,
      result: `http://localhost:${port}/page (HTTP 200)\npage /page`,
    });
    expect(go).toMatchObject({
      is_error: false,
      result:
        `http://localhost:${port}/go (HTTP 302)\n` +
        `redirected to http://127.0.0.1:${port}/admin (not followed: different host; fetch it if you trust it)`,
    });
    expect(hits).toEqual(['/page', '/go']);
  });

  it('stops start-up on a malformed allowHosts entry, naming the file and path', async () => {
    await project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ fetch: { allowHosts: ['host:99999'] } }),
    );
    const run = await runCli(['-p', 'hi'], { project, modelUrl: fake.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${path.join(project.dir, '.geekagent', 'GeekAgent.json')}: at fetch.allowHosts[0]: "host:99999" has a port outside 1-65535`,
    );
  });
});

describe('redaction', () => {
  it('redacts a secret that straddles the 2000-char cut of run_shell output, and 4-char secrets', async () => {
    fake.push(
      {
        toolCalls: [
          call('run_shell', { command: 'printf "%1990s" "" | tr " " x; echo "$DEPLOY_TOKEN tail"' }),
          call('run_shell', { command: 'echo "pin=$CARD_PIN_PASSWORD"' }),
        ],
      },
      { text: 'ok' },
    );
    const run = await runCli(json('--allow', 'run_shell'), {
      project,
      modelUrl: fake.url,
      env: { DEPLOY_TOKEN: 'dtk-0123456789abcdef', CARD_PIN_PASSWORD: '4821' },
    });
    expect(run.code, run.stderr).toBe(0);
    const [cut, pin] = parseJsonOutput(run).tool_calls;
    expect(cut!.result).toBe(
      `${'x'.repeat(1990)}[REDACTED:DEPLOY_TOKEN]\n(output truncated, 2016 chars in total)`,
    );
    expect(pin!.result).toBe('pin=[REDACTED:CARD_PIN_PASSWORD]');
    const sent = JSON.stringify(fake.requests[1]!.body);
    expect(sent).not.toContain('dtk-');
    expect(sent).not.toContain('4821');
  });

  it('keeps secret values out of .geekagent/logs', async () => {
    await project.mcpServers({
      leaky: {
        command: '/bin/sh',
        args: [
          '-c',
          `echo "starting with token $LOG_TOKEN" >&2; exec "${process.execPath}" "${DEMO_SERVER}"`,
        ],
        env: { LOG_TOKEN: '${LOG_TOKEN}' },
      },
    });
    const run = await runCli(['mcp', 'list'], { project, env: { LOG_TOKEN: 'ltk-secret-987' } });
    expect(run.code, run.stderr).toBe(0);
    const log = await readFile(path.join(project.dir, '.geekagent', 'logs', 'leaky.log'), 'utf8');
    expect(log).toContain('starting with token [REDACTED:LOG_TOKEN]');
    expect(log).not.toContain('ltk-secret-987');
  });

  it('redacts the API key from a 401 body that echoes it', async () => {
    fake.push((request) => ({
      kind: 'http_error',
      status: 401,
      message: `Incorrect API key provided: ${String(request.headers.authorization).replace('Bearer ', '')}`,
    }));
    const run = await runCli(['-p', 'hi'], {
      project,
      modelUrl: fake.url,
      env: { OPENAI_API_KEY: 'sk-proj-abc123xyz' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'model request failed: HTTP 401: Incorrect API key provided: [REDACTED:OPENAI_API_KEY]',
    );
    expect(run.stderr).not.toContain('sk-proj-abc123xyz');
  });
});

describe('model requests', () => {
  it('times out a stalled stream after GEEKAGENT_REQUEST_TIMEOUT seconds with a clear error', async () => {
    // The stream hangs for good: the run ending (the harness gives up after 45 s) with this message
    // is the timeout at work.
    fake.push({ kind: 'hang', afterText: 'thinking…' });
    const run = await runCli(['-p', 'hi'], {
      project,
      modelUrl: fake.url,
      env: { GEEKAGENT_REQUEST_TIMEOUT: '0.5' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `model request timed out: no data for 0.5 s from ${fake.url} (GEEKAGENT_REQUEST_TIMEOUT)`,
    );
  });

  it('in the TUI, a timed-out turn is rolled back and the next message works', async () => {
    fake.push({ kind: 'hang', afterText: 'half an ans' }, { text: 'Recovered fine.' });
    const tui = spawnTui({ project, modelUrl: fake.url, env: { GEEKAGENT_REQUEST_TIMEOUT: '0.5' } });
    sessions.push(tui);
    await tui.waitFor('GeekAgent — MCP-first');
    tui.send('first question');
    tui.send(KEYS.enter);
    await tui.waitFor('model request timed out: no data for 0.5 s');
    tui.send('second question');
    tui.send(KEYS.enter);
    await tui.waitFor('Recovered fine.');
    const users = fake.requests[1]!.body.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['second question']);
    expect(toolMessages(fake.requests[1]!.body)).toEqual([]);
  });

  it('names a 200 HTML page (captive portal, wrong base URL) as such', async () => {
    fake.push({
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      body: '<html><body>Sign in to Wi-Fi</body></html>',
    });
    const run = await runCli(['-p', 'hi'], { project, modelUrl: fake.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `model endpoint ${fake.url} answered 200 with an HTML page, not a chat completion stream — check OPENAI_BASE_URL`,
    );
  });

  it('refuses out-of-range numeric settings, naming the variable', async () => {
    for (const [name, value] of [
      ['GEEKAGENT_MAX_RETRIES', '-1'],
      ['GEEKAGENT_CONTEXT_WINDOW', '1e99'],
      ['GEEKAGENT_REQUEST_TIMEOUT', '99999999999'],
    ] as const) {
      const run = await runCli(['-p', 'hi'], { project, modelUrl: fake.url, env: { [name]: value } });
      expect(run.code, name).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`^geekagent: ${name} must be a .* from .* to \\d+, got "${value.replace('.', '\\.')}"`),
      );
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('config files', () => {
  it('accepts a UTF-8 BOM in GeekAgent.json and mcp.json', async () => {
    await project.write(
      '.geekagent/GeekAgent.json',
      `\uFEFF${JSON.stringify({ root: '..', tools: { write: 'deny' } })}`,
    );
    await project.write(
      '.geekagent/mcp.json',
      `\uFEFF${JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [DEMO_SERVER] } } })}`,
    );
    fake.push({ toolCalls: [call('write', { path: 'x.txt', content: 'x' })] }, { text: 'denied' });
    const run = await runCli(json(), { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    expect(parseJsonOutput(run).tool_calls[0]).toMatchObject({ decision: 'deny' });
    const list = await runCli(['mcp', 'list'], { project });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('demo (2 tools)');
  });

  it('refuses mcp.json timeouts that would overflow Node timers, naming the file and path', async () => {
    await project.mcpServers({
      slow: { command: process.execPath, args: [DEMO_SERVER], timeout: 1e12 },
      slower: { command: process.execPath, args: [DEMO_SERVER], startupTimeout: 99999999999 },
      huge: { command: process.execPath, args: [DEMO_SERVER], maxResultTokens: 1e15 },
    });
    const run = await runCli(['mcp', 'list', '--json'], { project });
    const file = path.join(project.dir, '.geekagent', 'mcp.json');
    const list = JSON.parse(run.stdout) as Array<{ name: string; status: string; error?: string }>;
    expect(list.map((server) => [server.name, server.status])).toEqual([
      ['slow', 'failed'],
      ['slower', 'failed'],
      ['huge', 'failed'],
    ]);
    expect(list[0]!.error).toBe(
      `${file}: at mcpServers.slow.timeout: must be at most 2147483647 (milliseconds, about 24.8 days)`,
    );
    expect(list[1]!.error).toBe(
      `${file}: at mcpServers.slower.startupTimeout: must be at most 2147483647 (milliseconds, about 24.8 days)`,
    );
    expect(list[2]!.error).toBe(`${file}: at mcpServers.huge.maxResultTokens: must be at most 100000000`);
  });
});
