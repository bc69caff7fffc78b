/**
 * The trust question in a real pty: an untrusted folder with a server is asked about once, before
 * anything runs, with the server's full command line (escapes visible); "not now" starts without
 * it and says so in the panel and `/mcp`; "yes" starts it and is remembered; a changed command is
 * asked about again, showing the change.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, FIXTURE_SERVERS, type Project } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
let marker: string;
const sessions: PtySession[] = [];

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
  marker = path.join(path.dirname(project.dir), 'server-started');
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.dispose()));
  await fake.close();
  await project.cleanup();
});

function start(): PtySession {
  const session = spawnTui({ project, modelUrl: fake.url, cols: 160, rows: 40, trusted: false });
  sessions.push(session);
  return session;
}

async function exit(tui: PtySession): Promise<void> {
  tui.send('/exit');
  tui.send(KEYS.enter);
  expect(await tui.exited()).toBe(0);
}

const MARKER_SERVER = path.join(FIXTURE_SERVERS, 'marker.mjs');

describe('the trust question', () => {
  it('lists the command with escapes visible; n starts without it, y runs it and is remembered, a change asks again', async () => {
    await project.mcpServers({
      marked: { command: 'node', args: [MARKER_SERVER, marker, 'x\u001b[2Jy'] },
    });

    const first = start();
    await first.waitFor('Trust this folder?');
    expect(first.screen()).toContain(`GeekAgent has not run in this folder before: ${project.dir}`);
    expect(first.screen()).toContain(`MCP server marked: node ${MARKER_SERVER} ${marker} 'x^[[2Jy'`);
    expect(existsSync(marker)).toBe(false);
    first.send('n');
    await first.waitFor(/MCP project off/);
    first.send('/mcp');
    first.send(KEYS.enter);
    await first.waitFor('project servers not started: folder not trusted (run geekagent trust)');
    expect(first.screen()).toContain('folder not trusted: ignoring .geekagent/mcp.json (1 server)');
    await exit(first);
    expect(existsSync(marker)).toBe(false);

    // "Not now" is not remembered: the next start asks again.
    const second = start();
    await second.waitFor('Trust this folder?');
    second.send('y');
    await second.waitFor('MCP marked(2)');
    expect(existsSync(marker)).toBe(true);
    await exit(second);

    // Remembered: the TUI comes up without a key pressed (the server idle now: its tools are cached).
    const third = start();
    await third.waitFor('MCP marked(2, idle)');
    await exit(third);

    await project.mcpServers({
      marked: { command: 'node', args: [MARKER_SERVER, marker, 'changed'] },
    });
    const fourth = start();
    await fourth.waitFor('Trust this folder?');
    const screen = fourth.screen();
    expect(screen).toContain(`This folder changed since you trusted it: ${project.dir}`);
    expect(screen).toContain(`changed: MCP server marked: node ${MARKER_SERVER} ${marker} changed`);
    expect(screen).toContain(`was: MCP server marked: node ${MARKER_SERVER} ${marker} 'x^[[2Jy'`);
  });

  it('asks nothing in a folder that declares nothing', async () => {
    const tui = start();
    await tui.waitFor('MCP none');
    await exit(tui);
  });
});
