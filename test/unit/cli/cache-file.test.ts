/**
 * The code cache's file format and crash markers (src/cli/launch/cache-file.ts): a sealed cache
 * opens to V8's data; any flipped byte, a short or foreign file is refused before V8 sees it; the
 * JS CRC-32 (Node before 20.15) agrees with zlib's; a marker left by a dead process removes its
 * cache, one of a live process or one naming another path does not.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CACHE_HEADER_BYTES,
  crc32,
  markLoading,
  openCache,
  removeCrashedCaches,
  sealCache,
  tableCrc32,
} from '../../../src/cli/launch/cache-file.js';

const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) & 0xff));

describe('cache file format', () => {
  it('opens what it sealed, the data 8-byte aligned behind the header', () => {
    const file = sealCache(data);
    expect(file.length).toBe(CACHE_HEADER_BYTES + data.length);
    expect(file.subarray(0, 4).toString('latin1')).toBe('GAV8');
    const opened = openCache(file);
    expect(opened?.equals(data)).toBe(true);
    expect(CACHE_HEADER_BYTES % 8).toBe(0);
  });

  it('refuses any flipped byte, a cut file, a longer one and a file of the old format', () => {
    const file = sealCache(data);
    for (let at = 0; at < file.length; at += 97) {
      const bad = Buffer.from(file);
      bad[at] = (bad[at] as number) ^ 0x01;
      expect(openCache(bad), `byte ${at}`).toBeUndefined();
    }
    expect(openCache(file.subarray(0, file.length - 1))).toBeUndefined();
    expect(openCache(Buffer.concat([file, Buffer.from([0])]))).toBeUndefined();
    expect(openCache(file.subarray(0, 10))).toBeUndefined();
    expect(openCache(data)).toBeUndefined();
  });

  it("computes zlib's CRC-32, natively or with its own table", () => {
    for (const sample of [Buffer.alloc(0), Buffer.from('123456789'), data]) {
      expect(tableCrc32(sample)).toBe(zlibCrc32(sample));
      expect(crc32(sample)).toBe(zlibCrc32(sample));
    }
    expect(tableCrc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });
});

describe('crash markers', () => {
  let dir: string;
  beforeEach(() => {
    dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'geekagent-cache-file-')), 'code-cache');
    mkdirSync(dir);
  });
  afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  /** The pid of a process that has exited. */
  const deadPid = (): number =>
    Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
    );

  it('a dead process’s marker removes the cache it names; a live one’s stays', () => {
    writeFileSync(path.join(dir, 'core.cjs.print.0123456789abcdef.01234567.v8'), 'x');
    writeFileSync(path.join(dir, 'lib-openai.cjs.0123456789abcdef.01234567.v8'), 'y');
    writeFileSync(path.join(dir, `.loading.${deadPid()}`), 'core.cjs.print.0123456789abcdef.01234567.v8');
    // This test's own runner is alive.
    writeFileSync(path.join(dir, `.loading.${process.ppid}`), 'lib-openai.cjs.0123456789abcdef.01234567.v8');
    expect(removeCrashedCaches(dir)).toEqual([path.join(dir, 'core.cjs.print.0123456789abcdef.01234567.v8')]);
    expect(readdirSync(dir).sort()).toEqual([
      `.loading.${process.ppid}`,
      'lib-openai.cjs.0123456789abcdef.01234567.v8',
    ]);
  });

  it('never removes a path a marker names outside the folder', () => {
    const outside = path.join(path.dirname(dir), 'precious.v8');
    writeFileSync(outside, 'keep');
    writeFileSync(path.join(dir, `.loading.${deadPid()}`), '../precious.v8');
    expect(removeCrashedCaches(dir)).toEqual([]);
    expect(existsSync(outside)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('marks while loading and unmarks after', () => {
    const file = path.join(dir, 'core.cjs.tui.0123456789abcdef.01234567.v8');
    const unmark = markLoading(file);
    expect(readdirSync(dir)).toEqual([`.loading.${process.pid}`]);
    unmark();
    expect(readdirSync(dir)).toEqual([]);
  });
});
