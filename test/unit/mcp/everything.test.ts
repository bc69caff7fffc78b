/**
 * GeekAgent's MCP layer against @modelcontextprotocol/server-everything, over stdio and over
 * Streamable HTTP (loopback only): tools, resources, prompts, elicitation, sampling answered by
 * the (fake) model, roots, progress and logging. Offline: the gzip and URL-elicitation features
 * that reach the internet are not used.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rootOf } from '../../../src/app/create-mcp.js';
import { createToolSet } from '../../../src/extensions/tool-set.js';
import type { ClientFeatures, ElicitationRequest } from '../../../src/mcp/client-features.js';
import { loadMcpConfig } from '../../../src/mcp/config.js';
import * as connections from '../../../src/mcp/connection-layer.js';
import { McpManager } from '../../../src/mcp/manager.js';
import { readResource } from '../../../src/mcp/resources.js';
import { modelSampling } from '../../../src/mcp/sampling.js';
import { createTransportFactory } from '../../../src/mcp/transports.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { createProvider } from '../../../src/providers/registry.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolProgress } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';
import { type FakeModel, startFakeModel } from '../../fixtures/fake-model.js';
import { waitFor } from '../../helpers/wait.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const LOOPBACK = path.join(ROOT, 'test/fixtures/loopback-only.mjs');

let httpServer: ChildProcess | undefined;
let sseServer: ChildProcess | undefined;
let httpUrl = '';
let sseUrl = '';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** server-everything in a network mode, bound to loopback, on `port`; resolves once it listens. */
async function startEverything(mode: 'streamableHttp' | 'sse', port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', LOOPBACK, EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk;
      if (/listening|running/i.test(stderr)) resolve();
    });
    child.once('exit', () => reject(new Error(`server-everything ${mode} exited: ${stderr}`)));
  });
  return child;
}

function stop(child: ChildProcess | undefined): void {
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

beforeAll(async () => {
  const [httpPort, ssePort] = [await freePort(), await freePort()];
  [httpServer, sseServer] = await Promise.all([
    startEverything('streamableHttp', httpPort),
    startEverything('sse', ssePort),
  ]);
  httpUrl = `http://127.0.0.1:${httpPort}/mcp`;
  sseUrl = `http://127.0.0.1:${ssePort}/sse`;
});

afterAll(() => {
  stop(httpServer);
  stop(sseServer);
});

let dir: string;
let fake: FakeModel;
let tracker: ProcessGroupTracker;
let manager: McpManager | undefined;
let registry: ToolRegistry;
const elicitations: ElicitationRequest[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-everything-'));
  fake = await startFakeModel();
  tracker = new ProcessGroupTracker({ reaper: false });
  registry = new ToolRegistry();
  elicitations.length = 0;
});

afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
  tracker.killAll();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

async function connect(entry: Record<string, unknown>) {
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  await writeFile(
    path.join(dir, '.geekagent', 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: entry } }),
  );
  const provider = createProvider({
    provider: 'openai',
    keyVariable: 'OPENAI_API_KEY',
    baseURL: fake.url,
    apiKey: 'k',
    model: 'fake',
    contextWindow: 1000,
    maxRetries: 0,
  });
  const features: ClientFeatures = {
    elicitation: {
      elicit: async (request) => {
        elicitations.push(request);
        return { action: 'accept', content: { name: 'Ada', check: true, integer: 42 } };
      },
    },
    sampling: modelSampling(provider, { approve: async () => true }),
    roots: () => [rootOf(dir)],
  };
  manager = new McpManager({
    entries: await loadMcpConfig({ projectDir: dir, homeDir: path.join(dir, 'home'), env: process.env }),
    tools: createToolSet({ registry, policies: { ensureToolPolicy: () => undefined } }, 'mcp'),
    connections,
    createTransport: createTransportFactory(tracker, { authDir: path.join(dir, 'auth') }),
    logDir: path.join(dir, 'logs'),
    acceptsMedia: false,
    clientVersion: 'test',
    features,
  });
  manager.start();
  await manager.whenSettled();
  expect(manager.status('everything')?.state.state).toBe('connected');
  return manager.connection('everything')!;
}

const ctx = (onProgress?: (p: ToolProgress) => void) => ({
  signal: new AbortController().signal,
  onProgress,
  sandbox: new RootSandbox(dir),
  undo: { record: async () => undefined },
  env: {},
});

