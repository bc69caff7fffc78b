/**
 * The settings model (src/settings/): scopes and their files, one read per file per run, sections
 * with their sources, narrowing, a malformed file named with its line and column, project-local
 * files — on real temp files, GEEKAGENT_HOME in a temp folder.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFolder } from '../../../src/boot/bootstrap.js';
import { decideFolderTrust } from '../../../src/boot/folder-trust.js';
import { effectiveSettings } from '../../../src/boot/settings-registry.js';
import { hookSettingsSection, readHookSettings } from '../../../src/config/hook-settings.js';
import { resolveModelSettingsWithSources } from '../../../src/config/model-settings.js';
import { loadPermissionConfig, permissionSettingsSection } from '../../../src/permissions/config.js';
import {
  describeSandboxSettings,
  narrowerSection,
  sandboxSettingsSection,
} from '../../../src/sandbox/index.js';
import { describeValue, flattenSection, type Setting } from '../../../src/settings/effective.js';
import { envSettings } from '../../../src/settings/env.js';
import { SettingsFiles, settingsFilePath } from '../../../src/settings/files.js';
import { readSection } from '../../../src/settings/section.js';
import { ConfigError } from '../../../src/util/json-file.js';

describe('the settings model', () => {
  let base: string;
  let projectDir: string;
  let homeDir: string;
  let userDir: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-settings-')));
    projectDir = path.join(base, 'project');
    homeDir = path.join(base, 'home');
    userDir = path.join(homeDir, '.geekagent');
    await mkdir(projectDir, { recursive: true });
    await mkdir(userDir, { recursive: true });
    env = { GEEKAGENT_HOME: userDir };
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const places = () => ({ projectDir, userDir });
  const write = async (file: string, value: unknown) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return file;
  };
  const userFile = () => path.join(userDir, 'GeekAgent.json');
  const projectFile = () => path.join(projectDir, '.geekagent', 'GeekAgent.json');
  const localFile = () => path.join(projectDir, '.geekagent', 'GeekAgent.local.json');

  it('places each scope: user in GEEKAGENT_HOME, project and its .local variant in .geekagent/, models.json user only, mcp.json no .local', () => {
    expect(settingsFilePath('GeekAgent.json', 'user', places())).toBe(userFile());
    expect(settingsFilePath('GeekAgent.json', 'project', places())).toBe(projectFile());
    expect(settingsFilePath('GeekAgent.json', 'project-local', places())).toBe(localFile());
    // No project-local MCP scope: nothing would read it.
    expect(settingsFilePath('mcp.json', 'project-local', places())).toBeUndefined();
    expect(settingsFilePath('mcp.json', 'project', places())).toBe(
      path.join(projectDir, '.geekagent', 'mcp.json'),
    );
    expect(settingsFilePath('models.json', 'user', places())).toBe(path.join(userDir, 'models.json'));
    expect(settingsFilePath('models.json', 'project', places())).toBeUndefined();
  });

  it('reads each file once per run, however many sections it holds', async () => {
    await write(userFile(), { tools: { read: 'allow' }, sandbox: { mode: 'read-only' }, hooks: {} });
    await write(projectFile(), { tools: { write: 'ask' } });
    const reads: string[] = [];
    const files = new SettingsFiles({ onRead: (file) => reads.push(file) });
    await readSection(files, permissionSettingsSection, places());
    await readSection(files, sandboxSettingsSection, places());
    await readSection(files, hookSettingsSection, places());
    await loadPermissionConfig({ projectDir, homeDir, userDir, files });
    await readHookSettings(userFile(), files);
    expect(reads.sort()).toEqual([localFile(), projectFile(), userFile()].sort());
  });

  it('gives each scope its layer, lowest precedence first, with the file it came from', async () => {
    await write(userFile(), { sandbox: { mode: 'workspace-write' } });
    await write(projectFile(), { sandbox: { mode: 'read-only' } });
    await write(localFile(), { sandbox: { denyRead: ['secrets'] } });
    const read = await readSection(new SettingsFiles(), sandboxSettingsSection, places());
    expect(read.layers).toEqual([
      { scope: 'user', file: userFile(), value: { mode: 'workspace-write' } },
      { scope: 'project', file: projectFile(), value: { mode: 'read-only' } },
      { scope: 'project-local', file: localFile(), value: { denyRead: ['secrets'] } },
    ]);
  });

  it('names the file, line and column of a malformed file, for every reader that asks', async () => {
    await write(projectFile(), '{\n  "tools": {\n    "read": "allow",\n  }\n}\n');
    const files = new SettingsFiles();
    const error = await readSection(files, permissionSettingsSection, places()).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `${projectFile()}: invalid JSON at line 4, column 3: property name expected`,
    );
    // A section that reports (hooks) says the same, and the run goes on.
    const hooks = await readHookSettings(projectFile(), files);
    expect(hooks.hooks).toEqual([]);
    expect(hooks.problem).toContain(`${projectFile()}: invalid JSON at line 4, column 3`);
  });

  it('names the JSON path of a value its section refuses', async () => {
    await write(userFile(), { sandbox: { mode: 'everything' } });
    const error = await readSection(new SettingsFiles(), sandboxSettingsSection, places()).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(
      new RegExp(`^${regexpText(userFile())}: at sandbox\\.mode: `),
    );
  });

  it('flattens a section key by key, the higher scope winning, each value with its source', async () => {
    await write(userFile(), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'user-stop' }] }] } });
    await write(projectFile(), {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'project-stop' }] }],
        PreToolUse: [{ matcher: 'write', hooks: [{ type: 'command', command: 'check' }] }],
      },
    });
    const read = await readSection(new SettingsFiles(), hookSettingsSection, places());
    const settings = flattenSection(hookSettingsSection, read);
    expect(settings.map((s) => [s.key, s.source])).toEqual([
      ['hooks.Stop', { kind: 'file', scope: 'project', file: projectFile(), key: 'hooks.Stop' }],
      ['hooks.PreToolUse', { kind: 'file', scope: 'project', file: projectFile(), key: 'hooks.PreToolUse' }],
    ]);
  });

  it('lets a project and a project-local file only narrow the sandbox', async () => {
    await write(userFile(), { sandbox: { mode: 'workspace-write', network: { allow: ['a.com', 'b.com'] } } });
    await write(projectFile(), { sandbox: { mode: 'off', network: { allow: ['a.com', 'c.com'] } } });
    await write(localFile(), { sandbox: { mode: 'read-only', autoAllow: false } });
    const read = await readSection(new SettingsFiles(), sandboxSettingsSection, places());
    const { settings, ignored } = describeSandboxSettings(read.layers, {
      mode: undefined,
      source: { kind: 'default' },
    });
    const byKey = Object.fromEntries(settings.map((s) => [s.key, s]));
    expect(byKey['sandbox.mode']?.value).toBe('read-only');
    expect(byKey['sandbox.mode']?.source).toEqual({
      kind: 'file',
      scope: 'project-local',
      file: localFile(),
      key: 'sandbox.mode',
    });
    expect(byKey['sandbox.network.allow']?.value).toEqual(['a.com']);
    expect(byKey['sandbox.autoAllow']?.value).toBe(false);
    expect(ignored).toEqual(["network.allow c.com (not in the user's list)"]);
    // Two narrowing files: the stricter of each, never the looser.
    expect(narrowerSection({ mode: 'off' }, { mode: 'read-only' })?.mode).toBe('read-only');
    expect(narrowerSection({ mode: 'read-only' }, { mode: 'off' })?.mode).toBe('read-only');
  });

  it("takes a project-local file's ask and deny rules, never its allows, and never loosens a project rule", async () => {
    await write(projectFile(), { tools: { run_shell: 'deny', write: 'allow' } });
    await write(localFile(), {
      tools: { run_shell: 'ask', write: 'ask', fetch: 'allow', read: 'deny' },
      fetch: { allowHosts: ['10.0.0.1'] },
      sandbox: { mode: 'read-only' },
    });
    const config = await loadPermissionConfig({ projectDir, homeDir, userDir });
    expect(config.projectRules).toEqual({ run_shell: 'deny', write: 'ask', read: 'deny' });
    expect(config.projectFetchAllow).toEqual([]);
    expect(config.projectSandbox).toEqual({ mode: 'read-only' });
  });

  it('says where each variable came from: the real environment wins over .env', () => {
    const settings = envSettings(
      { OPENAI_MODEL: 'real-model' },
      { file: path.join(projectDir, '.env'), values: { OPENAI_MODEL: 'file-model', OPENAI_API_KEY: 'sk-x' } },
    );
    expect(settings.env.OPENAI_MODEL).toBe('real-model');
    expect(settings.source('OPENAI_MODEL')).toEqual({ kind: 'env', variable: 'OPENAI_MODEL' });
    expect(settings.source('OPENAI_API_KEY')).toEqual({
      kind: 'env',
      variable: 'OPENAI_API_KEY',
      file: path.join(projectDir, '.env'),
    });
    expect(settings.source('GEEKAGENT_PROVIDER')).toEqual({ kind: 'default' });
  });

  it('keeps the source of each model setting and never shows the key', () => {
    const fromEnv = envSettings(
      { GEEKAGENT_MAX_RETRIES: '5' },
      { file: '/p/.env', values: { OPENAI_API_KEY: 'sk-secret' } },
    );
    const named = new Map([
      ['alt', { provider: 'anthropic' as const, model: 'claude-x', contextWindow: 1000 }],
    ]);
    const { settings, sources } = resolveModelSettingsWithSources(
      fromEnv.env,
      { model: 'alt' },
      named,
      '/home/models.json',
      fromEnv.source,
    );
    expect(settings.model).toBe('claude-x');
    expect(sources.model).toEqual({
      kind: 'file',
      scope: 'user',
      file: '/home/models.json',
      key: 'models.alt.model',
    });
    expect(sources.contextWindow).toEqual({
      kind: 'file',
      scope: 'user',
      file: '/home/models.json',
      key: 'models.alt.contextWindow',
    });
    expect(sources.maxRetries).toEqual({ kind: 'env', variable: 'GEEKAGENT_MAX_RETRIES' });
    expect(sources.baseURL).toEqual({ kind: 'default' });
    const flags = resolveModelSettingsWithSources(
      fromEnv.env,
      { provider: 'openai' },
      new Map(),
      'm',
      fromEnv.source,
    );
    expect(flags.sources.provider).toEqual({ kind: 'cli', flag: '--provider' });
    const key: Setting = {
      key: 'model.apiKey',
      value: flags.settings.apiKey,
      source: flags.sources.apiKey,
      secret: true,
    };
    expect(describeValue(key)).toBe('set (from .env)');
  });

  it('lists an untrusted folder as the run uses it: its allows, sandbox, hooks and servers left out', async () => {
    await write(userFile(), { tools: { read: 'ask' } });
    await write(projectFile(), {
      tools: { write: 'allow', run_shell: 'deny' },
      sandbox: { mode: 'read-only' },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'project-stop' }] }] },
    });
    await write(path.join(projectDir, '.geekagent', 'mcp.json'), {
      mcpServers: { evil: { command: 'evil' } },
    });
    await write(path.join(projectDir, '.env'), 'OPENAI_MODEL=from-dotenv\n');
    const notices: string[] = [];
    const trust = await decideFolderTrust({ projectDir, env, homeDir, notice: (text) => notices.push(text) });
    expect(trust.state).toBe('untrusted');
    expect(notices).toEqual([
      expect.stringContaining('folder not trusted: ignoring .geekagent/mcp.json (1 server)'),
    ]);
    const folder = await openFolder({ cwd: projectDir, homeDir, env, trust });
    const untrusted = keys((await effectiveSettings(folder, {})).settings);
    expect(untrusted['tools.read']).toBe('"ask"');
    expect(untrusted['tools.run_shell']).toBe('"deny"');
    expect(untrusted['tools.write']).toBeUndefined();
    expect(untrusted['sandbox.mode']).toBe('"workspace-write"');
    expect(untrusted['hooks.Stop']).toBeUndefined();
    expect(untrusted['mcpServers.evil']).toBeUndefined();
    expect(untrusted['model.model']).toBe('"deepseek-v4-flash"');

    const trusted = await decideFolderTrust({ projectDir, env, homeDir, flag: true });
    const all = keys(
      (await effectiveSettings(await openFolder({ cwd: projectDir, homeDir, env, trust: trusted }), {}))
        .settings,
    );
    expect(all['tools.write']).toBe('"allow"');
    expect(all['sandbox.mode']).toBe('"read-only"');
    expect(all['hooks.Stop']).toBeDefined();
    expect(all['mcpServers.evil']).toBe('"stdio: evil"');
    expect(all['model.model']).toBe('"from-dotenv"');
  });
});

function keys(settings: readonly Setting[]): Record<string, string> {
  return Object.fromEntries(settings.map((setting) => [setting.key, describeValue(setting)]));
}

function regexpText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
