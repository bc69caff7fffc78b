/**
 * The Agent Skills spec's limits on a SKILL.md, read from real files: the name (1-64 of a-z 0-9
 * and hyphens, no hyphen at either end or twice in a row, the same as its folder), the description
 * (1-1,024 characters), compatibility (1-500). A skill that breaks one is an error with its line.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSkill } from '../../../src/skills/discover.js';

let base: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-skill-'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function skill(folder: string, front: string) {
  const dir = path.join(base, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), `---\n${front}\n---\nBody.\n`);
  return readSkill(dir, 'project');
}

describe('skill validation', () => {
  it('accepts the limits exactly', async () => {
    const name = `a${'-b'.repeat(31)}c`.slice(0, 64);
    expect(name).toHaveLength(64);
    const ok = await skill(
      name,
      `name: ${name}\ndescription: ${'d'.repeat(1024)}\ncompatibility: ${'c'.repeat(500)}`,
    );
    expect(ok.status).toEqual({ kind: 'ok' });
    expect((await skill('plain', 'description: no name: the folder names it')).name).toBe('plain');
  });

  it('the shipped examples pass', async () => {
    const examples = path.resolve(import.meta.dirname, '../../../examples/skills');
    const folders = await readdir(examples);
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      const read = await readSkill(path.join(examples, folder), 'user');
      expect(read.status, folder).toEqual({ kind: 'ok' });
    }
  });

  it.each([
    ['-lead', 'description: x', 1, 'name "-lead" must be 1-64 lowercase letters'],
    ['trail-', 'description: x', 1, 'name "trail-" must be 1-64'],
    ['dou--ble', 'description: x', 1, 'name "dou--ble" must be 1-64'],
    ['a'.repeat(65), 'description: x', 1, 'must be 1-64'],
    ['folder', 'name: other\ndescription: x', 2, 'name "other" differs from its folder "folder"'],
    ['nodesc', 'name: nodesc', 1, 'description is missing'],
    ['longdesc', `description: ${'d'.repeat(1025)}`, 2, 'description is 1025 characters (at most 1024)'],
    [
      'compat',
      `name: compat\ndescription: x\ncompatibility: ${'c'.repeat(501)}`,
      4,
      'compatibility is 501 characters (at most 500)',
    ],
    ['empty-compat', 'description: x\ncompatibility: ""', 3, 'compatibility must be a non-empty text'],
  ])('%s is an error with its line', async (folder, front, line, message) => {
    const read = await skill(folder, front);
    expect(read.status).toMatchObject({ kind: 'error', line });
    expect(read.status.kind === 'error' && read.status.message).toContain(message);
    // Listed under its folder's name, so /skills shows it and /use cannot load it.
    expect(read.name).toBe(folder);
  });
});