async function call(
  name: string,
  args: Record<string, unknown> = {},
  onProgress?: (p: ToolProgress) => void,
) {
  const tool = registry.get(`mcp_everything_${name}`);
  if (!tool) throw new Error(`no tool ${name}`);
  return String(await tool.run(args, ctx(onProgress)));
}

describe.each([
  ['stdio', () => ({ command: process.execPath, args: [EVERYTHING, 'stdio'] })],
  ['Streamable HTTP', () => ({ type: 'http', url: httpUrl })],
  ['legacy SSE', () => ({ type: 'sse', url: sseUrl })],
])('server-everything over %s', (_transport, entry) => {
  it('calls tools and reads resources (also through the model-callable resource tools)', async () => {
    const connection = await connect(entry());
    expect(await call('echo', { message: 'hi there' })).toContain('hi there');
    expect(connection.extras.resources.length).toBeGreaterThan(0);
    const uri = connection.extras.resources.find((r) => r.uri.endsWith('features.md'))!.uri;
    expect(String(await readResource(connection, uri, { acceptsMedia: false }))).toContain(
      `[resource ${uri}]`,
    );
    expect(await call('list_resources')).toContain(uri);
    expect(await call('read_resource', { uri })).toContain(uri);
  });

  it('lists prompts and gets one with arguments', async () => {
    const connection = await connect(entry());
    expect(connection.extras.prompts.map((p) => p.name)).toContain('args-prompt');
    const result = await connection.getPrompt('args-prompt', { city: 'Paris' });
    expect(JSON.stringify(result.messages)).toContain('Paris');
  });

  it('answers an elicitation through the face’s handler', async () => {
    await connect(entry());
    const out = await call('trigger-elicitation-request');
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]!.schema.type).toBe('object');
    expect(out).toContain('Ada');
  });

  it('answers a sampling request with the configured model', async () => {
    await connect(entry());
    fake.push({ text: 'a haiku about the sea' });
    const out = await call('trigger-sampling-request', { prompt: 'write a haiku', maxTokens: 50 });
    expect(out).toContain('a haiku about the sea');
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('write a haiku');
  });

  it('offers the permission root as its root', async () => {
    await connect(entry());
    expect(await call('get-roots-list')).toContain(rootOf(dir).uri);
  });

  it('shows progress of the long-running operation', async () => {
    await connect(entry());
    const seen: ToolProgress[] = [];
    await call('trigger-long-running-operation', { duration: 1, steps: 3 }, (p) => seen.push(p));
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]).toMatchObject({ progress: 1, total: 3 });
  });

  it('writes notifications/message to the server log', async () => {
    await connect(entry());
    await call('toggle-simulated-logging');
    const lines = await waitFor(
      () => {
        const tail = manager!.logTail('everything', 50) ?? [];
        return (
          tail.some((line) => /^\[(debug|info|notice|warning|error|critical|alert|emergency)\]/.test(line)) &&
          tail
        );
      },
      { timeoutMs: 15_000, what: 'a logging notification' },
    );
    expect(lines.length).toBeGreaterThan(0);
  });
});

describe('remote transports', () => {
  it('falls back to SSE when an http entry points at an SSE-only server', async () => {
    const connection = await connect({ type: 'http', url: sseUrl });
    expect(await call('echo', { message: 'via sse' })).toContain('via sse');
    expect(connection.definition.transport).toBe('http');
    expect(manager!.logTail('everything', 20)!.some((line) => line.includes('trying SSE'))).toBe(true);
  });

  it('retries a lost HTTP connection with backoff and comes back when the server does', async () => {
    const port = await freePort();
    let server: ChildProcess | undefined = await startEverything('streamableHttp', port);
    try {
      await connect({ type: 'http', url: `http://127.0.0.1:${port}/mcp` });
      stop(server);
      await expect(call('echo', { message: 'x' })).rejects.toThrow();
      await waitFor(() => manager!.status('everything')!.state.state !== 'connected', {
        what: 'the loss to show',
      });
      const state = manager!.status('everything')!.state;
      expect(state.state === 'failed' || state.state === 'connecting').toBe(true);
      server = await startEverything('streamableHttp', port);
      await waitFor(() => manager!.status('everything')!.state.state === 'connected', {
        timeoutMs: 20_000,
        what: 'the reconnect',
      });
      expect(await call('echo', { message: 'back again' })).toContain('back again');
    } finally {
      stop(server);
    }
  });
});
