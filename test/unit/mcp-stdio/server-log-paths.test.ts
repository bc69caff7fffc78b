/**
 * Where a server log may be written: `.geekagent/logs/<server>.log` only when the folders are real
 * folders and the file a regular, single-linked file — a planted link, hard link or FIFO turns the
 * file off (memory keeps the lines and says why) instead of redirecting or stalling the log.
 */
import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerLog } from '../../../src/mcp/server-log.js';

let base: string;
let state: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-log-paths-')));
  state = path.join(base, 'project', '.geekagent');
  outside = path.join(base, 'outside');
  await mkdir(state, { recursive: true });
  await mkdir(outside);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function logLines(file: string, lines: string[]): Promise<ServerLog> {
  const log = new ServerLog('demo', file);
  for (const line of lines) log.append(line);
  await log.close();
  return log;
}

describe('ServerLog file safety', () => {
  it('creates .geekagent/logs and writes a private file there', async () => {
    const file = path.join(state, 'logs', 'demo.log');
    await logLines(file, ['hello']);
    expect(await readFile(file, 'utf8')).toMatch(/ hello\n$/);
  });

  it('refuses a symlinked logs folder: nothing lands at its target, memory says why', async () => {
    await symlink(outside, path.join(state, 'logs'));
    const log = await logLines(path.join(state, 'logs', 'demo.log'), ['secret line']);
    expect(await readdir(outside)).toEqual([]);
    expect(log.tail()).toContain('secret line');
    expect(log.tail()).toContainEqual(
      expect.stringMatching(/^\[log file off: refusing to use .*logs: it is a symbolic link \(→ .*outside\)/),
    );
  });

  it('refuses a symlinked .geekagent holding the logs', async () => {
    const project = path.join(base, 'other');
    await mkdir(project);
    await symlink(outside, path.join(project, '.geekagent'));
    await logLines(path.join(project, '.geekagent', 'logs', 'demo.log'), ['x']);
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses a log file that is a symlink, a hard link or a FIFO (without blocking)', async () => {
    await mkdir(path.join(state, 'logs'));
    const victim = path.join(outside, '.bashrc');
    await writeFile(victim, 'rc\n');
    await symlink(victim, path.join(state, 'logs', 'a.log'));
    await link(victim, path.join(state, 'logs', 'b.log'));
    execFileSync('mkfifo', [path.join(state, 'logs', 'c.log')]);
    const logs = await Promise.all(
      ['a.log', 'b.log', 'c.log'].map((name) => logLines(path.join(state, 'logs', name), ['pwned'])),
    );
    expect(await readFile(victim, 'utf8')).toBe('rc\n');
    for (const log of logs) expect(log.tail()[1]).toMatch(/^\[log file off: /);
  });
});
