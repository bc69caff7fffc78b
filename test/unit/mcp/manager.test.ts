/**
 * The MCP manager and connections against real subprocess servers: concurrent start-up, failures
 * isolated per server, naming and schema repair, pagination and live re-listing, crash restarts
 * with stable names, timeouts with notifications/cancelled, progress, and server-everything.
 */
import { getEventListeners } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolSet } from '../../../src/extensions/tool-set.js';
import { loadMcpConfig, loadSkillServers } from '../../../src/mcp/config.js';
import * as connections from '../../../src/mcp/connection-layer.js';
import { McpManager } from '../../../src/mcp/manager.js';
import { createTransportFactory } from '../../../src/mcp/transports.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolContext, ToolProgress } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';
import { waitFor } from '../../helpers/wait.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/mcp');
const DEMO = path.resolve(import.meta.dirname, '../../../examples/demo-server.mjs');
const EVERYTHING = path.resolve(
  import.meta.dirname,
  '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

let dir: string;
let tracker: ProcessGroupTracker;
let manager: McpManager | undefined;
let registry: ToolRegistry;
const policies = new Map<string, string>();

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-mcp-'));
  tracker = new ProcessGroupTracker({ reaper: false });
  registry = new ToolRegistry();
  policies.clear();
});

afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
  tracker.killAll();
  await rm(dir, { recursive: true, force: true });
});

const node = (script: string, extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [script],
  ...extra,
});

