import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpServers, type ServerConfigEntry } from '../../../src/mcp/config.js';
import { ConfigError } from '../../../src/util/json-file.js';

describe('mcp.json "sandbox"', () => {
  let base: string;
  let projectDir: string;
  let homeDir: string;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-mcp-sandbox-')));
    projectDir = path.join(base, 'project');
    homeDir = path.join(base, 'home');
    await mkdir(path.join(projectDir, '.geekagent'), { recursive: true });
    await mkdir(path.join(homeDir, '.geekagent'), { recursive: true });
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const load = async (project: unknown, user?: unknown) => {
    await writeFile(path.join(projectDir, '.geekagent', 'mcp.json'), JSON.stringify(project));
    if (user !== undefined)
      await writeFile(path.join(homeDir, '.geekagent', 'mcp.json'), JSON.stringify(user));
    return (
      await loadMcpServers({ projectDir, homeDir, env: { HOME: homeDir, DATA: 'data' }, project: true })
    ).entries;
  };
  const sandboxOf = (entry: ServerConfigEntry | undefined) =>
    entry?.kind === 'ok' && entry.definition.transport === 'stdio' ? entry.definition.sandbox : 'not ok';

  it('true confines with nothing extra; an object resolves its paths and expands variables', async () => {
    const entries = await load({
      mcpServers: {
        plain: { command: 'x', sandbox: true },
        wide: {
          command: 'x',
          sandbox: {
            allowWrite: ['../${DATA}', '~/cache'],
            network: { allow: ['db.example.com'] },
            denyRead: ['keys'],
          },
        },
        open: { command: 'x' },
      },
    });
    expect(sandboxOf(entries[0])).toEqual({ from: 'entry', allowWrite: [], allowHosts: [], denyRead: [] });
    expect(sandboxOf(entries[1])).toEqual({
      from: 'entry',
      allowWrite: [path.join(base, 'data'), path.join(homeDir, 'cache')],
      allowHosts: ['db.example.com'],
      denyRead: [path.join(projectDir, 'keys')],
    });
    expect(sandboxOf(entries[2])).toBeUndefined();
  });

  it('the user\'s projectServers default confines project servers, "sandbox": false included; not the user\'s own', async () => {
    const entries = await load(
      { mcpServers: { repo: { command: 'x', sandbox: false }, other: { command: 'y' } } },
      { sandbox: { projectServers: true }, mcpServers: { mine: { command: 'z' } } },
    );
    expect(entries.map((entry) => [entry.name, sandboxOf(entry)])).toEqual([
      ['repo', { from: 'default', allowWrite: [], allowHosts: [], denyRead: [] }],
      ['other', { from: 'default', allowWrite: [], allowHosts: [], denyRead: [] }],
      ['mine', undefined],
    ]);
  });

  it('a project file cannot set the default; a bad user default is a ConfigError', async () => {
    const entries = await load({
      sandbox: { projectServers: false },
      mcpServers: { repo: { command: 'x' } },
    });
    expect(sandboxOf(entries[0])).toBeUndefined();
    await expect(load({ mcpServers: {} }, { sandbox: { projectServers: 'yes' } })).rejects.toThrow(
      ConfigError,
    );
    await expect(load({ mcpServers: {} }, { sandbox: { projectServer: true } })).rejects.toThrow(
      /at sandbox\.projectServer: unknown key/,
    );
  });

  it('on a remote server, or with a wrong shape, it is an error naming the server', async () => {
    const entries = await load({
      mcpServers: {
        remote: { type: 'sse', url: 'http://127.0.0.1:9/sse', sandbox: true },
        typo: { command: 'x', sandbox: { allowWrites: [] } },
        wrong: { command: 'x', sandbox: 'yes' },
      },
    });
    const errors = entries.map((entry) => (entry.kind === 'invalid' ? entry.error : ''));
    expect(errors[0]).toContain(
      'at mcpServers.remote.sandbox: "sandbox" confines a local (stdio) server; server "remote" is remote (sse)',
    );
    expect(errors[1]).toContain(
      'at mcpServers.typo.sandbox.allowWrites: unknown key "allowWrites" (did you mean "allowWrite"?)',
    );
    expect(errors[2]).toContain('at mcpServers.wrong.sandbox: expected true, false or an object');
  });
});
