/**
 * The sessions index as an append-only log (src/sessions/index-log.ts): an update adds lines and
 * leaves every earlier byte where it was; reading folds them (renames, import marks); an earlier
 * version's index.json is the starting point; two writers keep both their lines; a torn line is
 * skipped; a log grown far past what it describes is rewritten once, atomically.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IndexEntry, SessionIndex } from '../../../src/sessions/index-log.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function fresh(): Promise<{ index: SessionIndex; dir: string }> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'session-index-'));
  dirs.push(base);
  const dir = path.join(base, 'projects', 'p', 'sessions');
  await mkdir(dir, { recursive: true });
  return { index: new SessionIndex(dir, base), dir };
}

const entry = (title: string, size = 10): IndexEntry => ({
  title,
  created: '2026-12-01T00:00:00.000Z',
  updated: '2026-12-01T00:00:00.000Z',
  turns: 1,
  size,
});

describe('SessionIndex', () => {
  it('appends: an update leaves every earlier byte in place and reads back folded', async () => {
    const { index } = await fresh();
    await index.append([{ session: 'a', entry: entry('first') }]);
    const before = await readFile(index.file, 'utf8');
    await index.append([
      { session: 'b', entry: entry('second') },
      { session: 'a', entry: entry('first again', 20) },
    ]);
    const after = await readFile(index.file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.split('\n').filter(Boolean)).toHaveLength(3);
    const state = await index.read();
    expect(state.sessions.a).toEqual(entry('first again', 20));
    expect(state.sessions.b?.title).toBe('second');
  });

  it('folds renames and import marks', async () => {
    const { index } = await fresh();
    await index.append([
      { session: 'old', entry: entry('named') },
      { renamed: { from: 'old', to: 'new' } },
      { legacyImported: true },
      { projectImported: '2026-12-04T00:00:00.000Z' },
    ]);
    const state = await index.read();
    expect(Object.keys(state.sessions)).toEqual(['new']);
    expect(state.legacyImported).toBe(true);
    expect(state.projectImported).toBe('2026-12-04T00:00:00.000Z');
  });

  it("starts from an earlier version's index.json and carries it into the log", async () => {
    const { index, dir } = await fresh();
    await writeFile(
      path.join(dir, 'index.json'),
      JSON.stringify({ version: 1, legacyImported: true, sessions: { kept: entry('from v1') } }),
    );
    expect((await index.read()).sessions.kept?.title).toBe('from v1');
    await index.append([{ session: 'added', entry: entry('new') }]);
    const state = await index.read();
    expect(Object.keys(state.sessions).sort()).toEqual(['added', 'kept']);
    expect(state.legacyImported).toBe(true);
  });

  it('keeps the lines of two writers and skips a torn or unknown line', async () => {
    const { index, dir } = await fresh();
    const other = new SessionIndex(dir, path.dirname(path.dirname(path.dirname(dir))));
    await Promise.all([
      index.append([{ session: 'one', entry: entry('one') }]),
      other.append([{ session: 'two', entry: entry('two') }]),
    ]);
    await writeFile(index.file, `${await readFile(index.file, 'utf8')}{"session":"torn","ent\n{"what":1}\n`);
    await index.append([{ session: 'three', entry: entry('three') }]);
    expect(Object.keys((await index.read()).sessions).sort()).toEqual(['one', 'three', 'two']);
  });

  it('rewrites a log that grew far past what it describes, keeping what it says', async () => {
    const { index } = await fresh();
    for (let run = 0; run < 80; run++)
      await index.append([{ session: 'busy', entry: entry(`run ${run}`, run) }]);
    const lines = (await readFile(index.file, 'utf8')).split('\n').filter(Boolean);
    expect(lines.length).toBeLessThan(70);
    expect((await index.read()).sessions.busy?.title).toBe('run 79');
  });

  it('never writes through a symlink planted as the log', async () => {
    const { index, dir } = await fresh();
    const target = path.join(dir, '..', 'elsewhere.txt');
    await writeFile(target, 'untouched');
    await symlink(target, index.file);
    await expect(index.append([{ session: 'x', entry: entry('x') }])).rejects.toThrow();
    expect(await readFile(target, 'utf8')).toBe('untouched');
  });
});
