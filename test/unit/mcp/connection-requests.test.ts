/**
 * Prompts (and other requests than tool calls) go through `McpConnection` against a real fixture
 * server: the turn's signal cancels them on the server, a server that dies mid-request is named
 * with why, a signal serving many requests keeps none of the SDK's listeners, and a request that
 * arrives while its server restarts waits for the restart: served by the restarted server, or,
 * when its timeout runs out first, failed with a message naming the server and the restart.
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
const CRASH = path.resolve(import.meta.dirname, '../../fixtures/mcp/crash.mjs');

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

async function connect(
  env: Record<string, string> = {},
  { script = PROMPTS, timeout = 60_000, restartDelayMs = 60_000 } = {},
) {
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  const server = { command: process.execPath, args: [script], env, timeout };
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
    restartPolicy: {
      maxAttempts: 3,
      baseDelayMs: restartDelayMs,
      maxDelayMs: restartDelayMs,
      stableAfterMs: 60_000,
    },
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

  it('a server that dies during prompts/get is named with why; a prompt during the restart whose timeout runs out names the server and the restart', async () => {
    // The restart is a minute away: the next prompt's 300 ms run out while it waits.
    const connection = await connect({}, { timeout: 300 });
    await expect(connection.getPrompt('crash', {})).rejects.toThrow(
      'MCP server p went away during prompts/get "crash": server exited with code 4',
    );
    await expect(connection.getPrompt('greet', { name: 'x' })).rejects.toThrow(
      /^MCP server p did not come back within 0\.3 s, the timeout of prompts\/get "greet", which was not sent: it is restarting after: server exited with code 4.* \(attempt 1 of 3\) \(raise "timeout" for p in .*mcp\.json if it needs longer\)$/,
    );
  });

  it('a tool call that arrives while its crashed server restarts waits and is served by the restarted server', async () => {
    const connection = await connect({}, { script: CRASH, restartDelayMs: 50 });
    await expect(connection.callTool('crash', {})).rejects.toThrow(/went away during tools\/call "crash"/);
    expect(connection.state).toMatchObject({ state: 'failed', retry: { attempt: 1 } });
    const result = await connection.callTool('echo', { text: 'back again' });
    expect(result.content).toEqual([{ type: 'text', text: 'back again' }]);
    expect(connection.state.state).toBe('connected');
  });

  it('a cancel ends the wait for a restart at once', async () => {
    const connection = await connect({}, { script: CRASH });
    await expect(connection.callTool('crash', {})).rejects.toThrow(/went away/);
    const turn = new AbortController();
    const waiting = connection.callTool('echo', { text: 'x' }, { signal: turn.signal });
    turn.abort();
    await expect(waiting).rejects.toThrow(/cancelled|abort/i);
  });
});
