/**
 * GroupStdioTransport, mostly under the SDK Client against real fixture servers: crashes noticed at
 * once (even with a grandchild holding stdout), whole process groups killed, garbage and oversized
 * lines survived, 10 MB results intact, stderr floods drained, the environment exactly as given.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerLog } from '../../../src/mcp/server-log.js';
import { GroupStdioTransport, type StdioLaunch } from '../../../src/mcp/stdio-transport.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { isAlive, waitFor } from '../../helpers/wait.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/mcp');
const DEMO = path.resolve(import.meta.dirname, '../../../examples/demo-server.mjs');

let tracker: ProcessGroupTracker;
let dir: string;
const transports: GroupStdioTransport[] = [];
const clients: Client[] = [];

beforeEach(async () => {
  tracker = new ProcessGroupTracker({ reaper: false });
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-stdio-'));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  tracker.killAll();
  await rm(dir, { recursive: true, force: true });
});

interface Options {
  env?: Record<string, string>;
  onStderrLine?: (line: string) => void;
  maxMessageBytes?: number;
  closeGraceMs?: number;
  cwd?: string;
}

function transportFor(launch: StdioLaunch, options: Options = {}) {
  const transport = new GroupStdioTransport({ launch, tracker, ...options });
  transports.push(transport);
  return transport;
}

const node = (script: string, options: Options = {}): StdioLaunch => ({
  command: process.execPath,
  args: [script],
  env: { ...getDefaultEnvironment(), ...options.env },
  cwd: options.cwd,
});

async function connect(script: string, options: Options = {}) {
  const transport = transportFor(node(script, options), options);
  const errors: string[] = [];
  let closes = 0;
  const client = new Client({ name: 'test', version: '1' });
  client.onerror = (error) => errors.push(error.message);
  client.onclose = () => closes++;
  await client.connect(transport);
  clients.push(client);
  return { client, transport, errors, closes: () => closes };
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((part) => part.text ?? '').join('');
const echo = async (client: Client, value: string) =>
  text(await client.callTool({ name: 'echo', arguments: { text: value } }));
const readPid = (file: string) => waitFor(() => readFile(file, 'utf8').then(Number, () => undefined));

describe('GroupStdioTransport with the SDK Client', () => {
  it('lists and calls the demo server’s tools', async () => {
    const { client } = await connect(DEMO);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['word_count', 'dice']);
    const counted = await client.callTool({
      name: 'word_count',
      arguments: { text: 'Model Context Protocol' },
    });
    expect(text(counted)).toBe('Characters 22, words 3');
    expect(text(await client.callTool({ name: 'dice', arguments: {} }))).toMatch(/^Roll: [1-6]$/);
  });

  it('survives lines on stdout that are not JSON-RPC, and reports each', async () => {
    const { client, errors } = await connect(path.join(FIXTURES, 'garbage.mjs'));
    expect(await echo(client, 'still fine')).toBe('still fine');
    expect(await echo(client, 'and again')).toBe('and again');
    expect(errors).toContain('ignored a line that is not JSON-RPC: *** garbage server v1 starting ***');
    expect(errors).toContain('ignored a line that is not JSON-RPC: {"hello":"not a JSON-RPC message"}');
    expect(errors.filter((e) => e.endsWith('log: about to answer {not json')).length).toBeGreaterThanOrEqual(
      3,
    );
  });

  it('rejects a pending call as soon as the server exits, with its exit code', async () => {
    const { client, transport, errors, closes } = await connect(path.join(FIXTURES, 'crash.mjs'));
    // Left alone, the SDK's own timeout would end this call with "Request timed out": "Connection
    // closed" says the exit ended it (a reason, not a clock; the test timeout is the stuck-guard).
    const call = client.callTool({ name: 'crash', arguments: {} }, undefined, { timeout: 20_000 });
    await expect(call).rejects.toThrow(/Connection closed/);
    expect(transport.exit).toEqual({ code: 3, signal: null });
    expect(errors).toContain('server exited with code 3');
    expect(closes()).toBe(1);
    expect(tracker.size).toBe(0);
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 99 })).rejects.toThrow(
      'server is not running',
    );
  });

  it('notices the exit at once although a grandchild holds stdout, and kills the grandchild', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const { client, transport } = await connect(path.join(FIXTURES, 'grandchild.mjs'), {
      env: { PID_FILE: pidFile },
    });
    const grandchild = await readPid(pidFile);
    expect(isAlive(grandchild)).toBe(true);
    // Ended by the exit ("Connection closed"), not by the SDK's timeout, while the grandchild
    // still holds stdout open.
    const call = client.callTool({ name: 'crash', arguments: {} }, undefined, { timeout: 20_000 });
    await expect(call).rejects.toThrow(/Connection closed/);
    expect(transport.exit).toEqual({ code: 4, signal: null });
    await waitFor(() => !isAlive(grandchild), { what: 'the grandchild to die' });
  });

  it('close() takes the whole process group down, grandchild included', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const { client, transport, closes } = await connect(path.join(FIXTURES, 'grandchild.mjs'), {
      env: { PID_FILE: pidFile },
      closeGraceMs: 300,
    });
    const grandchild = await readPid(pidFile);
    const server = transport.pid!;
    // The grandchild keeps the server's event loop alive, so ending stdin is not enough: this
    // goes through SIGTERM to the group.
    await client.close();
    expect(transport.exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(isAlive(server)).toBe(false);
    await waitFor(() => !isAlive(grandchild), { what: 'the grandchild to die' });
    expect(tracker.size).toBe(0);
    expect(closes()).toBe(1);
  });

  it('gives the server exactly the environment and working directory it was launched with', async () => {
    const { client } = await connect(path.join(FIXTURES, 'env.mjs'), { env: { ONLY_THIS: 'yes' }, cwd: dir });
    const result = JSON.parse(text(await client.callTool({ name: 'env', arguments: {} })));
    const { env, cwd } = result as { env: Record<string, string>; cwd: string };
    expect(cwd).toBe(await import('node:fs/promises').then((fs) => fs.realpath(dir)));
    expect(env.ONLY_THIS).toBe('yes');
    expect(env.PATH).toBe(process.env.PATH);
    const allowed = new Set([...Object.keys(getDefaultEnvironment()), 'ONLY_THIS']);
    // Node itself may add a variable or two at start-up, but nothing of ours beyond what we gave.
    const leaked = Object.keys(env).filter((key) => !allowed.has(key) && key in process.env);
    expect(leaked).toEqual([]);
  });

  it('decodes UTF-8 exactly in results that span many chunks, and ASCII ones after them', async () => {
    const { client } = await connect(path.join(FIXTURES, 'garbage.mjs'));
    // Odd-length multi-byte runs so characters straddle the pipe's chunk boundaries.
    const unicode = 'héllo ✓ 🎲 ünïcödé — '.repeat(20_000);
    expect(await echo(client, unicode)).toBe(unicode);
    const ascii = 'plain '.repeat(10_000);
    expect(await echo(client, ascii)).toBe(ascii);
    expect(await echo(client, 'ß')).toBe('ß');
  });

  it('carries a 10 MB result intact', async () => {
    const { client } = await connect(path.join(FIXTURES, 'content.mjs'));
    const result = await client.callTool({ name: 'big', arguments: { mb: 10 } }, undefined, {
      timeout: 30_000,
    });
    const body = text(result);
    expect(body.length).toBe(10 * 1024 * 1024);
    expect(/^y+$/.test(body)).toBe(true);
  });

  it('fails a response above maxMessageBytes at once, and the connection keeps working', async () => {
    const { client, errors } = await connect(path.join(FIXTURES, 'content.mjs'), {
      maxMessageBytes: 1024 * 1024,
    });
    // Failed by the limit (its own message), not by the SDK's timeout.
    const call = client.callTool({ name: 'big', arguments: { mb: 2 } }, undefined, { timeout: 20_000 });
    await expect(call).rejects.toThrow(/message from the server: larger than the 1048576-byte limit/);
    expect(errors.some((e) => /^discarded a \d+-byte message from the server/.test(e))).toBe(true);
    expect(text(await client.callTool({ name: 'image', arguments: {} }))).toBe('a pixel:');
    const small = await client.callTool({ name: 'big', arguments: { mb: 0.5 } });
    expect(text(small).length).toBe(512 * 1024);
  });

  it('drains a stderr flood while answering calls, with bounded log memory', async () => {
    const log = new ServerLog('flood', path.join(dir, 'logs', 'flood.log'), { maxLines: 50 });
    let lines = 0;
    const { client, transport } = await connect(path.join(FIXTURES, 'flood.mjs'), {
      env: { FLOOD_MB: '0' }, // floods until killed: every answer below comes during the flood
      onStderrLine: (line) => {
        lines++;
        log.append(line);
      },
    });
    await waitFor(() => lines >= 50, { what: 'the flood to start' });
    for (let i = 0; i < 5; i++) expect(await echo(client, `ping ${i}`)).toBe(`ping ${i}`);
    const seen = lines;
    await waitFor(() => lines >= seen + 200, { what: 'the flood to go on' });
    expect(log.tail().length).toBe(50);
    expect(log.tail()[0]).toMatch(/^x{4000}… \[\d+ characters cut\]$/);
    await client.close();
    expect(transport.exit).toBeDefined();
    await log.close();
  });
});

describe('GroupStdioTransport on its own', () => {
  it('frames CRLF, blank, split and batched lines; survives oversized ones; splits stderr lines', async () => {
    const stderr: string[] = [];
    const transport = transportFor(node(path.join(FIXTURES, 'raw-framing.mjs'), {}), {
      maxMessageBytes: 4096,
      onStderrLine: (line) => stderr.push(line),
    });
    const messages: JSONRPCMessage[] = [];
    const errors: string[] = [];
    let closed = 0;
    transport.onmessage = (message) => messages.push(message);
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => closed++;
    await transport.start();
    await waitFor(() => messages.length === 1, { what: 'the first message' });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await waitFor(() => closed === 1, { what: 'the exit' });

    const data = messages.map((m) => ('params' in m ? m.params?.data : undefined));
    expect(data).toEqual([1, 2, 3, 4, undefined, undefined, 5]);
    // Oversized responses are answered with an error for their id; the server request is not.
    expect(messages.filter((m) => 'error' in m).map((m) => ('id' in m ? m.id : undefined))).toEqual([
      'head-id',
      41,
    ]);
    expect(errors.filter((e) => e.startsWith('discarded a ')).length).toBe(3);
    expect(errors.filter((e) => e.startsWith('ignored a line'))).toEqual([]);
    expect(errors.at(-1)).toBe('server exited with code 0');
    expect(stderr).toEqual(['first part', 'second', `${'e'.repeat(8192)}… [line cut]`, 'last words']);
  });

  it('close() escalates to SIGKILL for a server that ignores stdin EOF and SIGTERM', async () => {
    const ignoring = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1e6); console.error('ready')";
    let ready = false;
    const transport = transportFor(
      { command: process.execPath, args: ['-e', ignoring], env: getDefaultEnvironment() },
      { closeGraceMs: 200, onStderrLine: (line) => (ready ||= line === 'ready') },
    );
    const errors: string[] = [];
    transport.onerror = (error) => errors.push(error.message);
    await transport.start();
    await waitFor(() => ready, { what: 'the SIGTERM handler' });
    const first = transport.close();
    expect(transport.close()).toBe(first);
    await first;
    expect(transport.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(errors).toEqual([]); // we closed it: its death is no error
  });

  it('close() of a server that exits on stdin EOF needs no signal', async () => {
    const transport = transportFor(node(DEMO), { closeGraceMs: 30_000 });
    await transport.start();
    await transport.close();
    // Exit code 0 and no signal: it ended on EOF; the 30 s grace would have ended in SIGTERM.
    expect(transport.exit).toEqual({ code: 0, signal: null });
  });

  it('waits out a full stdin once for all the sends behind it, with no listener-leak warning', async () => {
    const script = path.join(dir, 'slow-reader.mjs');
    // Reads (and drops) stdin; the sends below pass the pipe's 16 KiB mark within one tick.
    await writeFile(script, 'process.stdin.resume();\n');
    const transport = transportFor(node(script));
    await transport.start();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const padding = 'x'.repeat(4096);
      const sends = Array.from({ length: 100 }, (_, i) =>
        transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { i, padding } }),
      );
      await Promise.all(sends);
      // Node reports a leak warning on a later tick: let it arrive if one was raised.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('rejects the sends waiting on a full stdin when the server goes', async () => {
    const script = path.join(dir, 'never-reads.mjs');
    await writeFile(script, 'setInterval(() => undefined, 1000);\n');
    const transport = transportFor(node(script), { closeGraceMs: 50 });
    await transport.start();
    const padding = 'x'.repeat(4096);
    const sends = Array.from({ length: 100 }, (_, i) =>
      transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { i, padding } }),
    );
    const settled = Promise.allSettled(sends);
    await transport.close();
    const outcomes = await settled;
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThan(0);
    for (const outcome of outcomes)
      if (outcome.status === 'rejected') expect(String(outcome.reason)).toContain('server is not running');
  });

  it('close() before start() resolves and reports the close once', async () => {
    const transport = transportFor(node(DEMO));
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.close();
    await transport.close();
    expect(closed).toBe(1);
    await expect(transport.start()).rejects.toThrow('already started');
  });

  it('explains spawn failures: missing command, not executable, missing working directory', async () => {
    const env = { PATH: '/nowhere:/also-nowhere' };
    const missing = transportFor({ command: 'definitely-not-a-command-xyz', args: [], env });
    await expect(missing.start()).rejects.toThrow(
      'command not found: definitely-not-a-command-xyz (not on the PATH the server gets: /nowhere:/also-nowhere;',
    );
    const script = path.join(dir, 'not-executable.sh');
    await writeFile(script, '#!/bin/sh\necho hi\n');
    await chmod(script, 0o644);
    const denied = transportFor({ command: script, args: [], env: getDefaultEnvironment() });
    await expect(denied.start()).rejects.toThrow(`permission denied running ${script}`);
    const nowhere = path.join(dir, 'no-such-dir');
    const badCwd = transportFor({ ...node(DEMO), cwd: nowhere });
    await expect(badCwd.start()).rejects.toThrow(`working directory not found: ${nowhere}`);
    expect(tracker.size).toBe(0);
  });
});
