/**
 * What a confined command leaves behind for later (issue 38, broken 4 and a weak spot), through the
 * built CLI and the real sandbox: a command may make a repository where there was none — in the
 * root or a sub-folder — and set core.fsmonitor, core.pager or a hook, or point an existing
 * repository's `commondir` at a config of its own; the person's next `git status` would run that
 * outside the sandbox. It may also create a new `.env.local` that other tools read. After each
 * confined command these are undone (keys unset, hooks made not executable, `.env*` files removed)
 * and the tool result says so; what the command did besides stays.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithSandbox } from '../helpers/sandbox-gate.js';
import { cliFixture, parseJsonOutput } from './harness.js';

const fx = cliFixture({ timeoutMs: 60_000 });

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/** One print-mode turn in which the model runs `command` confined; the tool's result. */
async function confined(command: string): Promise<string> {
  fx.fake.push({ toolCalls: [call('run_shell', { command })] }, { text: 'done' });
  const run = await fx.run(['-p', 'go', '--output-format', 'json']);
  const out = parseJsonOutput(run);
  expect(out.tool_calls, run.stderr).toHaveLength(1);
  expect(out.tool_calls[0]).toMatchObject({ decision: 'allow' });
  return out.tool_calls[0]!.result;
}

/** The person's own git, later, outside any sandbox. */
function personGit(cwd: string, ...args: string[]): string {
  const env = { ...process.env, HOME: fx.project.home, GIT_CONFIG_NOSYSTEM: '1' };
  const ran = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  return `${ran.stdout}${ran.stderr}`;
}

const at = (...parts: string[]) => path.join(fx.project.dir, ...parts);
const marker = (name: string) => path.join(path.dirname(fx.project.dir), name);

describeWithSandbox('a confined command leaves nothing behind that runs outside the sandbox', () => {
  it('a new repository in the root and a sub-folder: fsmonitor, pager and a hook are undone', async () => {
    const result = await confined(
      [
        'git init -q . && git config core.fsmonitor "touch ../pwned-root; false"',
        'git config user.name kept-name',
        'printf "#!/bin/sh\\ntouch ../../pwned-hook\\n" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit',
        'git init -q sub/deep && git -C sub/deep config core.pager "touch ../../../pwned-sub; cat"',
        'git -C sub/deep config filter.x.clean "touch ../../../pwned-filter"',
        'echo made > sub/deep/file.txt',
      ].join(' && '),
    );
    expect(result).toContain('[sandbox]');
    expect(result).toContain('.git/config: unset core.fsmonitor');
    expect(result).toContain(
      `${path.join('sub', 'deep', '.git', 'config')}: unset core.pager, filter.x.clean`,
    );
    expect(result).toContain(`${path.join('.git', 'hooks', 'pre-commit')}: made not executable`);
    // What the command did besides stays: the repositories, a harmless setting, its files.
    expect(personGit(fx.project.dir, 'config', 'user.name').trim()).toBe('kept-name');
    expect(readFileSync(at('sub', 'deep', 'file.txt'), 'utf8')).toBe('made\n');
    expect(statSync(at('.git', 'hooks', 'pre-commit')).mode & 0o111).toBe(0);

    // The person's next git commands run nothing the command set up.
    personGit(fx.project.dir, 'status');
    personGit(at('sub', 'deep'), 'status');
    personGit(at('sub', 'deep'), 'log');
    personGit(at('sub', 'deep'), 'add', 'file.txt');
    for (const name of ['pwned-root', 'pwned-hook', 'pwned-sub', 'pwned-filter'])
      expect(existsSync(marker(name)), name).toBe(false);
  });

  it("an existing repository's commondir pointed at a config of the command's own is undone", async () => {
    personGit(fx.project.dir, 'init', '-q', '.');
    personGit(fx.project.dir, 'config', 'core.pager', 'less');
    const result = await confined(
      [
        'mkdir evil && cp -r .git/HEAD .git/objects .git/refs evil/',
        'printf "[core]\\n\\tfsmonitor = touch ../pwned-common; false\\n" > evil/config',
        'echo ../evil > .git/commondir',
      ].join(' && '),
    );
    expect(result).toContain(`${path.join('evil', 'config')}: unset core.fsmonitor`);
    personGit(fx.project.dir, 'status');
    expect(existsSync(marker('pwned-common'))).toBe(false);
    // The person's own setting in the root's config is theirs and stays.
    expect(readFileSync(at('.git', 'config'), 'utf8')).toContain('pager = less');
  });

  it("a repository deeper than the scan, listed in the root's index as a submodule, is looked at too", async () => {
    personGit(fx.project.dir, 'init', '-q', '.');
    const deep = path.join('a', 'b', 'c', 'd', 'e');
    const result = await confined(
      [
        'git init -q a/b/c/d/e && git -C a/b/c/d/e config core.fsmonitor "touch $PWD/../pwned-link; false"',
        'git -C a/b/c/d/e -c user.name=x -c user.email=x@x commit -q --allow-empty -m x',
        'git add a/b/c/d/e',
      ].join(' && '),
    );
    expect(result).toContain(`${path.join(deep, '.git', 'config')}: unset core.fsmonitor`);
    // The root's status enters the submodule and would run its fsmonitor.
    personGit(fx.project.dir, 'status');
    expect(existsSync(marker('pwned-link'))).toBe(false);
  });

  it('new .env files at the root are removed with a note; existing ones stay read-only', async () => {
    await fx.project.write('.env', 'KEPT=1\n');
    // Spelled so the protected-name check does not ask: the sandbox and the look after it are the barrier.
    const result = await confined(
      'e=.en; E=.EN; echo A=1 > "${e}v.local"; echo B=2 > "${E}V.production"; echo C=3 >> "${e}v"; echo fine > notes.txt',
    );
    expect(result).toContain('.env.local: removed');
    expect(result).toContain('.ENV.production: removed');
    expect(existsSync(at('.env.local'))).toBe(false);
    expect(existsSync(at('.ENV.production'))).toBe(false);
    expect(readFileSync(at('.env'), 'utf8')).toBe('KEPT=1\n');
    expect(readFileSync(at('notes.txt'), 'utf8')).toBe('fine\n');
  });
});
