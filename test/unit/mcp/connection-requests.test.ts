/**
 * Prompts (and other requests than tool calls) go through `McpConnection` against a real fixture
 * server: the turn's signal cancels them on the server, a server that dies mid-request is named
 * with why, a signal serving many requests keeps none of the SDK's listeners, and a prompt to a
 * server that is restarting fails fast with the restart.
 */
import { getEventListeners } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolSet } from '../../../src/extensions/tool-set.js';
import { loadMcpConfig } from '../../../src/mcp/config.js';
import * as connections from '../../../src/mcp/connection-layer.js';
import { McpManager } from '../../../src/mcp/manager.js';
import { createTransportFactory } from '../../../src/mcp/transports.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { waitFor } from '../../helpers/wait.js';

const PROMPTS = path.resolve(import.meta.dirname, '../../fixtures/mcp/prompts.mjs');

let dir: string;
let tracker: ProcessGroupTracker;
let manager: McpManager | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-mcp-requests-'));
  tracker = new ProcessGroupTracker({ reaper: false });
});

afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
  tracker.killAll();
  await rm(dir, { recursive: true, force: true });
});

async function connect(env: Record<string, string> = {}) {
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  const server = { command: process.execPath, args: [PROMPTS], env };
  await writeFile(path.join(dir, '.geekagent', 'mcp.json'), JSON.stringify({ mcpServers: { p: server } }));
  const entries = await loadMcpConfig({ projectDir: dir, homeDir: path.join(dir, 'home'), env: process.env });
  manager = new McpManager({
    entries,
    tools: createToolSet(
      { registry: new ToolRegistry(), policies: { ensureToolPolicy: () => undefined } },
      'mcp',
    ),
    connections,
    createTransport: createTransportFactory(tracker, { authDir: path.join(dir, 'auth') }),
    logDir: path.join(dir, '.geekagent', 'logs'),
    acceptsMedia: false,
    clientVersion: '0.0.0-test',
    restartPolicy: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, stableAfterMs: 60_000 },
  });
  manager.start();
  await manager.whenSettled();
  return manager.connection('p')!;
}

describe('prompts through McpConnection', () => {
  it('the signal cancels a prompt on the server, and no SDK listener stays on it', async () => {
    const cancelLog = path.join(dir, 'cancel.log');
    const connection = await connect({ CANCEL_LOG: cancelLog });
    const turn = new AbortController();
    for (let i = 0; i < 5; i++) {
      const result = await connection.getPrompt('greet', { name: `n${i}` }, turn.signal);
      expect(result.messages[0]!.content).toEqual({ type: 'text', text: `Hello, n${i}!` });
    }
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    const hanging = connection.getPrompt('hang', {}, turn.signal);
    await waitFor(() => getEventListeners(turn.signal, 'abort').length === 1, {
      what: 'the request to start',
    });
    turn.abort();
    await expect(hanging).rejects.toThrow();
    // One more round trip on the same pipe: the cancel was read before this answer was written.
    await connection.getPrompt('greet', { name: 'after' });
    expect((await readFile(cancelLog, 'utf8')).trim()).toMatch(/^cancelled \d+$/);
  });

  it('a server that dies during prompts/get is named with why; the next prompt says it is restarting', async () => {
    const connection = await connect();
    await expect(connection.getPrompt('crash', {})).rejects.toThrow(
      'MCP server p went away during prompts/get "crash": server exited with code 4',
    );
    await expect(connection.getPrompt('greet', { name: 'x' })).rejects.toThrow(
      /MCP server p is not connected: .*restarting \(attempt 1 of 3\), try again shortly/,
    );
  });
});
