/**
 * The file tools against a hostile project folder: FIFOs and sockets, hard links to files outside
 * the root, symlinks leading out, a symlink flipped while writes run (TOCTOU), and atomic writes
 * that keep the file's mode. Real files in temp folders, the real tools and sandbox.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmod,
  link,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPatchTool, createWriteTool } from '../../../src/tools/builtin/edit.js';
import { createLsTool, createReadTool } from '../../../src/tools/builtin/files.js';
import { createGlobTool } from '../../../src/tools/builtin/glob.js';
import { createSearchTool } from '../../../src/tools/builtin/search.js';
import type { Tool, ToolContext } from '../../../src/tools/types.js';
import { makeContext, runText } from './helpers.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-fsafety-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The tool's promise, or `hung` if it has not settled in time: a FIFO must never block. */
function settledWithin<T>(work: Promise<T>, ms = 5000): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const failure = (tool: Tool, args: Record<string, unknown>, ctx: ToolContext) =>
  settledWithin(
    tool.run(args, ctx).then(
      (output) => `no error: ${String(output)}`,
      (error: Error) => error.message,
    ),
  );

describe('special files', () => {
  it('read refuses a FIFO at once instead of hanging', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const { ctx } = makeContext(root);
    expect(await failure(createReadTool(), { path: 'pipe' }, ctx)).toBe(
      'read: pipe is a FIFO (named pipe); only regular files can be used',
    );
    expect(await failure(createSearchTool(), { pattern: 'x', path: 'pipe' }, ctx)).toContain(
      'search: pipe is a FIFO (named pipe)',
    );
    // A folder search skips it.
    await writeFile(path.join(root, 'a.txt'), 'x marks\n');
    expect(await settledWithin(runText(createSearchTool(), { pattern: 'x' }, ctx))).toBe('a.txt:1: x marks');
    expect(await failure(createWriteTool(), { path: 'pipe', content: 'x' }, ctx)).toContain('is a FIFO');
  });

  it('read refuses a socket', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, 'sock'), resolve));
    try {
      const { ctx } = makeContext(root);
      expect(await failure(createReadTool(), { path: 'sock' }, ctx)).toBe(
        'read: sock is a socket; only regular files can be used',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('hard links', () => {
  it('read, write and patch refuse a file with a second hard link (here: outside the root)', async () => {
    const secret = path.join(outside, 'secret.txt');
    await writeFile(secret, 'password=hunter2\n');
    await link(secret, path.join(root, 'innocent.txt'));
    const { ctx, undo } = makeContext(root);
    const refused = 'refusing innocent.txt: it has 2 hard links (another name may be outside the root)';
    expect(await failure(createReadTool(), { path: 'innocent.txt' }, ctx)).toBe(`read: ${refused}`);
    expect(await failure(createWriteTool(), { path: 'innocent.txt', content: 'x' }, ctx)).toBe(
      `write: ${refused}`,
    );
    expect(
      await failure(createPatchTool(), { path: 'innocent.txt', hunks: [{ old: 'hunter2', new: 'x' }] }, ctx),
    ).toBe(`patch: ${refused}`);
    expect(await readFile(secret, 'utf8')).toBe('password=hunter2\n');
    expect(undo.entries).toEqual([]);
    // search skips it rather than leak its lines.
    expect(await runText(createSearchTool(), { pattern: 'hunter2' }, ctx)).toBe('(no matches for hunter2)');
  });
});

describe('atomic writes', () => {
  it('keep the mode of the file they replace and leave no temporary file', async () => {
    const script = path.join(root, 'run.sh');
    await writeFile(script, '#!/bin/sh\necho old\n');
    await chmod(script, 0o750);
    const { ctx } = makeContext(root);
    await runText(createWriteTool(), { path: 'run.sh', content: '#!/bin/sh\necho new\n' }, ctx);
    await runText(createPatchTool(), { path: 'run.sh', hunks: [{ old: 'new', new: 'newer' }] }, ctx);
    expect(await readFile(script, 'utf8')).toBe('#!/bin/sh\necho newer\n');
    expect((await stat(script)).mode & 0o7777).toBe(0o750);
    expect(await readdir(root)).toEqual(['run.sh']);
  });

  it('create missing folders, and write through an in-root link to its target', async () => {
    await mkdir(path.join(root, 'docs'));
    await writeFile(path.join(root, 'docs', 'README.md'), 'old');
    await symlink('docs/README.md', path.join(root, 'README.md'));
    const { ctx, undo } = makeContext(root);
    await runText(createWriteTool(), { path: 'a/b/c.txt', content: 'deep' }, ctx);
    expect(await readFile(path.join(root, 'a', 'b', 'c.txt'), 'utf8')).toBe('deep');
    await runText(createWriteTool(), { path: 'README.md', content: 'new' }, ctx);
    expect(await readFile(path.join(root, 'docs', 'README.md'), 'utf8')).toBe('new');
    // The link is still a link; undo records the file that really changed.
    expect((await readdir(root)).sort()).toEqual(['README.md', 'a', 'docs']);
    expect(undo.entries.map((entry) => entry.path)).toEqual([
      path.join(root, 'a', 'b', 'c.txt'),
      path.join(root, 'docs', 'README.md'),
    ]);
  });
});

describe('symlinks leading out of the root', () => {
  beforeEach(async () => {
    await writeFile(path.join(outside, 'secret.txt'), 'hunter2');
    await symlink(outside, path.join(root, 'out'));
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'main.ts'), 'main');
  });

  it('glob lists nothing through a symlinked folder', async () => {
    const { ctx } = makeContext(root);
    const glob = createGlobTool();
    expect(await runText(glob, { pattern: 'out/*' }, ctx)).toBe('(no files match out/*)');
    expect(await runText(glob, { pattern: 'out/secret.txt' }, ctx)).toBe('(no files match out/secret.txt)');
    expect(await runText(glob, { pattern: '**/*' }, ctx)).toBe('src/main.ts');
  });

  it('ls shows such a link without following it; search never enters it', async () => {
    const { ctx } = makeContext(root);
    expect(await runText(createLsTool(), {}, ctx)).toBe('out (link outside root)\nsrc/');
    expect(await runText(createSearchTool(), { pattern: 'hunter2' }, ctx)).toBe('(no matches for hunter2)');
  });
});

