/**
 * Lazy MCP servers in the TUI (a real pty): a server whose tool list is cached shows as idle in
 * the panel and is not spawned; a call of its tool starts it and the panel shows it connected.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SERVERS, runCli } from './harness.js';
import { KEYS, spawnTui, tuiFixture } from './pty.js';

const fx = tuiFixture();

const starts = async () =>
  (await readFile(path.join(fx.project.dir, 'srv', 'starts'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean).length;

describe('lazy MCP servers in the TUI', () => {
  it('the panel shows a cached server as idle without spawning it; a call starts it', async () => {
    await mkdir(path.join(fx.project.dir, 'srv'), { recursive: true });
    await fx.project.mcpServers({
      lazy: {
        command: 'node',
        args: [path.join(FIXTURE_SERVERS, 'lazy.mjs'), path.join(fx.project.dir, 'srv')],
      },
    });
    await fx.project.tools({ mcp_lazy_echo: 'allow' });
    fx.fake.push({ text: 'hi' });
    expect((await runCli(['-p', 'hello'], { project: fx.project, modelUrl: fx.fake.url })).code).toBe(0);
    expect(await starts()).toBe(1);

    const tui = spawnTui({ project: fx.project, modelUrl: fx.fake.url });
    fx.sessions.push(tui);
    await tui.waitFor('MCP lazy(1, idle)');
    expect(await starts()).toBe(1);

    fx.fake.push(
      { toolCalls: [{ name: 'mcp_lazy_echo', arguments: JSON.stringify({ text: 'pong' }) }] },
      { text: 'done' },
    );
    tui.send('call it');
    tui.send(KEYS.enter);
    await tui.waitFor('MCP lazy(1)');
    await tui.waitFor('done');
    expect(await starts()).toBe(2);
  });
});
