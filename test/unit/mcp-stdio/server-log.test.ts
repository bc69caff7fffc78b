/**
 * ServerLog: a bounded ring in memory, a timestamped file created on demand, rotation to `.1`,
 * and lines dropped (and counted, and noted in the file) when the file stream is backed up.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerLog, type ServerLogOptions } from '../../../src/mcp/server-log.js';
import { createRedactor } from '../../../src/permissions/redact.js';

let dir: string;
const logs: ServerLog[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-log-'));
});

afterEach(async () => {
  await Promise.all(logs.splice(0).map((log) => log.close()));
  await rm(dir, { recursive: true, force: true });
});

function open(file: string | undefined, options?: ServerLogOptions): ServerLog {
  const log = new ServerLog('demo', file, options);
  logs.push(log);
  return log;
}

const ISO = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;
const fileLines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

describe('ServerLog', () => {
  it('keeps only the last maxLines in memory, newest last', () => {
    const log = open(undefined, { maxLines: 3 });
    expect(log.tail()).toEqual([]);
    for (let i = 1; i <= 10; i++) log.append(`line ${i}`);
    expect(log.tail()).toEqual(['line 8', 'line 9', 'line 10']);
    expect(log.tail(2)).toEqual(['line 9', 'line 10']);
    expect(log.tail(0)).toEqual([]);
    expect(log.droppedLines).toBe(0);
  });

  it('writes timestamped lines to a file whose folders it creates', async () => {
    const file = path.join(dir, '.geekagent', 'logs', 'demo.log');
    const log = open(file);
    log.append('starting');
    log.append('two\nlines\r');
    await log.close();
    const lines = await fileLines(file);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${ISO} starting$`));
    expect(lines.map((line) => line.replace(/^\S+ /, ''))).toEqual(['starting', 'two', 'lines']);
    expect(log.tail()).toEqual(['starting', 'two', 'lines']);
  });

  it('cuts lines longer than 4000 characters', async () => {
    const file = path.join(dir, 'demo.log');
    const log = open(file);
    log.append('y'.repeat(10_000));
    await log.close();
    const expected = `${'y'.repeat(4000)}… [6000 characters cut]`;
    expect(log.tail()).toEqual([expected]);
    expect((await fileLines(file))[0]).toMatch(
      new RegExp(`^${ISO} ${expected.replace('[', '\\[').replace(']', '\\]')}$`),
    );
  });

  it('redacts secret values in the file and in memory, before cutting a long line', async () => {
    const file = path.join(dir, 'demo.log');
    const log = open(file, { redact: createRedactor({ GITHUB_TOKEN: 'ghp_0123456789abcdef' }) });
    log.append('auth with ghp_0123456789abcdef ok');
    // The token straddles the 4000-char cut: it is replaced whole, its prefix never written.
    log.append(`${'z'.repeat(3990)}ghp_0123456789abcdef${'z'.repeat(100)}`);
    await log.close();
    const written = await readFile(file, 'utf8');
    expect(written).not.toContain('ghp_');
    expect(log.tail()).toEqual([
      'auth with [REDACTED:GITHUB_TOKEN] ok',
      `${'z'.repeat(3990)}[REDACTED:GITHUB_TOKEN]… [110 characters cut]`,
    ]);
    expect((await fileLines(file)).map((line) => line.replace(/^\S+ /, ''))).toEqual(log.tail());
  });

  it('rotates to .1 when the file would pass maxFileBytes, an old big file included', async () => {
    const file = path.join(dir, 'demo.log');
    await writeFile(file, 'o'.repeat(2000)); // left by an earlier run, already over the limit
    const log = open(file, { maxFileBytes: 1000 });
    for (let i = 0; i < 30; i++) log.append(`entry ${String(i).padStart(2, '0')} ${'-'.repeat(60)}`);
    await log.close();
    const current = await fileLines(file);
    const previous = await fileLines(`${file}.1`);
    expect((await stat(file)).size).toBeLessThanOrEqual(1000);
    expect((await stat(`${file}.1`)).size).toBeLessThanOrEqual(1000);
    // Nothing lost across the last rotation: .1 then the current file continue each other.
    const numbers = [...previous, ...current].map((line) => Number(/entry (\d+)/.exec(line)?.[1]));
    expect(numbers.at(-1)).toBe(29);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    expect(log.droppedLines).toBe(0);
  });

  it('drops lines while the file stream is backed up, counts them and notes them in the file', async () => {
    const file = path.join(dir, 'demo.log');
    const log = open(file, { maxLines: 10, maxFileBytes: 1024 * 1024 * 1024 });
    const total = 3000;
    // Synchronous appends never give the stream a chance to drain: most must be dropped.
    for (let i = 0; i < total; i++) log.append(`flood ${i} ${'z'.repeat(3000)}`);
    expect(log.droppedLines).toBeGreaterThan(0);
    expect(log.tail()).toHaveLength(10);
    expect(log.tail().at(-1)).toMatch(/^flood 2999 /);
    await log.close();
    const lines = await fileLines(file);
    const written = lines.filter((line) => / flood \d+ /.test(line)).length;
    const noted = lines
      .map((line) => /^\S+ \[(\d+) lines dropped\]$/.exec(line)?.[1])
      .filter((n): n is string => n !== undefined)
      .reduce((sum, n) => sum + Number(n), 0);
    expect(written + noted).toBe(total);
    expect(noted).toBe(log.droppedLines);
  });

  it('never throws when the file cannot be written, and keeps the memory ring', async () => {
    const blocker = path.join(dir, 'not-a-folder');
    await writeFile(blocker, 'a file where a folder should be');
    const log = open(path.join(blocker, 'logs', 'demo.log'));
    expect(() => {
      for (let i = 0; i < 5; i++) log.append(`line ${i}`);
    }).not.toThrow();
    await log.close();
    log.append('after close');
    const tail = log.tail();
    expect(tail.filter((line) => line.startsWith('line '))).toHaveLength(5);
    expect(tail[tail.length - 1]).toBe('after close');
    // Why the file is off is kept where `/mcp logs` shows it.
    expect(tail).toContainEqual(expect.stringMatching(/^\[log file off: .*not-a-folder.*\]$/));
  });
});
