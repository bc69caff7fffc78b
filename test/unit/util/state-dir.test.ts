/**
 * The state folder helper: `.geekagent` and its subfolders are created as real folders, a
 * symlinked one is refused with a clear message, and state files are read only when regular
 * (a FIFO never blocks, a link is not followed). Config files are read without blocking too.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonFile } from '../../../src/util/json-file.js';
import { UnsafePathError } from '../../../src/util/safe-write.js';
import {
  checkStateDir,
  ensureStateDir,
  readStateFile,
  readStateFileSync,
  stateFilePath,
} from '../../../src/util/state-dir.js';

let project: string;
let outside: string;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-state-')));
  project = path.join(base, 'project');
  outside = path.join(base, 'outside');
  await mkdir(project);
  await mkdir(outside);
});
afterEach(async () => {
  await rm(path.dirname(project), { recursive: true, force: true });
});

describe('state folder', () => {
  it('names files under <project>/.geekagent and creates real folders on demand', async () => {
    expect(stateFilePath(project, 'logs', 'demo.log')).toBe(
      path.join(project, '.geekagent', 'logs', 'demo.log'),
    );
    await checkStateDir(project);
    await expect(lstat(path.join(project, '.geekagent'))).rejects.toThrow(/ENOENT/);
    expect(await ensureStateDir(project, 'logs')).toBe(path.join(project, '.geekagent', 'logs'));
    expect((await lstat(path.join(project, '.geekagent', 'logs'))).isDirectory()).toBe(true);
  });

  it('refuses a symlinked .geekagent, naming it and its target', async () => {
    await symlink(outside, path.join(project, '.geekagent'));
    const message = /refusing to use .*\.geekagent: it is a symbolic link \(→ .*outside\)/;
    await expect(checkStateDir(project)).rejects.toThrow(message);
    await expect(ensureStateDir(project, 'logs')).rejects.toThrow(UnsafePathError);
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a symlinked .geekagent/logs and a .geekagent that is a file', async () => {
    await mkdir(path.join(project, '.geekagent'));
    await symlink(outside, path.join(project, '.geekagent', 'logs'));
    await expect(ensureStateDir(project, 'logs')).rejects.toThrow(
      /refusing to use .*logs: it is a symbolic link/,
    );
    await rm(path.join(project, '.geekagent'), { recursive: true });
    await writeFile(path.join(project, '.geekagent'), 'not a folder');
    await expect(checkStateDir(project)).rejects.toThrow(/it is not a folder/);
  });

  it('reads a regular state file; missing is undefined; a link or a FIFO is refused without blocking', async () => {
    const dir = await ensureStateDir(project);
    await writeFile(path.join(dir, 'history'), '"hi"\n');
    expect(await readStateFile(path.join(dir, 'history'))).toBe('"hi"\n');
    expect(await readStateFile(path.join(dir, 'missing'))).toBeUndefined();

    await writeFile(path.join(outside, '.bashrc'), 'secret');
    await symlink(path.join(outside, '.bashrc'), path.join(dir, 'linked'));
    await expect(readStateFile(path.join(dir, 'linked'))).rejects.toThrow(/it is a symbolic link/);

    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    await expect(readStateFile(path.join(dir, 'fifo'))).rejects.toThrow(/not a regular file/);

    // The synchronous twin (the MCP tool cache's) refuses the same, and never blocks on the FIFO.
    expect(readStateFileSync(path.join(dir, 'history'))).toBe('"hi"\n');
    expect(readStateFileSync(path.join(dir, 'missing'))).toBeUndefined();
    expect(() => readStateFileSync(path.join(dir, 'linked'))).toThrow(/it is a symbolic link/);
    expect(() => readStateFileSync(path.join(dir, 'fifo'))).toThrow(/not a regular file/);
  });
});

describe('config files (readJsonFile)', () => {
  it('refuses a FIFO planted as a config file at once instead of hanging the start', async () => {
    const dir = await ensureStateDir(project);
    execFileSync('mkfifo', [path.join(dir, 'mcp.json')]);
    await expect(readJsonFile(path.join(dir, 'mcp.json'))).rejects.toThrow(
      /cannot read .*mcp\.json: it is not a regular file/,
    );
    expect(await readJsonFile(path.join(dir, 'missing.json'))).toEqual({ kind: 'missing' });
  });
});
