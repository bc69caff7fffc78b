/**
 * The input history is a state file in the person's own state (nothing in the project): a planted
 * link there is never read or written through, and the person is told once; saves are atomic and
 * 0600. An earlier version's `.geekagent/history` is imported once in a trusted folder, and only
 * mentioned in an untrusted one.
 */
import { execFileSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userProjectDir } from '../../../src/config/project-state.js';
import { InputHistory } from '../../../src/tui/history.js';

let base: string;
let project: string;
let userDir: string;
let bashrc: string;
let own: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-history-link-')));
  project = path.join(base, 'project');
  userDir = path.join(base, 'home', '.geekagent');
  bashrc = path.join(base, 'home', '.bashrc');
  own = path.join(userProjectDir(userDir, project), 'history');
  await mkdir(project, { recursive: true });
  await mkdir(path.dirname(bashrc));
  await writeFile(bashrc, 'export PATH=/usr/bin\n');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const warningsOf = (history: InputHistory): string[] => {
  const warnings: string[] = [];
  history.listen((message) => warnings.push(message));
  return warnings;
};

describe('InputHistory state file', () => {
  it("is kept in the person's state, 0600, and nothing is written into the project", async () => {
    const history = InputHistory.forProject(project, userDir);
    await history.load();
    await history.add('first');
    expect(await readFile(own, 'utf8')).toBe('"first"\n');
    expect((await stat(own)).mode & 0o777).toBe(0o600);
    expect(await readdir(project)).toEqual([]);
    const again = InputHistory.forProject(project, userDir);
    await again.load();
    expect(again.all).toEqual(['first']);
  });

  it('refuses a symlinked history file: not loaded, not overwritten, one warning each', async () => {
    await mkdir(path.dirname(own), { recursive: true });
    await symlink(bashrc, own);
    const history = InputHistory.forProject(project, userDir);
    await history.load();
    expect(history.all).toEqual([]);
    await history.add('first');
    await history.add('second');
    const warnings = warningsOf(history);
    expect(await readFile(bashrc, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect((await lstat(own)).isSymbolicLink()).toBe(true);
    expect(warnings).toEqual([
      expect.stringMatching(/^input history not loaded: refusing to read .*history: it is a symbolic link$/),
      expect.stringMatching(/^input history not saved: refusing to write .*history: it is a symbolic link$/),
    ]);
    // Still usable in memory.
    expect(history.previous('')).toBe('second');
  });

  it('refuses a FIFO without blocking, and saves atomically (no temporary file left)', async () => {
    await mkdir(path.dirname(own), { recursive: true });
    execFileSync('mkfifo', [own]);
    const refused = InputHistory.forProject(project, userDir);
    await refused.load();
    expect(warningsOf(refused)).toEqual([expect.stringMatching(/not a regular file/)]);

    await rm(own);
    const history = InputHistory.forProject(project, userDir);
    await history.add('saved');
    expect(await readFile(own, 'utf8')).toBe('"saved"\n');
    expect(await readdir(path.dirname(own))).toEqual(['history']);
  });
});

describe("an earlier version's .geekagent/history", () => {
  const legacy = () => path.join(project, '.geekagent', 'history');
  beforeEach(async () => {
    await mkdir(path.join(project, '.geekagent'));
    await writeFile(legacy(), '"an earlier question"\n"git push"\n');
  });

  it('is imported once in a trusted folder, before the lines of this run', async () => {
    const history = InputHistory.forProject(project, userDir);
    await history.load();
    await history.importLegacy(true);
    expect(history.all).toEqual(['an earlier question', 'git push']);
    expect(warningsOf(history)).toEqual([
      expect.stringMatching(
        /^imported 2 input history lines from \.geekagent\/history into .*; the project's file is no longer used/,
      ),
    ]);
    await history.flush();
    expect(await readFile(own, 'utf8')).toBe('"an earlier question"\n"git push"\n');

    // Not again: the person's own file is there now.
    await writeFile(legacy(), '"planted later"\n');
    const next = InputHistory.forProject(project, userDir);
    await next.load();
    await next.importLegacy(true);
    expect(next.all).toEqual(['an earlier question', 'git push']);
    expect(warningsOf(next)).toEqual([]);
  });

  it('is not read in an untrusted folder: a notice says so, nothing reaches ↑', async () => {
    const history = InputHistory.forProject(project, userDir);
    await history.load();
    await history.importLegacy(false);
    expect(history.all).toEqual([]);
    expect(warningsOf(history)).toEqual([
      expect.stringMatching(/^not read: this folder's \.geekagent\/history .*\/trust\)$/),
    ]);
    await expect(stat(own)).rejects.toThrow(/ENOENT/);
  });

  it('a link planted as the old file is refused, never followed', async () => {
    await rm(legacy());
    await symlink(bashrc, legacy());
    const history = InputHistory.forProject(project, userDir);
    await history.load();
    await history.importLegacy(true);
    expect(history.all).toEqual([]);
    expect(warningsOf(history)).toEqual([
      expect.stringMatching(/^input history not imported: .*symbolic link/),
    ]);
  });
});
