/**
 * The command sandbox's reused line (src/sandbox/line-cache.ts) with the real library and
 * bubblewrap: the same inputs give the same line, each command still runs as itself and nothing
 * mounted stays behind; a change of what is denied or allowed between two commands is never served
 * by the old line; a name the old line binds from that someone else took is never trusted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CommandSandbox, SandboxWrapOptions } from '../../src/sandbox/types.js';
import { type RealSandbox, realSandbox } from '../helpers/real-sandbox.js';
import { describeWithSandbox } from '../helpers/sandbox-gate.js';

let root: string;
let home: string;
let sandbox: CommandSandbox;
let count = 0;

let fixture: RealSandbox;

beforeEach(() => {
  fixture = realSandbox('geekagent-reuse-');
  ({ root, home, sandbox } = fixture);
});

afterEach(() => fixture.dispose());

/** Wraps and runs `command` (no single quotes in it), then releases it. */
async function run(command: string, options: Partial<SandboxWrapOptions> = {}) {
  const id = `reuse-${count++}`;
  const line = await sandbox.wrap(command, { id, cwd: root, ...options });
  const result = spawnSync('bash', ['-c', line], { cwd: root, encoding: 'utf8' });
  sandbox.release(id);
  const prefix = `GEEKAGENT_SANDBOXED_COMMAND='${command}' `;
  return { wrapped: line.startsWith(prefix) ? line.slice(prefix.length) : line, ...result };
}

const emptySource = (line: string) => line.match(/\/[\w./-]*\/claude-empty-\w+/)?.[0];

describeWithSandbox('a reused sandbox line', () => {
  it('is the same for the same inputs, runs each command as itself and leaves no mount behind', async () => {
    const first = await run('echo one');
    const second = await run('echo two > made.txt; cat made.txt');
    expect(first.stdout).toBe('one\n');
    expect(second.stdout).toBe('two\n');
    expect(second.wrapped).toBe(first.wrapped);
    expect(readdirSync(root)).toEqual(['made.txt']);
    const source = emptySource(first.wrapped);
    expect(source).toBeDefined();
    expect(existsSync(source as string)).toBe(false);
    // The command's own variable is not handed on to what it runs.
    const third = await run('env | grep -c GEEKAGENT_SANDBOXED_COMMAND || true');
    expect(third.stdout.trim()).toBe('0');
    // Still confined: the protected files stay unwritable.
    const fourth = await run('echo x > .bashrc; echo y > .geekagent; cat .bashrc .geekagent; echo end');
    expect(fourth.wrapped).toBe(first.wrapped);
    expect(fourth.stdout).toBe('end\n');
    expect(readdirSync(root)).toEqual(['made.txt']);
  });

  it('starts the seccomp helper from /bin/sh, and the command itself still in bash', async () => {
    const first = await run('echo "$BASH_VERSION" | grep -c .');
    expect(first.stdout).toBe('1\n');
    // bubblewrap's own child: the one hop that only execs the helper (half of bash's start-up).
    const [, inner] = first.wrapped.split(" '--' '/bin/sh' '-c' ");
    expect(inner).toContain('bash');
  });

  it('is not used when a denied path or an allowed host is added between two commands', async () => {
    writeFileSync(path.join(root, 'secret.txt'), 'SECRET-5f3a\n');
    const first = await run('cat secret.txt');
    expect(first.stdout).toBe('SECRET-5f3a\n');
    const denied = await run('cat secret.txt', { denyRead: ['secret.txt'] });
    expect(denied.stdout).not.toContain('SECRET');
    expect(denied.wrapped).not.toBe(first.wrapped);
    const hosts = await run('echo hosts', { allowHosts: ['example.com'] });
    expect(hosts.stdout).toBe('hosts\n');
    expect(hosts.wrapped).not.toBe(first.wrapped);
    expect(hosts.wrapped).toContain('HTTP_PROXY');
  });

  it('never binds from an empty-folder name that someone else took between two commands', async () => {
    const first = await run('true');
    const source = emptySource(first.wrapped) as string;
    expect(existsSync(source)).toBe(false);
    // Planted where the old line binds an empty folder over the absent `.claude`.
    writeFileSync(path.join(home, 'marker-91c2'), '');
    symlinkSync(home, source);
    const second = await run('ls -A .claude');
    expect(second.stdout).not.toContain('marker-91c2');
    expect(second.wrapped).not.toBe(first.wrapped);
    rmSync(source);
  });
});
