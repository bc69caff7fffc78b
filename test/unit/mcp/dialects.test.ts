/** Where each platform keeps Claude Desktop's and VS Code's user files, read by findSources. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findSources } from '../../../src/mcp/dialects/index.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-dialects-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function put(relative: string, value: unknown): Promise<string> {
  const file = path.join(base, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
  return file;
}

const desktop = { mcpServers: { files: { command: 'npx', args: ['fs'] } } };

describe('findSources', () => {
  it.each([
    ['darwin', {}, 'home/Library/Application Support/Claude/claude_desktop_config.json'],
    ['win32', { APPDATA: 'APPDATA' }, 'APPDATA/Claude/claude_desktop_config.json'],
    ['linux', {}, 'home/.config/Claude/claude_desktop_config.json'],
    ['linux', { XDG_CONFIG_HOME: 'xdg' }, 'xdg/Claude/claude_desktop_config.json'],
  ] as const)('claude-desktop on %s %j: %s', async (platform, env, relative) => {
    const file = await put(relative, desktop);
    const absoluteEnv = Object.fromEntries(
      Object.entries(env).map(([key, value]) => [key, path.join(base, value)]),
    );
    const found = await findSources(
      {
        projectDir: path.join(base, 'project'),
        homeDir: path.join(base, 'home'),
        env: absoluteEnv,
        platform,
      },
      ['claude-desktop'],
    );
    expect(found.sources.map((source) => [source.location.file, source.servers.map((s) => s.entry)])).toEqual(
      [[file, [{ command: 'npx', args: ['fs'] }]]],
    );
  });

  it('the VS Code user profile mcp.json is a user-level source', async () => {
    const file = await put('home/.config/Code/User/mcp.json', { servers: { x: { command: 'x' } } });
    const found = await findSources(
      {
        projectDir: path.join(base, 'project'),
        homeDir: path.join(base, 'home'),
        env: {},
        platform: 'linux',
      },
      ['vscode'],
    );
    expect(found.sources.map((source) => [source.location.file, source.location.level])).toEqual([
      [file, 'user'],
    ]);
  });

  it('a source that is not a regular file is a problem, not a hang', async () => {
    await mkdir(path.join(base, 'project', '.mcp.json'), { recursive: true });
    const found = await findSources(
      {
        projectDir: path.join(base, 'project'),
        homeDir: path.join(base, 'home'),
        env: {},
        platform: 'linux',
      },
      ['claude-code'],
    );
    expect(found.problems).toEqual([
      { dialect: 'claude-code', file: path.join(base, 'project', '.mcp.json'), error: 'not a regular file' },
    ]);
  });
});