/**
 * A child process that keeps swapping `link` between two folders (atomically, via rename) until
 * killed or its stdin closes. Prints `ready` once the link exists.
 */
function startFlipper(linkPath: string, a: string, b: string): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs');
    const [link, a, b] = process.argv.slice(1);
    const temp = link + '.flip';
    let flips = 0;
    const flip = () => {
      for (let i = 0; i < 500; i++) {
        try { fs.unlinkSync(temp); } catch {}
        fs.symlinkSync(flips++ % 2 ? b : a, temp);
        fs.renameSync(temp, link);
      }
    };
    flip();
    process.stdout.write('ready\\n');
    process.stdin.on('end', () => process.exit(0)).resume();
    const loop = () => { flip(); setImmediate(loop); };
    loop();
  `;
  const child = spawn(process.execPath, ['-e', script, linkPath, a, b], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', () => resolve(child));
  });
}

describe('a symlink flipped while writes run (TOCTOU)', () => {
  it('never lets a write land outside the root', async () => {
    const inside = path.join(root, 'inside');
    await mkdir(inside);
    const flipper = await startFlipper(path.join(root, 'link'), inside, outside);
    const { ctx } = makeContext(root);
    const write = createWriteTool();
    const results: string[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        results.push(
          await write.run({ path: `link/f-${i}.txt`, content: `file ${i}` }, ctx).then(
            () => 'written',
            (error: Error) => error.message,
          ),
        );
      }
    } finally {
      flipper.kill('SIGKILL');
      await new Promise((resolve) => flipper.once('exit', resolve));
    }
    expect(await readdir(outside)).toEqual([]);
    const written = results.filter((result) => result === 'written').length;
    expect(written).toBeGreaterThan(0);
    // Every write either landed inside or was refused with a reason.
    for (const result of results) expect(result).toMatch(/^(written|path outside root: |write: )/);
    expect((await readdir(inside)).length).toBe(written);
  });
});
