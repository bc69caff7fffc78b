/**
 * GroupStdioTransport under the SDK Client, against real fixture servers: crashes noticed at once
 * (even with a grandchild holding stdout), process groups killed, garbage and oversized lines
 * survived, 10 MB results intact, stderr floods drained, the environment exactly as given.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerLog } from '../../../src/mcp/server-log.js';
import { GroupStdioTransport } from '../../../src/mcp/stdio-transport.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { isAlive, waitFor } from '../../helpers/wait.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/mcp');
const DEMO = path.resolve(import.meta.dirname, '../../../examples/demo-server.mjs');

let tracker: ProcessGroupTracker;
let dir: string;
const open: Array<{ client: Client; transport: GroupStdioTransport }> = [];

beforeEach(async () => {
  tracker = new ProcessGroupTracker({ reaper: false });
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-stdio-'));
});

afterEach(async () => {
  await Promise.all(open.splice(0).map(({ client }) => client.close().catch(() => undefined)));
  tracker.killAll();
  await rm(dir, { recursive: true, force: true });
});

async function connect(
  script: string,
  options: { env?: Record<string, string>; onStderrLine?: (line: string) => void; maxMessageBytes?: number } = {},
) {
  const transport = new GroupStdioTransport({
    launch: { command: process.execPath, args: [script], env: { ...getDefaultEnvironment(), ...options.env } },
    tracker,
    onStderrLine: options.onStderrLine,
    maxMessageBytes: options.maxMessageBytes,
  });
  const errors: string[] = [];
  const client = new Client({ name: 'test', version: '1' });
  client.onerror = (error) => errors.push(error.message);
  await client.connect(transport);
  open.push({ client, transport });
  return { client, transport, errors };
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((part) => part.text ?? '').join('');

describe('GroupStdioTransport', () => {
  it('lists and calls the demo server’s tools', async () => {
    const { client } = await connect(DEMO);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['word_count', 'dice']);
    expect(text(await client.callTool({ name: 'word_count', arguments: { text: 'Model Context Protocol' } }))).toBe(
      'Characters 22, words 3',
    );
  });

  it('survives garbage lines on stdout and reports them', async () => {
    const { client, errors } = await connect(path.join(FIXTURES, 'garbage.mjs'));
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'still fine' } }))).toBe('still fine');
    expect(errors.some((e) => e.startsWith('ignored a line that is not JSON-RPC: log: about to answer'))).toBe(true);
  });

  it('rejects a pending call as soon as the server exits, with its exit code', async () => {
    const { client, transport } = await connect(path.join(FIXTURES, 'crash.mjs'));
    const started = Date.now();
    await expect(client.callTool({ name: 'crash', arguments: { code: 3 } }, undefined, { timeout: 30_000 })).rejects.toThrow(
      /Connection closed/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(transport.exit).toEqual({ code: 3, signal: null });
  });

  it('notices the exit at once although a grandchild holds stdout, and kills the grandchild', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const { client } = await connect(path.join(FIXTURES, 'grandchild.mjs'), { env: { PID_FILE: pidFile } });
    const grandchild = Number(await waitFor(() => readFile(pidFile, 'utf8').catch(() => undefined)));
    expect(isAlive(grandchild)).toBe(true);
    const started = Date.now();
    await expect(client.callTool({ name: 'crash', arguments: {} }, undefined, { timeout: 30_000 })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(() => !isAlive(grandchild), { what: 'the grandchild to die' });
  });

  it('close() takes the whole process group down', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const { client, transport } = await connect(path.join(FIXTURES, 'grandchild.mjs'), { env: { PID_FILE: pidFile } });
    const grandchild = Number(await waitFor(() => readFile(pidFile, 'utf8').catch(() => undefined)));
    const server = transport.pid!;
    await client.close();
    expect(isAlive(server)).toBe(false);
    await waitFor(() => !isAlive(grandchild), { what: 'the grandchild to die' });
    expect(tracker.size).toBe(0);
  });

  it('fails to start a missing command with a clear message', async () => {
    const transport = new GroupStdioTransport({
      launch: { command: 'definitely-not-a-command-xyz', args: [], env: getDefaultEnvironment() },
      tracker,
    });
    await expect(transport.start()).rejects.toThrow(/^command not found: definitely-not-a-command-xyz/);
  });

  it('gives the server exactly the environment it was launched with', async () => {
    const { client } = await connect(path.join(FIXTURES, 'env.mjs'), { env: { ONLY_THIS: 'yes' } });
    const { env } = JSON.parse(text(await client.callTool({ name: 'env', arguments: {} }))) as {
      env: Record<string, string>;
    };
    expect(env.ONLY_THIS).toBe('yes');
    expect(env.OPENAI_API_KEY).toBeUndefined();
    const allowed = new Set(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'ONLY_THIS']);
    // Node may add a few of its own at start-up; nothing of the parent's beyond the allowlist.
    const leaked = Object.keys(env).filter((key) => !allowed.has(key) && key in process.env && !key.startsWith('npm_'));
    expect(leaked).toEqual([]);
  });

  it('carries a 10 MB result intact', async () => {
    const { client } = await connect(path.join(FIXTURES, 'content.mjs'));
    const result = await client.callTool({ name: 'big', arguments: { mb: 10 } }, undefined, { timeout: 30_000 });
    const body = text(result);
    expect(body.length).toBe(10 * 1024 * 1024);
    expect(body[0]).toBe('y');
  });

  it('drops an oversized message and keeps the connection', async () => {
    const { client, errors } = await connect(path.join(FIXTURES, 'content.mjs'), { maxMessageBytes: 1024 * 1024 });
    await expect(client.callTool({ name: 'big', arguments: { mb: 2 } }, undefined, { timeout: 1_000 })).rejects.toThrow(
      /timed out/i,
    );
    expect(errors.some((e) => e.includes('larger than 1048576 bytes'))).toBe(true);
    expect(text(await client.callTool({ name: 'image', arguments: {} }))).toBe('a pixel:');
  });

  it('drains a stderr flood while answering calls, with bounded log memory', async () => {
    const log = new ServerLog('flood', path.join(dir, 'flood.log'), { maxLines: 50 });
    let lines = 0;
    const { client } = await connect(path.join(FIXTURES, 'flood.mjs'), {
      env: { FLOOD_MB: '40' },
      onStderrLine: (line) => {
        lines++;
        log.append(line);
      },
    });
    for (let i = 0; i < 5; i++) {
      expect(text(await client.callTool({ name: 'echo', arguments: { text: `ping ${i}` } }))).toBe(`ping ${i}`);
    }
    await waitFor(() => lines >= 200, { what: 'stderr lines' });
    expect(log.tail(1000).length).toBeLessThanOrEqual(50);
    await log.close();
  });
});
