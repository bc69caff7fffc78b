// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} references that must stay unexpanded.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadMcpConfig,
  type McpServerDefinition,
  mcpConfigPath,
  type ServerConfigEntry,
} from '../../../src/mcp/config.js';
import { addServerToConfig, removeServerFromConfig } from '../../../src/mcp/config-edit.js';
import { ConfigError } from '../../../src/util/json-file.js';

describe('MCP config editing', () => {
  let base: string;
  let projectDir: string;
  let homeDir: string;
  let projectFile: string;
  let userFile: string;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-mcp-config-')));
    projectDir = path.join(base, 'project');
    homeDir = path.join(base, 'home');
    await mkdir(projectDir);
    await mkdir(homeDir);
    projectFile = path.join(projectDir, '.geekagent', 'mcp.json');
    userFile = path.join(homeDir, '.geekagent', 'mcp.json');
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const write = async (file: string, value: unknown) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const load = (env: NodeJS.ProcessEnv = {}) => loadMcpConfig({ projectDir, homeDir, env });
  const ok = (entry: ServerConfigEntry | undefined): McpServerDefinition => {
    if (entry?.kind !== 'ok') throw new Error(`expected an ok entry, got ${JSON.stringify(entry)}`);
    return entry.definition;
  };

  it('adds and removes servers, keeping other content and never expanding', async () => {
    await write(projectFile, { note: 'keep me', mcpServers: { first: { command: 'a', _comment: 'kept' } } });
    await addServerToConfig(projectFile, 'gh', { command: 'npx', env: { TOKEN: '${GITHUB_TOKEN}' } });
    const afterAdd = JSON.parse(await readFile(projectFile, 'utf8'));
    expect(afterAdd).toEqual({
      note: 'keep me',
      mcpServers: {
        first: { command: 'a', _comment: 'kept' },
        gh: { command: 'npx', env: { TOKEN: '${GITHUB_TOKEN}' } },
      },
    });
    const loaded = await load({ GITHUB_TOKEN: 'secret-value' });
    expect(ok(loaded[1])).toMatchObject({ env: { TOKEN: 'secret-value' } });
    expect(await readFile(projectFile, 'utf8')).not.toContain('secret-value');

    expect(await removeServerFromConfig(projectFile, 'first')).toBe(true);
    expect(await removeServerFromConfig(projectFile, 'first')).toBe(false);
    expect(JSON.parse(await readFile(projectFile, 'utf8'))).toEqual({
      note: 'keep me',
      mcpServers: { gh: { command: 'npx', env: { TOKEN: '${GITHUB_TOKEN}' } } },
    });
  });

  it('creates the file on add and refuses an invalid entry without touching the file', async () => {
    const file = mcpConfigPath('user', { projectDir, homeDir });
    expect(file).toBe(userFile);
    expect(mcpConfigPath('project', { projectDir, homeDir })).toBe(projectFile);
    await addServerToConfig(file, 'demo', { command: 'node', args: ['demo.mjs'] });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      mcpServers: { demo: { command: 'node', args: ['demo.mjs'] } },
    });
    const before = await readFile(file, 'utf8');
    await expect(addServerToConfig(file, 'bad', { command: 'node', arg: ['x'] })).rejects.toThrow(
      `${file}: at mcpServers.bad.arg: unknown key "arg"`,
    );
    await expect(addServerToConfig(file, 'a b', { command: 'node' })).rejects.toBeInstanceOf(ConfigError);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('returns false when removing from a missing file', async () => {
    expect(await removeServerFromConfig(projectFile, 'demo')).toBe(false);
  });

  it('refuses to add to a broken file rather than overwrite it', async () => {
    await write(projectFile, '{"mcpServers": ');
    await expect(addServerToConfig(projectFile, 'demo', { command: 'node' })).rejects.toThrow(/invalid JSON/);
    expect(await readFile(projectFile, 'utf8')).toBe('{"mcpServers": ');
  });
});
