/**
 * Lazy MCP servers in the TUI (a real pty): a server whose tool list is cached shows as idle in
 * the panel and is not spawned; a call of its tool starts it and the panel shows it connected.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, FIXTURE_SERVERS, type Project, runCli } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
const sessions: PtySession[] = [];

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.dispose()));
  await fake.close();
  await project.cleanup();
});

const starts = async () =>
  (await readFile(path.join(project.dir, 'srv', 'starts'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean).length;

describe('lazy MCP servers in the TUI', () => {
  it('the panel shows a cached server as idle without spawning it; a call starts it', async () => {
    await mkdir(path.join(project.dir, 'srv'), { recursive: true });
    await project.mcpServers({
      lazy: {
        command: 'node',
        args: [path.join(FIXTURE_SERVERS, 'lazy.mjs'), path.join(project.dir, 'srv')],
      },
    });
    await project.tools({ mcp_lazy_echo: 'allow' });
    fake.push({ text: 'hi' });
    expect((await runCli(['-p', 'hello'], { project, modelUrl: fake.url })).code).toBe(0);
    expect(await starts()).toBe(1);

    const tui = spawnTui({ project, modelUrl: fake.url });
    sessions.push(tui);
    await tui.waitFor('MCP lazy(1, idle)');
    expect(await starts()).toBe(1);

    fake.push(
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
