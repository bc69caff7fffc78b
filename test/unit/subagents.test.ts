import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/subagents/definitions.js';
import { parseFrontmatter } from '../../src/subagents/frontmatter.js';

describe('agent frontmatter', () => {
  it('reads strings, inline and block lists, quotes and comments', () => {
    const parsed = parseFrontmatter(
      '---\nname: rev   # the name\ndescription: "a # b"\ntools: [read, mcp_x_*]  # tools\nmore:\n  - a\n  - "b"\n---\nBody\n',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.fields.name!.value).toBe('rev');
    expect(parsed.fields.description!.value).toBe('a # b');
    expect(parsed.fields.tools).toEqual({ value: ['read', 'mcp_x_*'], line: 4 });
    expect(parsed.fields.more!.value).toEqual(['a', 'b']);
    expect(parsed.body).toBe('Body\n');
  });

  it('names the line of what it cannot read', () => {
    expect(parseFrontmatter('name: x\n')).toMatchObject({ ok: false, line: 1 });
    expect(parseFrontmatter('---\nname: x\nthis is not a pair\n---\n')).toMatchObject({ ok: false, line: 3 });
    expect(parseFrontmatter('---\nname: x\n')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not closed/),
    });
  });
});

describe('loading agents', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'agents-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a project agent replaces a user agent of the same name; errors name file and line', async () => {
    const user = path.join(dir, 'user');
    const project = path.join(dir, 'project');
    await Promise.all([
      import('node:fs/promises').then((fs) => fs.mkdir(user)),
      import('node:fs/promises').then((fs) => fs.mkdir(project)),
    ]);
    await writeFile(path.join(user, 'a.md'), '---\ndescription: user one\ntools: read\n---\n');
    await writeFile(path.join(project, 'a.md'), '---\ndescription: project one\nmax_rounds: 7\n---\nGo.\n');
    await writeFile(path.join(project, 'bad.md'), '---\ndescription: x\nmax_rounds: many\n---\n');
    const catalog = await loadAgents({ user, project });
    const a = catalog.agents.find((agent) => agent.name === 'a')!;
    expect(a).toMatchObject({ description: 'project one', maxRounds: 7, instructions: 'Go.' });
    expect(a.tools).toContain('read');
    expect(a.tools).not.toContain('write');
    expect(catalog.agents.map((agent) => agent.name)).toEqual(['explore', 'a']);
    expect(catalog.errors).toEqual([
      {
        file: path.join(project, 'bad.md'),
        line: 3,
        message: '"max_rounds" must be a whole number from 1 to 100',
      },
    ]);
  });

  it('reads Claude Code tool names in `tools` as GeekAgent’s (one pattern syntax everywhere)', async () => {
    await writeFile(
      path.join(dir, 'c.md'),
      '---\ndescription: claude style\ntools: Read, Grep, mcp_demo_*\n---\n',
    );
    const catalog = await loadAgents({ user: dir });
    expect(catalog.agents.find((agent) => agent.name === 'c')!.tools).toEqual([
      'read',
      'search',
      'mcp_demo_*',
    ]);
  });
});
