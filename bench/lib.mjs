// Shared bench helpers: paths, statistics, server definitions, the agent's MCP stack built from
// dist/ and the plain-SDK baseline client, plus process/temp-folder bookkeeping for cleanup.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createToolSet } from '../dist/extensions/tool-set.js';
import * as connections from '../dist/mcp/connection-layer.js';
import { McpManager } from '../dist/mcp/manager.js';
import { createTransportFactory } from '../dist/mcp/transports.js';
import { PolicyStore } from '../dist/permissions/policy.js';
import { ProcessGroupTracker } from '../dist/process/group-tracker.js';
import { ToolRegistry } from '../dist/tools/registry.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
export const DEMO = path.join(ROOT, 'examples', 'demo-server.mjs');
export const CONTENT = path.join(ROOT, 'test', 'fixtures', 'mcp', 'content.mjs');
export const MANY_TOOLS = path.join(ROOT, 'test', 'fixtures', 'mcp', 'many-tools.mjs');

export const now = () => performance.now();
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values) {
  return percentile(values, 50);
}

/** Nearest-rank percentile of unsorted values. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** A stdio server definition the way config.ts produces it (defaults from config.ts). */
export function definition(name, script, { env = {}, args = [] } = {}) {
  return {
    name,
    source: 'project',
    file: path.join(ROOT, 'bench', 'mcp.json'),
    timeoutMs: 10_000,
    startupTimeoutMs: 30_000,
    disabled: false,
    maxResultTokens: 25_000,
    transport: 'stdio',
    command: process.execPath,
    args: [script, ...args],
    env,
    cwd: ROOT,
  };
}

/**
 * The agent's MCP stack as create-app.ts wires it: registry, policy store (allowing `allow`
 * patterns at the cli layer), manager with our process-group transport. Logs stay in memory.
 */
export function agentMcp(definitions, { allow = [], concurrency } = {}) {
  const tracker = new ProcessGroupTracker();
  const registry = new ToolRegistry();
  const policies = new PolicyStore({
    layers: [{ label: 'cli', rules: Object.fromEntries(allow.map((p) => [p, 'allow'])) }],
  });
  const manager = new McpManager({
    entries: definitions.map((d) => ({ name: d.name, kind: 'ok', definition: d })),
    // The servers' tools reach the registry and the policies as the MCP extension puts them there.
    tools: createToolSet({ registry, policies }, 'mcp'),
    connections,
    createTransport: createTransportFactory(tracker, { authDir: '/nonexistent' }),
    logDir: undefined,
    acceptsMedia: false,
    clientVersion: 'bench',
    ...(concurrency ? { concurrency } : {}),
  });
  return {
    manager,
    registry,
    policies,
    tracker,
    async close() {
      try {
        await manager.shutdown();
      } finally {
        tracker.killAll('SIGKILL');
        tracker.dispose();
      }
    },
  };
}

/** Plain SDK baseline: Client + StdioClientTransport, connect (initialize) + listTools. */
export async function sdkConnect(def, { maxBufferSize } = {}) {
  const transport = new StdioClientTransport({
    command: def.command,
    args: def.args,
    env: def.env,
    cwd: def.cwd,
    stderr: 'pipe',
    ...(maxBufferSize ? { maxBufferSize } : {}),
  });
  const client = new Client({ name: 'sdk-baseline', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { client, transport, tools };
}

/** Closes SDK clients; the SDK's close() ends stdin, then SIGTERMs, then SIGKILLs its child. */
export async function sdkCloseAll(connections) {
  await Promise.allSettled(connections.map((c) => c?.client.close()));
}

export function killQuietly(pid, signal = 'SIGKILL') {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Every detached child the bench spawns itself, so run.mjs can kill the groups on any exit. */
const spawnedGroups = new Set();

export function spawnGroup(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid) spawnedGroups.add(child.pid);
  child.once('exit', () => spawnedGroups.delete(child.pid));
  return child;
}

export function killSpawnedGroups() {
  for (const pgid of spawnedGroups) killQuietly(-pgid);
  spawnedGroups.clear();
}

const tempDirs = new Set();

export async function tempDir(prefix) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `geekagent-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export async function removeTempDirs() {
  await Promise.allSettled([...tempDirs].map((dir) => rm(dir, { recursive: true, force: true })));
  tempDirs.clear();
}

/**
 * Runs every variant once per rep, rotating which goes first, so each sees the same machine load
 * (the checkout is shared: other work comes and goes). Returns the samples by variant name.
 */
export async function rotate(reps, variants) {
  const names = Object.keys(variants);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      samples[name].push(await variants[name]());
    }
  }
  return samples;
}