async function start(servers: Record<string, unknown>, options: { restartDelayMs?: number } = {}) {
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  await writeFile(path.join(dir, '.geekagent', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  const entries = await loadMcpConfig({ projectDir: dir, homeDir: path.join(dir, 'home'), env: process.env });
  manager = new McpManager({
    entries,
    tools: createToolSet(
      { registry, policies: { ensureToolPolicy: (name, policy) => policies.set(name, policy) } },
      'mcp',
    ),
    connections,
    createTransport: createTransportFactory(tracker, { authDir: path.join(dir, 'auth') }),
    logDir: path.join(dir, '.geekagent', 'logs'),
    acceptsMedia: false,
    clientVersion: '0.0.0-test',
    restartPolicy: {
      maxAttempts: 3,
      baseDelayMs: options.restartDelayMs ?? 50,
      maxDelayMs: 200,
      stableAfterMs: 60_000,
    },
  });
  manager.start();
  await manager.whenSettled();
  return manager;
}

function context(signal = new AbortController().signal, onProgress?: (p: ToolProgress) => void): ToolContext {
  return {
    signal,
    onProgress,
    sandbox: new RootSandbox(dir),
    undo: { record: async () => undefined },
    env: {},
  };
}

async function run(name: string, args: Record<string, unknown> = {}, ctx = context()) {
  const tool = registry.get(name);
  if (!tool)
    throw new Error(
      `no tool ${name}; have ${registry
        .list()
        .map((t) => t.name)
        .join(', ')}`,
    );
  return tool.run(args, ctx);
}

describe('McpManager', () => {
  it('connects servers, registers mcp_<server>_<tool> with the [MCP:server] description and ask policy', async () => {
    const m = await start({ demo: node(DEMO), second: node(DEMO) });
    expect(m.statuses().map((s) => [s.name, s.state.state])).toEqual([
      ['demo', 'connected'],
      ['second', 'connected'],
    ]);
    const dice = registry.get('mcp_demo_dice')!;
    expect(dice.description).toBe('[MCP:demo] Roll a six-sided die and return the random result.');
    expect(policies.get('mcp_second_word_count')).toBe('ask');
    expect(await run('mcp_demo_word_count', { text: 'Model Context Protocol' })).toBe(
      'Characters 22, words 3',
    );
    expect(await run('mcp_demo_dice')).toMatch(/^Roll: [1-6]$/);
    const approval = await dice.describeApproval!({}, context());
    expect(approval.title).toBe('About to call MCP tool: mcp_demo_dice (from server demo)');
  });

  it('isolates failures: a missing command, a crash on start, a bad entry and a disabled server', async () => {
    const m = await start({
      missing: { command: 'no-such-binary-anywhere' },
      crashing: node(path.join(FIXTURES, 'crash.mjs'), { env: { CRASH_ON_START: '1' } }),
      broken: { command: 'node', args: [42] },
      off: node(DEMO, { disabled: true }),
      demo: node(DEMO),
    });
    const byName = Object.fromEntries(m.statuses().map((s) => [s.name, s.state]));
    expect(byName.missing).toMatchObject({ state: 'failed', during: 'startup' });
    expect(byName.missing?.state === 'failed' && byName.missing.error).toMatch(
      /^command not found: no-such-binary-anywhere/,
    );
    expect(byName.crashing?.state === 'failed' && byName.crashing.error).toBe(
      'server exited with code 2 during start-up: crash.mjs: refusing to start (CRASH_ON_START=1)',
    );
    expect(byName.broken?.state === 'failed' && byName.broken.error).toContain('mcpServers.broken.args[0]');
    expect(byName.off).toEqual({ state: 'disabled' });
    expect(byName.demo?.state).toBe('connected');
    expect(
      registry
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['mcp_demo_dice', 'mcp_demo_word_count']);
  });

  it('keeps model names within 64 characters, resolves collisions and repairs or skips schemas', async () => {
    const m = await start({ names: node(path.join(FIXTURES, 'names.mjs')) });
    const names = registry.list().map((t) => t.name);
    expect(names.every((n) => n.length <= 64 && /^[a-zA-Z0-9_-]+$/.test(n))).toBe(true);
    expect(names).toContain('mcp_names_get_item');
    expect(names.filter((n) => n.startsWith('mcp_names_get_item'))).toHaveLength(3);
    expect(names).toContain('mcp_names_weird_name_');
    const long = names.find((n) => n.startsWith('mcp_names_long_'))!;
    expect(long).toHaveLength(64);
    // The call goes out with the server's own name.
    expect(await run(long, { q: 'x' })).toBe(`called long_${'x'.repeat(75)} with {"q":"x"}`);
    expect(registry.get('mcp_names_no_type')!.parameters).toMatchObject({ type: 'object' });
    expect(JSON.stringify(registry.get('mcp_names_with_ref')!.parameters)).not.toContain('$ref');
    expect(registry.get('mcp_names_any_of')!.parameters).toMatchObject({ type: 'object' });
    expect(registry.get('mcp_names_hopeless')).toBeUndefined();
    const warnings = m.status('names')!.warnings;
    expect(warnings.some((w) => w.includes('"hopeless"') && w.includes('server names'))).toBe(true);
    expect(warnings.some((w) => w.includes('"get.item"') && w.includes('"get_item"'))).toBe(true);
  });

  it('lists paginated tools and follows tools/list_changed live', async () => {
    await start({ changing: node(path.join(FIXTURES, 'changing.mjs')) });
    expect(registry.list().map((t) => t.name)).toEqual([
      'mcp_changing_alpha',
      'mcp_changing_beta',
      'mcp_changing_gamma',
      'mcp_changing_add_tool',
      'mcp_changing_remove_tool',
    ]);
    await run('mcp_changing_add_tool', { name: 'delta' });
    await waitFor(() => registry.get('mcp_changing_delta'), { what: 'delta to be registered' });
    expect(await run('mcp_changing_delta')).toBe('delta ran');
    await run('mcp_changing_remove_tool', { name: 'alpha' });
    await waitFor(() => !registry.get('mcp_changing_alpha'), { what: 'alpha to be unregistered' });
  });

  it("keeps tool names apart from every configured server's, also one left out, and tells the policy store each tool's identity", async () => {
    const changing = (tools: string) =>
      node(path.join(FIXTURES, 'changing.mjs'), { env: { CHANGING_TOOLS: tools } });
    await mkdir(path.join(dir, '.geekagent'), { recursive: true });
    await writeFile(
      path.join(dir, '.geekagent', 'mcp.json'),
      JSON.stringify({ mcpServers: { gh: changing('x_read,list'), gh_x: changing('read') } }),
    );
    const entries = await loadMcpConfig({
      projectDir: dir,
      homeDir: path.join(dir, 'home'),
      env: process.env,
    });
    const identities = new Map<string, string>();
    manager = new McpManager({
      // Only gh_x runs (as `mcp call gh_x …` would), but gh is still configured.
      entries: entries.filter((entry) => entry.name === 'gh_x'),
      serverNames: entries.map((entry) => entry.name),
      tools: createToolSet(
        {
          registry,
          policies: {
            ensureToolPolicy: (name, policy) => policies.set(name, policy),
            registerMcpTool: (name, server, definition) =>
              identities.set(name, `${server}/${definition.name}`),
          },
        },
        'mcp',
      ),
      connections,
      createTransport: createTransportFactory(tracker, { authDir: path.join(dir, 'auth') }),
      logDir: undefined,
      acceptsMedia: false,
      clientVersion: '0.0.0-test',
    });
    manager.start();
    await manager.whenSettled();
    const [name] = registry.list().map((tool) => tool.name);
    expect(name).toMatch(/^mcp_gh_x_read_[0-9a-f]{8}$/);
    expect(identities).toEqual(new Map([[name!, 'gh_x/read']]));
    expect(policies.get(name!)).toBe('ask');
    expect(manager.status('gh_x')!.warnings).toEqual([
      'tools "read" of server gh_x have names that could also be tools of server gh; they got a hash suffix',
    ]);
    const state = manager.status('gh_x')!.state;
    expect(state.state === 'connected' && state.tools[0]!.definition).toEqual({
      name: 'read',
      description: 'the read tool',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
  });

  it('restarts a crashed server with backoff; a call meanwhile waits and is served by it; names stay', async () => {
    const m = await start({ crash: node(path.join(FIXTURES, 'crash.mjs')) }, { restartDelayMs: 400 });
    const before = registry.list().map((t) => t.name);
    // The exit ends the call (this message), not the request timeout.
    await expect(run('mcp_crash_crash')).rejects.toThrow(
      'MCP server crash went away during tools/call "crash": server exited with code 3',
    );
    const state = m.status('crash')!.state;
    expect(state).toMatchObject({
      state: 'failed',
      during: 'runtime',
      retry: { attempt: 1, maxAttempts: 3 },
    });
    // Our own restart is no reason for the model to try again: the call waits for it.
    expect(await run('mcp_crash_echo', { text: 'x' })).toBe('x');
    expect(m.status('crash')!.state.state).toBe('connected');
    expect(registry.list().map((t) => t.name)).toEqual(before);
    expect(await run('mcp_crash_echo', { text: 'back' })).toBe('back');
  });

  it('times out a hanging call, sends notifications/cancelled, and stays usable', async () => {
    const cancelLog = path.join(dir, 'cancel.log');
    await start({
      hang: node(path.join(FIXTURES, 'hang.mjs'), { timeout: 500, env: { CANCEL_LOG: cancelLog } }),
    });
    await expect(run('mcp_hang_hang')).rejects.toThrow(
      /MCP server hang did not answer tools\/call "hang" within 0.5 s; the request was cancelled/,
    );
    await waitFor(() => readFile(cancelLog, 'utf8').catch(() => undefined), { what: 'the cancel to arrive' });
    expect(await run('mcp_hang_echo', { text: 'alive' })).toBe('alive');
  });

  it('aborting a call cancels it on the server', async () => {
    const cancelLog = path.join(dir, 'cancel.log');
    await start({ hang: node(path.join(FIXTURES, 'hang.mjs'), { env: { CANCEL_LOG: cancelLog } }) });
    const controller = new AbortController();
    const call = run('mcp_hang_hang', {}, context(controller.signal));
    // Aborted once the request is out (the SDK's listener is on the signal): one aborted before it
    // leaves is never sent, so there is nothing to cancel.
    await waitFor(() => getEventListeners(controller.signal, 'abort').length === 1, {
      what: 'the call to start',
    });
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await waitFor(() => readFile(cancelLog, 'utf8').catch(() => undefined))).toMatch(/^cancelled \d+/);
  });

  it('a turn signal serving many calls keeps none of their listeners; aborting it cancels only the running one', async () => {
    const cancelLog = path.join(dir, 'cancel.log');
    await start({ hang: node(path.join(FIXTURES, 'hang.mjs'), { env: { CANCEL_LOG: cancelLog } }) });
    const turn = new AbortController();
    for (let i = 0; i < 12; i++) {
      expect(await run('mcp_hang_echo', { text: `call ${i}` }, context(turn.signal))).toBe(`call ${i}`);
    }
    // The SDK adds one per request and never removes it: they would pile up for the whole turn.
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    const hanging = run('mcp_hang_hang', {}, context(turn.signal));
    await waitFor(() => getEventListeners(turn.signal, 'abort').length === 1, { what: 'the call to start' });
    turn.abort();
    await expect(hanging).rejects.toThrow();
    await waitFor(() => readFile(cancelLog, 'utf8').catch(() => undefined), { what: 'the cancel to arrive' });
    // One more round trip: any stray cancel for a finished call would have arrived before its answer.
    expect(await run('mcp_hang_echo', { text: 'after' })).toBe('after');
    expect((await readFile(cancelLog, 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
  });

  it('progress notifications reach the tool context and reset the request timeout', async () => {
    await start({ hang: node(path.join(FIXTURES, 'hang.mjs'), { timeout: 400 }) });
    const seen: ToolProgress[] = [];
    const out = await run(
      'mcp_hang_slow',
      { steps: 5, intervalMs: 200 },
      context(undefined, (p) => seen.push(p)),
    );
    expect(out).toBe('done after 5 steps');
    // The SDK may settle the response before dispatching the very last progress notification.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.map((p) => p.message)).toEqual(
      ['step 1 of 5', 'step 2 of 5', 'step 3 of 5', 'step 4 of 5', 'step 5 of 5'].slice(0, seen.length),
    );
    expect(seen[1]).toMatchObject({ progress: 2, total: 5 });
  });

  it('returns isError results as errors and converts media and resources', async () => {
    await start({ content: node(path.join(FIXTURES, 'content.mjs')) });
    await expect(run('mcp_content_fails')).rejects.toThrow('it failed on purpose');
    expect(await run('mcp_content_image')).toMatch(/^a pixel:\n\[image: image\/png, /);
    expect(await run('mcp_content_resource')).toContain('file:///notes/readme.txt');
    expect(await run('mcp_content_link')).toContain('file:///notes/big.log');
    expect(await run('mcp_content_structured')).toContain('"temperature":21.5');
    const big = String(await run('mcp_content_big', { mb: 10 }));
    expect(big.length).toBeLessThan(200_000);
    expect(big).toMatch(/\(result truncated: showing about 25000 of \d+ tokens; \d+ characters cut\)/);
  });

  it('gives stdio servers the minimal environment plus their declared env', async () => {
    process.env.GEEKAGENT_TEST_SECRET_KEY = 'should-not-leak';
    try {
      await start({
        env: node(path.join(FIXTURES, 'env.mjs'), { env: { DECLARED: '${HOME:-none}' }, cwd: '.geekagent' }),
      });
      const { env, cwd } = JSON.parse(String(await run('mcp_env_env'))) as {
        env: Record<string, string>;
        cwd: string;
      };
      expect(env.GEEKAGENT_TEST_SECRET_KEY).toBeUndefined();
      expect(env.DECLARED).toBe(process.env.HOME ?? 'none');
      expect(env.PATH).toBe(process.env.PATH);
      expect(cwd).toBe(path.join(dir, '.geekagent'));
    } finally {
      delete process.env.GEEKAGENT_TEST_SECRET_KEY;
    }
  });

  it('works with @modelcontextprotocol/server-everything over stdio', async () => {
    await start({ everything: node(EVERYTHING, { args: [EVERYTHING, 'stdio'] }) });
    expect(await run('mcp_everything_echo', { message: 'hello' })).toContain('hello');
    expect(await run('mcp_everything_get-sum', { a: 2, b: 3 })).toContain('5');
  });
});

describe('McpManager groups added at run time', () => {
  it('a manager started without servers loads the connection layer for a group, lists it, and removes it whole', async () => {
    manager = new McpManager({
      entries: [],
      tools: createToolSet(
        { registry, policies: { ensureToolPolicy: (name, policy) => policies.set(name, policy) } },
        'mcp',
      ),
      createTransport: () => {
        throw new Error('no server configured');
      },
      loadConnections: async () => ({
        connections,
        createTransport: createTransportFactory(tracker, { authDir: path.join(dir, 'auth') }),
      }),
      logDir: undefined,
      acceptsMedia: false,
      clientVersion: '0.0.0-test',
    });
    manager.start();
    await writeFile(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { sk: node(DEMO) } }));
    const entries = await loadSkillServers(path.join(dir, 'mcp.json'), {
      skillDir: dir,
      projectDir: dir,
      env: process.env,
      source: 'project',
    });
    const group = await manager.addServers('skill demo', entries);
    await group.whenSettled();
    expect(manager.statuses().map((s) => [s.name, s.state.state, s.group])).toEqual([
      ['sk', 'connected', 'skill demo'],
    ]);
    expect(group.toolNames()).toContain('mcp_sk_dice');
    expect(registry.get('mcp_sk_dice')).toBeDefined();
    expect(policies.get('mcp_sk_dice')).toBe('ask');
    await expect(manager.addServers('skill again', entries)).rejects.toThrow(
      /MCP server sk is not started: a server of that name already runs/,
    );

    await group.remove();
    expect(manager.statuses()).toEqual([]);
    expect(registry.list().filter((tool) => tool.name.startsWith('mcp_sk_'))).toEqual([]);
    expect(group.toolNames()).toEqual([]);
  });
});
