/**
 * Git's command-running files (what the file tools protect): `.git` entries, config/hooks inside
 * any `.git` folder, and the same files in a folder that looks like a gitdir — not a `config`
 * file anywhere else.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGitCommandFile } from '../../../src/util/git-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-git-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const at = (...parts: string[]) => path.join(dir, ...parts);

describe('isGitCommandFile', () => {
  it('counts .git entries and config, commondir and hooks inside a .git folder, case-insensitively', () => {
    expect(isGitCommandFile(at('.git'))).toBe(true);
    expect(isGitCommandFile(at('sub', '.git'))).toBe(true);
    expect(isGitCommandFile(at('.git', 'config'))).toBe(true);
    expect(isGitCommandFile(at('.GIT', 'Config'))).toBe(true);
    expect(isGitCommandFile(at('.git', 'commondir'))).toBe(true);
    expect(isGitCommandFile(at('.git', 'hooks', 'pre-commit'))).toBe(true);
    expect(isGitCommandFile(at('.git', 'modules', 'lib', 'config'))).toBe(true);
    expect(isGitCommandFile(at('.git', 'modules', 'lib', 'hooks', 'post-checkout'))).toBe(true);
    expect(isGitCommandFile(at('.git', 'worktrees', 'w', 'config.worktree'))).toBe(true);
    expect(isGitCommandFile(at('.git', 'info', 'exclude'))).toBe(false);
    expect(isGitCommandFile(at('.gitignore'))).toBe(false);
  });

  it('counts the same files in a folder that looks like a gitdir, and nothing in an ordinary one', async () => {
    await mkdir(at('bare', 'objects'), { recursive: true });
    await mkdir(at('app', 'hooks'), { recursive: true });
    await writeFile(at('app', 'config'), 'x');
    expect(isGitCommandFile(at('bare', 'config'))).toBe(true);
    expect(isGitCommandFile(at('bare', 'HEAD'))).toBe(true);
    expect(isGitCommandFile(at('bare', 'hooks', 'pre-push'))).toBe(true);
    expect(isGitCommandFile(at('app', 'config'))).toBe(false);
    expect(isGitCommandFile(at('app', 'hooks', 'useThing.ts'))).toBe(false);
    expect(isGitCommandFile(at('src', 'config', 'index.ts'))).toBe(false);
  });
});
