/**
 * The start-up grace (mcp/start-grace.ts) against a real manager and real stdio servers: a server
 * held at start by a gate file is waited for only for the grace and named late (for good); a second
 * wait does not wait; a call to its tool and `all()` (tool search) wait until it is up; a tool name
 * of no starting server does not wait; the grace counts from the servers' start, and `over` (the
 * init line's wait) leaves `late` open. The env setting is read with a clear problem when malformed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolSet } from '../../../src/extensions/tool-set.js';
import { loadMcpConfig } from '../../../src/mcp/config.js';
import * as connections from '../../../src/mcp/connection-layer.js';
import { McpManager } from '../../../src/mcp/manager.js';
import { START_GRACE_MS, StartGrace, startGraceMs } from '../../../src/mcp/start-grace.js';
import { createTransportFactory } from '../../../src/mcp/transports.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { ToolRegistry } from '../../../src/tools/registry.js';

const STDIO_2026 = path.resolve(import.meta.dirname, '../../fixtures/mcp2026/stdio-2026.mjs');
const DEMO = path.resolve(import.meta.dirname, '../../../examples/demo-server.mjs');

let dir: string;
let tracker: ProcessGroupTracker;
let manager: McpManager | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-grace-'));
  tracker = new ProcessGroupTracker({ reaper: false });
});

afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
  tracker.killAll();
  await rm(dir, { recursive: true, force: true });
});

async function start(
  servers: Record<string, unknown>,
): Promise<{ manager: McpManager; registry: ToolRegistry }> {
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  await writeFile(path.join(dir, '.geekagent', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  const entries = await loadMcpConfig({ projectDir: dir, homeDir: path.join(dir, 'home'), env: process.env });
  const registry = new ToolRegistry();
  manager = new McpManager({
    entries,
    tools: createToolSet({ registry, policies: { ensureToolPolicy: () => undefined } }, 'mcp'),
    connections,
    createTransport: createTransportFactory(tracker, { authDir: path.join(dir, 'auth') }),
    logDir: undefined,
    acceptsMedia: false,
    clientVersion: '0.0.0-test',
  });
  manager.start();
  return { manager, registry };
}

describe('the start-up grace', () => {
  it('waits for a server still starting only for the grace; its tool and all() wait for it', async () => {
    const gate = path.join(dir, 'gate');
    const { manager, registry } = await start({
      slow: { command: process.execPath, args: [STDIO_2026], env: { START_GATE: gate } },
    });
    const grace = new StartGrace(manager, 50);
    const signal = new AbortController().signal;
    expect(grace.late()).toEqual([]);
    await grace.wait(signal);
    expect(grace.late()).toEqual(['slow']);
    expect(grace.starting('slow')).toBe(true);
    expect(registry.get('mcp_slow_echo')).toBeUndefined();
    // A name of no starting server does not wait.
    await grace.toolOf('mcp_other_echo', signal);

    const arrived = grace.toolOf('mcp_slow_echo', signal).then(() => registry.get('mcp_slow_echo')?.name);
    await writeFile(gate, '');
    expect(await arrived).toBe('mcp_slow_echo');
    await grace.all(signal);
    expect(manager.pending()).toEqual([]);
    // Fixed for the run: the prompt that names it stays the same.
    await grace.wait(signal);
    expect(grace.late()).toEqual(['slow']);
  });

  it("counts the grace from the servers' start: a first request made after it waits for none", async () => {
    const gate = path.join(dir, 'gate');
    const { manager } = await start({
      slow: { command: process.execPath, args: [STDIO_2026], env: { START_GATE: gate } },
    });
    const startedAt = manager.startedAt;
    expect(startedAt).toBeTypeOf('number');
    // A person who took longer than the grace to type: the clock is past it when the request goes.
    // Counted from this first wait, the minute-long grace would hold it (the gate never opens).
    const grace = new StartGrace(manager, 60_000, () => startedAt! + 60_001);
    await grace.over(new AbortController().signal);
    expect(grace.late()).toEqual([]);
    await grace.wait(new AbortController().signal);
    expect(grace.late()).toEqual(['slow']);
  });

  it('names nothing late when the servers are up within the grace', async () => {
    const { manager } = await start({ demo: { command: process.execPath, args: [DEMO] } });
    const grace = new StartGrace(manager, 60_000);
    await grace.wait(new AbortController().signal);
    expect(grace.late()).toEqual([]);
    expect(manager.settled).toBe(true);
  });

  it('reads GEEKAGENT_MCP_START_GRACE_MS', () => {
    expect(startGraceMs({})).toEqual({ ms: START_GRACE_MS });
    expect(startGraceMs({ GEEKAGENT_MCP_START_GRACE_MS: '250' })).toEqual({ ms: 250 });
    expect(startGraceMs({ GEEKAGENT_MCP_START_GRACE_MS: 'soon' })).toEqual({
      ms: START_GRACE_MS,
      problem: 'GEEKAGENT_MCP_START_GRACE_MS=soon is not a whole number of milliseconds: using 1000',
    });
    // Digits only, and no more than a timer takes.
    for (const text of ['1e3', '0x10', '-5', '2.5', '9999999999'])
      expect(startGraceMs({ GEEKAGENT_MCP_START_GRACE_MS: text })).toEqual({
        ms: START_GRACE_MS,
        problem: `GEEKAGENT_MCP_START_GRACE_MS=${text} is not a whole number of milliseconds: using 1000`,
      });
  });
});
