/**
 * A server flooding notifications cannot stall a call or grow our memory: progress reaches the
 * face at most every 100 ms (the latest value, before the result), log messages past the rate
 * are dropped and counted in the log. Against the real notify-flood fixture over stdio; the exact
 * accounting, and that flood lines skip the SDK's schema validation (what made a flood cost ~7x
 * the same bytes in one message), are in notification-flow.test.ts. (A CPU-ratio check here could
 * not tell the two apart on a fast machine: timed goals belong in `npm run bench`.)
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolSet } from '../../../src/extensions/tool-set.js';
import { nonInteractiveElicitation, refuseSampling } from '../../../src/mcp/client-features.js';
import { loadMcpConfig } from '../../../src/mcp/config.js';
import * as connections from '../../../src/mcp/connection-layer.js';
import { McpManager } from '../../../src/mcp/manager.js';
import { createTransportFactory } from '../../../src/mcp/transports.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolContext, ToolProgress } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

const FLOOD = path.resolve(import.meta.dirname, '../../fixtures/mcp/notify-flood.mjs');
const COUNT = 20_000;

let dir: string;
let tracker: ProcessGroupTracker;
let manager: McpManager | undefined;
let registry: ToolRegistry;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-flood-'));
  tracker = new ProcessGroupTracker({ reaper: false });
  registry = new ToolRegistry();
});

afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
  tracker.killAll();
  await rm(dir, { recursive: true, force: true });
});

const logFile = () => path.join(dir, '.geekagent', 'logs', 'flood.log');

async function start(): Promise<void> {
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  await writeFile(
    path.join(dir, '.geekagent', 'mcp.json'),
    JSON.stringify({ mcpServers: { flood: { command: process.execPath, args: [FLOOD], timeout: 120_000 } } }),
  );
  const entries = await loadMcpConfig({ projectDir: dir, homeDir: path.join(dir, 'home'), env: process.env });
  manager = new McpManager({
    entries,
    tools: createToolSet({ registry, policies: { ensureToolPolicy: () => undefined } }, 'mcp'),
    connections,
    createTransport: createTransportFactory(tracker, { authDir: path.join(dir, 'auth') }),
    logDir: path.join(dir, '.geekagent', 'logs'),
    acceptsMedia: false,
    clientVersion: '0.0.0-test',
    features: { elicitation: nonInteractiveElicitation(false), sampling: refuseSampling, roots: () => [] },
  });
  manager.start();
  await manager.whenSettled();
}

function context(onProgress?: (p: ToolProgress) => void): ToolContext {
  return {
    signal: new AbortController().signal,
    onProgress,
    sandbox: new RootSandbox(dir),
    undo: { record: async () => undefined },
    env: {},
  };
}

const run = (name: string, args: Record<string, unknown>, ctx = context()) =>
  registry.get(name)!.run(args, ctx);

describe('a server flooding notifications', () => {
  it('progress reaches the face at most every 100 ms, the latest value last, then the result', async () => {
    await start();
    const seen: ToolProgress[] = [];
    const started = Date.now();
    const result = await run(
      'mcp_flood_flood',
      { count: COUNT, kind: 'progress' },
      context((p) => seen.push(p)),
    );
    const elapsed = Date.now() - started;
    expect(result).toBe(`sent ${COUNT}`);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThanOrEqual(Math.floor(elapsed / 100) + 2);
    expect(seen.at(-1)?.progress).toBe(COUNT);
  });

  it('log messages past the rate are dropped and counted in the log, not written one by one', async () => {
    await start();
    const started = Date.now();
    expect(await run('mcp_flood_flood', { count: COUNT, kind: 'log' })).toBe(`sent ${COUNT}`);
    const elapsed = Date.now() - started;
    await manager!.shutdown();
    const log = await readFile(logFile(), 'utf8');
    const written = log.split('\n').filter((line) => / n=\d+ /.test(line)).length;
    expect(log).toMatch(/\[warning\] geekagent: … \d+ log messages dropped/);
    // At most 100 per 100 ms reach the log (plus the window still open at the end).
    expect(written).toBeLessThanOrEqual((Math.floor(elapsed / 100) + 2) * 100);
  });
});
