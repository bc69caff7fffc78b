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

/**
 * The environment of a bench CLI run (`-p …`) against the bench's fake OpenAI model at `modelUrl`,
 * in `project` (its own HOME), with `extra` on top.
 */
export function cliEnv(project, modelUrl, extra = {}) {
  return {
    PATH: process.env.PATH,
    HOME: project.home,
    LANG: 'C.UTF-8',
    OPENAI_API_KEY: 'x',
    OPENAI_BASE_URL: modelUrl,
    OPENAI_MODEL: 'bench-model',
    GEEKAGENT_MAX_RETRIES: '0',
    ...extra,
  };
}

/**
 * One agent run (`command args`) in its own process group with its output kept: `exited` resolves
 * with its exit code; past `timeoutMs` it is killed. `done()` ends the timer and kills whatever is
 * left of the group.
 */
export function spawnRun(command, args, { cwd, env, timeoutMs = 60_000 }) {
  const child = spawnGroup(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const timer = setTimeout(() => killQuietly(-child.pid), timeoutMs);
  return {
    child,
    exited,
    output: () => output,
    done: () => {
      clearTimeout(timer);
      killQuietly(-child.pid);
    },
  };
}

/**
 * Spawns an agent's one-prompt run and returns ms from spawn to its first model request, how many
 * MCP tools (`mcp_…`, Claude Code's `mcp__…`) that request declared, and what `atRequest(child)`
 * took as it arrived; waits for a clean exit (bench/claude-code.mjs runs Claude Code through it too).
 */
export async function firstRequestOnce(model, command, args, { cwd, env, atRequest, timeoutMs }) {
  let run;
  const request = model.next(atRequest && (() => atRequest(run.child)));
  const t0 = now();
  run = spawnRun(command, args, { cwd, env, timeoutMs });
  const name = path.basename(command);
  try {
    const first = await Promise.race([request, run.exited.then(() => null)]);
    if (!first) throw new Error(`${name} exited before any model request:\n${run.output()}`);
    const names = (JSON.parse(first.body).tools ?? []).map((t) => t.function?.name ?? t.name ?? '');
    const code = await run.exited;
    if (code !== 0) throw new Error(`${name} exited with ${code}:\n${run.output()}`);
    const tools = names.filter((toolName) => toolName.startsWith('mcp_')).length;
    return { ms: first.arrived - t0, tools, first, output: run.output() };
  } finally {
    run.done();
  }
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
