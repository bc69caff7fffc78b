/**
 * The command sandbox reuses a wrapped line between commands (bench row Z1): these drive the built
 * CLI through several confined commands in one run and check that a reused line never confines
 * less than a fresh one would — a nested repository that appears between two commands has its
 * hooks protected — and that what the library protects from the process's cwd (.git/hooks, rc
 * files) is protected in the root when `--cwd` names another folder.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithSandbox } from '../helpers/sandbox-gate.js';
import { cliFixture, parseJsonOutput } from './harness.js';

const fx = cliFixture({ timeoutMs: 60_000 });

const shellCall = (command: string) => ({
  toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command }) }],
});

describeWithSandbox('a reused sandbox line', () => {
  it('protects the hooks of a nested repository created between two commands', async () => {
    await mkdir(path.join(fx.project.dir, 'sub'), { recursive: true });
    const hooks = path.join(fx.project.dir, 'sub', '.git', 'hooks');
    fx.fake.push(
      shellCall('echo first'),
      // Between the two commands, outside the sandbox: a new nested repository with a hooks folder.
      () => {
        mkdirSync(hooks, { recursive: true });
        return shellCall('echo second; echo evil > sub/.git/hooks/pre-commit; echo x > sub/.git/config');
      },
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'go', '--output-format', 'json']);
    const out = parseJsonOutput(run);
    expect(out.tool_calls, run.stderr).toHaveLength(2);
    expect(out.tool_calls[0]?.result).toContain('first');
    expect(out.tool_calls[1]?.result).toContain('second');
    expect(existsSync(path.join(hooks, 'pre-commit'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, 'sub', '.git', 'config'))).toBe(false);
    // Nothing the sandbox mounted stays behind in the project.
    expect(readdirSync(fx.project.dir).sort()).toEqual(['sub']);
    expect(readdirSync(path.join(fx.project.dir, 'sub', '.git'))).toEqual(['hooks']);
  });
});

describeWithSandbox('--cwd naming another folder than the process cwd', () => {
  it("protects that folder's .git/hooks, .git/config and rc files", async () => {
    await mkdir(path.join(fx.project.dir, '.git', 'hooks'), { recursive: true });
    const elsewhere = path.join(path.dirname(fx.project.dir), 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    fx.fake.push(
      shellCall(
        'echo evil > .git/hooks/pre-commit; echo x > .git/config; echo y >> .bashrc; echo inside > inside.txt',
      ),
      { text: 'done' },
    );
    const run = await fx.run(['-p', 'go', '--output-format', 'json', '--cwd', fx.project.dir], {
      project: { ...fx.project, dir: elsewhere },
    });
    const out = parseJsonOutput(run);
    expect(out.tool_calls, run.stderr).toHaveLength(1);
    // The root is writable (the command ran there), its protected files are not.
    expect(existsSync(path.join(fx.project.dir, 'inside.txt'))).toBe(true);
    expect(existsSync(path.join(fx.project.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, '.git', 'config'))).toBe(false);
    expect(existsSync(path.join(fx.project.dir, '.bashrc'))).toBe(false);
  });
});
