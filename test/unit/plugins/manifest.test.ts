/**
 * Reading a plugin folder (real files in a temp dir): paths the manifest names stay inside the
 * folder, a link out of it is never read, the plugin's folder variables are replaced, a folder
 * in neither format is refused with both manifest names, and the content hash sees any edit.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderHash } from '../../../src/plugins/files.js';
import { readPlugin } from '../../../src/plugins/manifest.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-plugin-unit-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function put(relative: string, text: string): Promise<void> {
  const file = path.join(base, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe('readPlugin', () => {
  it('keeps manifest paths inside the folder and never follows a link out', async () => {
    await put('outside/commands/evil.md', 'Evil.\n');
    await put(
      'p/.claude-plugin/plugin.json',
      JSON.stringify({ name: 'p', commands: ['../outside/commands', './extra/one.md'], hooks: './h.json' }),
    );
    await put('p/extra/one.md', 'One.\n');
    await put(
      'p/h.json',
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/stop.sh' }] }] },
      }),
    );
    await symlink(path.join(base, 'outside', 'commands'), path.join(base, 'p', 'commands'));
    const read = await readPlugin(path.join(base, 'p'));
    if (!read.ok) throw new Error(read.error);
    expect(read.plugin.commands.map((c) => c.name)).toEqual(['one']);
    expect(read.plugin.problems).toEqual([
      '.claude-plugin/plugin.json: "commands": ../outside/commands is outside the plugin folder',
    ]);
    expect(read.plugin.hooks.map((h) => h.command)).toEqual([`${path.join(base, 'p')}/stop.sh`]);
  });

  it('reads a Gemini extension: TOML commands by folder, the default GEMINI.md, ${extensionPath}', async () => {
    await put(
      'g/gemini-extension.json',
      JSON.stringify({
        name: 'g',
        mcpServers: { s: { command: 'node', args: ['${extensionPath}${/}s.js'] } },
      }),
    );
    await put('g/GEMINI.md', 'Context.\n');
    await put('g/commands/git/commit.toml', 'prompt = "Commit {{args}}"\n');
    const read = await readPlugin(path.join(base, 'g'));
    if (!read.ok) throw new Error(read.error);
    expect(read.plugin.format).toBe('gemini');
    expect(read.plugin.commands).toEqual([
      { name: 'git:commit', file: path.join(base, 'g', 'commands', 'git', 'commit.toml'), kind: 'toml' },
    ]);
    expect(read.plugin.contextFiles).toEqual([path.join(base, 'g', 'GEMINI.md')]);
    expect(read.plugin.servers).toEqual({
      s: { command: 'node', args: [`${path.join(base, 'g')}${path.sep}s.js`] },
    });
  });

  it('refuses a folder in neither format, and a bad name', async () => {
    await mkdir(path.join(base, 'empty'));
    const empty = await readPlugin(path.join(base, 'empty'));
    expect(empty).toEqual({
      ok: false,
      error: `${path.join(base, 'empty')}: no .claude-plugin/plugin.json (a Claude Code plugin) or gemini-extension.json (a Gemini CLI extension)`,
    });
    await put('bad/.claude-plugin/plugin.json', JSON.stringify({ name: '../x' }));
    const bad = await readPlugin(path.join(base, 'bad'));
    expect(bad.ok).toBe(false);
  });

  it('hashes every file: an edit and an added file change it', async () => {
    await put('h/a.txt', 'a');
    const first = folderHash(path.join(base, 'h'));
    expect(folderHash(path.join(base, 'h'))).toBe(first);
    await put('h/a.txt', 'b');
    const edited = folderHash(path.join(base, 'h'));
    expect(edited).not.toBe(first);
    await put('h/sub/new.txt', '');
    expect(folderHash(path.join(base, 'h'))).not.toBe(edited);
  });
});
