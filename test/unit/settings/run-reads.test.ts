/**
 * One run, one read per settings file: the trust decision's contributors (MCP servers, permission
 * rules, hooks) read GeekAgent.json and mcp.json through the run's settings reads, and the run goes
 * on through the same ones — permissions, hooks, MCP servers and `geekagent config` read nothing
 * again. The declarations (and so the trust record's hash) are the same as read without them.
 * Real temp files, GEEKAGENT_HOME in a temp folder.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFolder } from '../../../src/boot/bootstrap.js';
import { decideFolderTrust } from '../../../src/boot/folder-trust.js';
import { effectiveSettings } from '../../../src/boot/settings-registry.js';
import { TRUST_CONTRIBUTORS } from '../../../src/boot/trust-contributors.js';
import { loadHooks } from '../../../src/hooks/config.js';
import { loadMcpServers, mcpSettingsSection } from '../../../src/mcp/config.js';
import { loadPermissionConfig } from '../../../src/permissions/config.js';
import { SettingsFiles } from '../../../src/settings/files.js';
import { readSection } from '../../../src/settings/section.js';
import { readDeclarations } from '../../../src/trust/declarations.js';
import { ConfigError } from '../../../src/util/json-file.js';

describe('one run reads each settings file once', () => {
  let base: string;
  let projectDir: string;
  let homeDir: string;
  let userDir: string;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-run-reads-')));
    projectDir = path.join(base, 'project');
    homeDir = path.join(base, 'home');
    userDir = path.join(homeDir, '.geekagent');
    await mkdir(path.join(projectDir, '.geekagent'), { recursive: true });
    await mkdir(userDir, { recursive: true });
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const write = (file: string, value: unknown) => writeFile(file, JSON.stringify(value, null, 2));
  const projectFile = (name: string) => path.join(projectDir, '.geekagent', name);

  async function writeFolder(): Promise<void> {
    await write(projectFile('GeekAgent.json'), {
      tools: { run_shell: 'allow' },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] },
    });
    await write(projectFile('mcp.json'), { mcpServers: { docs: { command: 'node', args: ['docs.mjs'] } } });
    await write(path.join(userDir, 'GeekAgent.json'), { tools: { read_file: 'allow' } });
    await write(path.join(userDir, 'mcp.json'), {
      mcpServers: { mine: { type: 'http', url: 'https://mcp.example/x?k=1' } },
    });
  }

  it('from the trust decision to the servers: each file once, the same declarations as a plain read', async () => {
    await writeFolder();
    const reads: string[] = [];
    const files = new SettingsFiles({ onRead: (file) => reads.push(file) });
    const env = { GEEKAGENT_HOME: userDir };
    const trust = await decideFolderTrust({ projectDir, env, homeDir, flag: true, files });
    expect(trust.files).toBe(files);
    const folder = await openFolder({ cwd: projectDir, homeDir, env, trust });
    expect(folder.settingsFiles).toBe(files);
    await loadPermissionConfig({ projectDir, homeDir, userDir, files });
    await loadHooks({ userDir, projectDir, projectTrusted: true, files });
    const servers = await loadMcpServers({ projectDir, homeDir, userDir, env, project: true, files });
    expect(servers.entries.map((entry) => entry.name)).toEqual(['docs', 'mine']);
    const { settings } = await effectiveSettings(folder, {});
    expect(settings.find((s) => s.key === 'mcpServers.docs')).toMatchObject({
      value: 'stdio: node',
      source: { kind: 'file', scope: 'project', file: projectFile('mcp.json') },
    });
    // The summary never shows a query (it may hold a key).
    expect(settings.find((s) => s.key === 'mcpServers.mine')?.value).toBe('http: https://mcp.example/x');

    const counts = new Map<string, number>();
    for (const file of reads) counts.set(file, (counts.get(file) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect([...counts.keys()].sort()).toEqual(
      expect.arrayContaining([
        projectFile('GeekAgent.json'),
        projectFile('mcp.json'),
        path.join(userDir, 'GeekAgent.json'),
        path.join(userDir, 'mcp.json'),
      ]),
    );

    // Byte-identical declarations: a folder trusted before stays trusted.
    const plain = await readDeclarations(projectDir, TRUST_CONTRIBUTORS);
    expect(trust.declarations.items).toEqual(plain.items);
    expect(trust.declarations.items.map((item) => item.key)).toEqual(
      expect.arrayContaining(['server:docs', 'allow:run_shell', 'hook:Stop:0']),
    );
  });

  it("reads mcp.json as the MCP feature's section: user and project scopes, no project-local file", async () => {
    await writeFolder();
    await write(projectFile('mcp.local.json'), { mcpServers: { ignored: { command: 'x' } } });
    const read = await readSection(new SettingsFiles(), mcpSettingsSection, { projectDir, userDir });
    expect(read.layers.map((layer) => [layer.scope, Object.keys(layer.value.mcpServers ?? {})])).toEqual([
      ['user', ['mine']],
      ['project', ['docs']],
    ]);
  });

  it('a broken project mcp.json stops trust with its ConfigError (file, line, column), read once', async () => {
    await writeFile(projectFile('mcp.json'), '{\n  "mcpServers": {,\n}');
    const reads: string[] = [];
    const files = new SettingsFiles({ onRead: (file) => reads.push(file) });
    const decided = decideFolderTrust({ projectDir, env: { GEEKAGENT_HOME: userDir }, homeDir, files });
    await expect(decided).rejects.toBeInstanceOf(ConfigError);
    await expect(decided).rejects.toThrow(/mcp\.json.*2.*\d/);
    await expect(
      loadMcpServers({ projectDir, homeDir, userDir, env: {}, project: true, files }),
    ).rejects.toBeInstanceOf(ConfigError);
    expect(reads.filter((file) => file === projectFile('mcp.json'))).toHaveLength(1);
  });
});
