/**
 * The input history is a state file: a planted `.geekagent/history` link (to ~/.bashrc) is never
 * read or written through, and the person is told once; saves are atomic.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputHistory } from '../../../src/tui/history.js';

let base: string;
let project: string;
let bashrc: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-history-link-')));
  project = path.join(base, 'project');
  bashrc = path.join(base, 'home', '.bashrc');
  await mkdir(path.join(project, '.geekagent'), { recursive: true });
  await mkdir(path.dirname(bashrc));
  await writeFile(bashrc, 'export PATH=/usr/bin\n');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('InputHistory state file', () => {
  it('refuses a symlinked history file: not loaded, not overwritten, one warning each', async () => {
    const file = path.join(project, '.geekagent', 'history');
    await symlink(bashrc, file);
    const history = InputHistory.forProject(project);
    await history.load();
    expect(history.all).toEqual([]);
    await history.add('first');
    await history.add('second');
    const warnings: string[] = [];
    history.listen((message) => warnings.push(message));
    expect(await readFile(bashrc, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect(warnings).toEqual([
      expect.stringMatching(/^input history not loaded: refusing to read .*history: it is a symbolic link$/),
      expect.stringMatching(/^input history not saved: refusing to write .*history: it is a symbolic link$/),
    ]);
    // Still usable in memory.
    expect(history.previous('')).toBe('second');
  });

  it('refuses a FIFO without blocking, and saves atomically (no temporary file left)', async () => {
    execFileSync('mkfifo', [path.join(project, '.geekagent', 'history')]);
    const refused = InputHistory.forProject(project);
    await refused.load();
    const warnings: string[] = [];
    refused.listen((message) => warnings.push(message));
    expect(warnings).toEqual([expect.stringMatching(/not a regular file/)]);

    await rm(path.join(project, '.geekagent', 'history'));
    const history = InputHistory.forProject(project);
    await history.add('saved');
    expect(await readFile(path.join(project, '.geekagent', 'history'), 'utf8')).toBe('"saved"\n');
    expect(await readdir(path.join(project, '.geekagent'))).toEqual(['history']);
  });
});
