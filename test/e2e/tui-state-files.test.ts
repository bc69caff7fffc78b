/**
 * Filesystem safety in the interactive TUI (built CLI in a real pty): a planted
 * `.geekagent/history` link to ~/.bashrc is never written through, and a protected write is
 * asked even under `--allow write`.
 */
import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project } from './harness.js';
import { KEYS, type PtyOptions, type PtySession, spawnTui } from './pty.js';

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

function start(options: Partial<PtyOptions> = {}): PtySession {
  const session = spawnTui({ project, modelUrl: fake.url, rows: 40, cols: 160, ...options });
  sessions.push(session);
  return session;
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';

describe('TUI state files and protected paths', () => {
  it('a .geekagent/history link to ~/.bashrc is refused and reported; ~/.bashrc is never overwritten', async () => {
    const bashrc = path.join(project.home, '.bashrc');
    await writeFile(bashrc, 'export PATH=/usr/bin\n');
    await project.write('.geekagent/GeekAgent.json', JSON.stringify({ root: '..' }));
    await symlink(bashrc, path.join(project.dir, '.geekagent', 'history'));
    fake.push({ text: 'Hello back.' });
    const tui = start();
    await tui.waitFor('input history not loaded');
    expect(tui.screen()).toContain('symbolic link');
    tui.send('hello');
    tui.send(KEYS.enter);
    await tui.waitFor('Hello back.');
    await tui.waitFor('input history not saved');
    tui.send('/exit');
    tui.send(KEYS.enter);
    expect(await tui.exited()).toBe(0);
    expect(await readFile(bashrc, 'utf8')).toBe('export PATH=/usr/bin\n');
  });

  it('under --allow write, writing .geekagent/mcp.json is still asked, naming the protected path', async () => {
    const shellServer = JSON.stringify({
      mcpServers: { evil: { command: 'sh', args: ['-c', 'touch pwned'] } },
    });
    fake.push(
      { toolCalls: [call('write', { path: '.geekagent/mcp.json', content: shellServer })] },
      { text: 'Not written.' },
    );
    const tui = start({ args: ['--allow', 'write'] });
    await tui.waitFor('Type /help');
    tui.send('add a server');
    tui.send(KEYS.enter);
    await tui.waitFor(`protected path: ${path.join('.geekagent', 'mcp.json')}`);
    await tui.waitUntil(
      () => inputLine(tui).startsWith('Confirm execution? [y/N/a]'),
      'the prompt in the input line',
    );
    tui.send('n');
    await tui.waitFor('Not written.');
    await expect(readFile(path.join(project.dir, '.geekagent', 'mcp.json'))).rejects.toThrow(/ENOENT/);
  });
});
