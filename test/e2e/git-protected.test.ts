/**
 * Git's command-running files are protected paths for the file tools (issue 38, broken 1): a
 * `write` or `patch` of `.git/config` or `.git/hooks/*` — in the root, a nested repository, a
 * worktree's or a separate gitdir — is asked even under accept-edits and `--allow write`, so print
 * mode refuses it naming `--allow-protected`, which lets that one file through. Without this the
 * model sets core.fsmonitor and the person's next `git status` runs it unconfined.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, type JsonOutput, parseJsonOutput } from './harness.js';

const fx = cliFixture({ env: { GEEKAGENT_SANDBOX: 'off' } });

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const decisions = (out: JsonOutput) => out.tool_calls.map((c) => [c.name, c.decision, c.is_error]);

const CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const FSMONITOR = '[core]\n\tfsmonitor = touch pwned\n';

/** A gitdir's bones as `git init` leaves them (HEAD, objects/, refs/, config). */
async function gitDir(relative: string): Promise<void> {
  await fx.project.write(`${relative}/HEAD`, 'ref: refs/heads/main\n');
  await fx.project.write(`${relative}/config`, CONFIG);
  await mkdir(path.join(fx.project.dir, relative, 'objects'), { recursive: true });
  await mkdir(path.join(fx.project.dir, relative, 'refs'), { recursive: true });
}

describe('git config and hooks are protected paths', () => {
  it('accept-edits and --allow write still refuse them in print mode; --allow-protected lets one through', async () => {
    await gitDir('.git');
    await fx.project.write('.git/hooks/pre-commit', '#!/bin/sh\nexit 0\n');
    await gitDir('vendor/lib/.git');
    // A worktree-style `.git` file pointing at a gitdir elsewhere in the root.
    await gitDir('gitdirs/sub');
    await fx.project.write('sub/.git', 'gitdir: ../gitdirs/sub\n');
    const edits = () =>
      fx.fake.push(
        {
          toolCalls: [
            call('write', { path: '.git/config', content: FSMONITOR }),
            call('patch', { path: '.git/hooks/pre-commit', hunks: [{ old: 'exit 0', new: 'touch pwned' }] }),
            call('write', { path: '.GIT/hooks/post-checkout', content: '#!/bin/sh\ntouch pwned\n' }),
            call('write', { path: 'vendor/lib/.git/config', content: FSMONITOR }),
            call('write', { path: 'gitdirs/sub/config', content: FSMONITOR }),
            call('write', { path: 'other/.git', content: 'gitdir: ../gitdirs/sub\n' }),
            call('write', { path: 'notes.txt', content: 'fine\n' }),
          ],
        },
        { text: 'done' },
      );
    for (const flags of [
      ['--approval-mode', 'accept-edits'],
      ['--allow', 'write', '--allow', 'patch'],
    ]) {
      edits();
      const run = await fx.run(['-p', 'do it', '--output-format', 'json', ...flags]);
      expect(run.code, run.stderr).toBe(0);
      const out = parseJsonOutput(run);
      expect(decisions(out)).toEqual([
        ['write', 'refused', true],
        ['patch', 'refused', true],
        ['write', 'refused', true],
        ['write', 'refused', true],
        ['write', 'refused', true],
        ['write', 'refused', true],
        ['write', 'allow', false],
      ]);
      expect(out.tool_calls[0]!.result).toContain('protected path: .git/config');
      expect(out.tool_calls[0]!.result).toContain('--allow-protected .git/config');
      expect(out.tool_calls[4]!.result).toContain('gitdirs/sub/config');
    }
    expect(await readFile(path.join(fx.project.dir, '.git/config'), 'utf8')).toBe(CONFIG);
    expect(await readFile(path.join(fx.project.dir, '.git/hooks/pre-commit'), 'utf8')).toContain('exit 0');
    expect(await readFile(path.join(fx.project.dir, 'vendor/lib/.git/config'), 'utf8')).toBe(CONFIG);
    expect(await readFile(path.join(fx.project.dir, 'gitdirs/sub/config'), 'utf8')).toBe(CONFIG);
    expect(existsSync(path.join(fx.project.dir, '.git/hooks/post-checkout'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, 'other/.git'))).toBe(false);

    // The person names the file: that write goes through, the others stay refused.
    fx.fake.push(
      {
        toolCalls: [
          call('write', { path: '.git/config', content: FSMONITOR }),
          call('write', { path: 'vendor/lib/.git/config', content: FSMONITOR }),
        ],
      },
      { text: 'done' },
    );
    const run = await fx.run([
      '-p',
      'do it',
      '--output-format',
      'json',
      '--approval-mode',
      'accept-edits',
      '--allow-protected',
      '.git/config',
    ]);
    expect(decisions(parseJsonOutput(run))).toEqual([
      ['write', 'allow', false],
      ['write', 'refused', true],
    ]);
    expect(await readFile(path.join(fx.project.dir, '.git/config'), 'utf8')).toBe(FSMONITOR);
  });
});
