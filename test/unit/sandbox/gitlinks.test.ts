/**
 * Gitlinks read from a real index written by git, in each index version (v4 compresses paths).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitlinksOf } from '../../../src/sandbox/gitlinks.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-gitlinks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): void {
  const env = {
    ...process.env,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'x',
    GIT_AUTHOR_EMAIL: 'x@x',
    GIT_COMMITTER_NAME: 'x',
    GIT_COMMITTER_EMAIL: 'x@x',
  };
  const ran = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  expect(ran.status, ran.stderr).toBe(0);
}

describe('gitlinksOf', () => {
  it.each([2, 3, 4])('finds the submodules of an index in version %i', async (version) => {
    const repo = path.join(dir, `repo${version}`);
    git(dir, 'init', '-q', repo);
    for (const file of ['a.txt', 'lib/one.txt', 'lib/two.txt']) {
      await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
      await writeFile(path.join(repo, file), 'x\n');
    }
    for (const sub of ['lib/deep/sub', 'z/mod']) {
      git(repo, 'init', '-q', sub);
      git(path.join(repo, sub), 'commit', '-q', '--allow-empty', '-m', 'x');
    }
    git(repo, 'add', '.');
    git(repo, 'update-index', '--index-version', String(version));
    const index = await readFile(path.join(repo, '.git', 'index'));
    expect(gitlinksOf(index, 20)).toEqual(['lib/deep/sub', 'z/mod']);
  });

  it('refuses a file that is not an index', () => {
    expect(() => gitlinksOf(Buffer.from('not an index at all'), 20)).toThrow();
  });
});
