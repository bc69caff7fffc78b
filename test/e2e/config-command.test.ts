/**
 * `geekagent config` on the built CLI: every effective setting with its source, one key with
 * `get`, JSON output, secrets never printed; and the one trust decision every command goes
 * through — an untrusted folder's files ignored with the usual notice, for `config` and `mcp list`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProject, DEMO_SERVER, type Project, runCli } from './harness.js';

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

const userDir = () => path.join(project.home, '.geekagent');

async function writeUser(name: string, value: unknown): Promise<string> {
  const file = path.join(userDir(), name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
  return file;
}

interface JsonSetting {
  key: string;
  value?: unknown;
  secret?: boolean;
  set?: boolean;
  source: Record<string, unknown>;
}

describe('geekagent config', () => {
  it('lists each effective setting with its value and source, the key never printed', async () => {
    const userFile = await writeUser('GeekAgent.json', {
      tools: { run_shell: 'ask' },
      sandbox: { mode: 'workspace-write' },
    });
    const projectFile = await project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ tools: { write: 'allow' }, sandbox: { mode: 'read-only' } }),
    );
    const localFile = await project.write(
      '.geekagent/GeekAgent.local.json',
      JSON.stringify({ tools: { read: 'deny' } }),
    );
    const dotenv = await project.write(
      '.env',
      'ANTHROPIC_API_KEY=sk-ant-very-secret\nGEEKAGENT_PROVIDER=anthropic\n',
    );

    const run = await runCli(['config', '--json'], { project, env: { OPENAI_API_KEY: undefined } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('sk-ant-very-secret');
    const { trusted, settings } = JSON.parse(run.stdout) as { trusted: boolean; settings: JsonSetting[] };
    expect(trusted).toBe(true);
    const byKey = new Map(settings.map((setting) => [setting.key, setting]));
    expect(byKey.get('tools.run_shell')).toMatchObject({
      value: 'ask',
      source: { scope: 'user', file: userFile },
    });
    expect(byKey.get('tools.write')).toMatchObject({
      value: 'allow',
      source: { scope: 'project', file: projectFile },
    });
    expect(byKey.get('tools.read')).toMatchObject({
      value: 'deny',
      source: { scope: 'project-local', file: localFile },
    });
    expect(byKey.get('sandbox.mode')).toMatchObject({ value: 'read-only', source: { scope: 'project' } });
    expect(byKey.get('model.provider')).toMatchObject({
      value: 'anthropic',
      source: { kind: 'env', variable: 'GEEKAGENT_PROVIDER', file: dotenv },
    });
    expect(byKey.get('model.apiKey')).toEqual({
      key: 'model.apiKey',
      secret: true,
      set: true,
      source: { kind: 'env', variable: 'ANTHROPIC_API_KEY', file: dotenv },
    });

    const text = await runCli(['config'], { project, env: { OPENAI_API_KEY: undefined } });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`tools.run_shell = "ask"  [user ${userFile} (tools.run_shell)]\n`);
    expect(text.stdout).toContain(`model.apiKey = set (from .env)  [.env ${dotenv} (ANTHROPIC_API_KEY)]\n`);
    expect(text.stdout).not.toContain('sk-ant-very-secret');
  });

  it('get shows one key (or a key and everything under it) and where it came from; --sandbox wins', async () => {
    const userFile = await writeUser('GeekAgent.json', { sandbox: { mode: 'read-only' } });
    const one = await runCli(['config', 'get', 'sandbox.mode'], { project });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(`sandbox.mode = "read-only"  [user ${userFile} (sandbox.mode)]\n`);

    const flag = await runCli(['config', 'get', 'sandbox.mode', '--sandbox', 'off'], { project });
    expect(flag.stdout).toBe('sandbox.mode = "off"  [flag --sandbox]\n');

    const under = await runCli(['config', 'get', 'model', '--json'], { project });
    const keys = (JSON.parse(under.stdout) as { settings: JsonSetting[] }).settings.map((s) => s.key);
    expect(keys).toContain('model.model');
    expect(keys.every((key) => key.startsWith('model.'))).toBe(true);

    const missing = await runCli(['config', 'get', 'no.such.key'], { project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('geekagent config: no setting named no.such.key (see geekagent config)');
  });

  it('names the file, line and column of a malformed settings file', async () => {
    const file = await project.write(
      '.geekagent/GeekAgent.json',
      '{\n  "tools": {\n    "read": "allow",\n  }\n}\n',
    );
    const run = await runCli(['config'], { project });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`${file}: invalid JSON at line 4, column 3: property name expected\n`);
  });

  it('escapes control characters a project file carries', async () => {
    await project.write('.geekagent/GeekAgent.json', JSON.stringify({ tools: { 'evil\u001b[2J': 'deny' } }));
    const run = await runCli(['config'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).toContain('tools.evil^[[2J = "deny"');
  });

  it("shows a server's command and address as mcp.json writes them, not the environment's values", async () => {
    await project.mcpServers({
      local: { command: '${TOOLS_DIR}/server', args: ['--token', '${TOOL_TOKEN}'] },
      remote: { type: 'http', url: 'https://user:pw@mcp.example.com/${PATH_KEY}/mcp?token=${TOOL_TOKEN}' },
    });
    const env = { TOOLS_DIR: '/opt/tools-dir-value', PATH_KEY: 'path-key-value', TOOL_TOKEN: 'token-value' };
    const run = await runCli(['config', '--json'], { project, env });
    expect(run.code, run.stderr).toBe(0);
    const { settings } = JSON.parse(run.stdout) as { settings: JsonSetting[] };
    const byKey = new Map(settings.map((setting) => [setting.key, setting.value]));
    expect(byKey.get('mcpServers.local')).toBe('stdio: ${TOOLS_DIR}/server');
    expect(byKey.get('mcpServers.remote')).toBe('http: https://mcp.example.com/${PATH_KEY}/mcp');
    for (const value of [...Object.values(env), 'pw@']) expect(run.stdout).not.toContain(value);

    // `mcp get` shows the whole command line and address, as written: no value of the environment,
    // and no credential written into the file (src/mcp/describe.ts maskedUrl).
    const local = await runCli(['mcp', 'get', 'local'], { project, env });
    expect(local.stdout).toContain('  command: ${TOOLS_DIR}/server --token ${TOOL_TOKEN}\n');
    const remote = await runCli(['mcp', 'get', 'remote'], { project, env });
    expect(remote.stdout).toContain(
      '  url: https://***@mcp.example.com/${PATH_KEY}/mcp?token=${TOOL_TOKEN}\n',
    );
  });

  it('in an untrusted folder: the project files count only where they tighten, with the usual notice', async () => {
    await project.write(
      '.geekagent/GeekAgent.json',
      JSON.stringify({ tools: { write: 'allow', run_shell: 'deny' }, sandbox: { mode: 'read-only' } }),
    );
    await project.mcpServers({ demo: { command: 'node', args: [DEMO_SERVER] } });
    const run = await runCli(['config'], { project, trusted: false });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'geekagent: folder not trusted: ignoring .geekagent/mcp.json (1 server), 1 allow rule',
    );
    expect(run.stdout).toContain('tools.run_shell = "deny"');
    expect(run.stdout).not.toContain('tools.write');
    expect(run.stdout).not.toContain('mcpServers.demo');
    expect(run.stdout).toContain('sandbox.mode = "workspace-write"  [default]');
  });
});

describe('geekagent mcp list in an untrusted folder', () => {
  it("leaves the project's mcp.json servers out and says so, the user's servers still listed", async () => {
    await project.mcpServers({ demo: { command: 'node', args: [DEMO_SERVER] } });
    await writeUser('mcp.json', { mcpServers: { mine: { command: 'node', args: [DEMO_SERVER] } } });
    const run = await runCli(['mcp', 'list'], { project, trusted: false });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('geekagent: folder not trusted: ignoring .geekagent/mcp.json (1 server)');
    expect(run.stdout).toContain('mine (2 tools)');
    expect(run.stdout).not.toContain('demo (');

    const get = await runCli(['mcp', 'get', 'demo'], { project, trusted: false });
    expect(get.code).toBe(1);
    expect(get.stderr).toContain(
      'MCP server demo is declared in .geekagent/mcp.json, but this folder is not trusted',
    );

    const trusted = await runCli(['mcp', 'list'], { project });
    expect(trusted.stdout).toContain('demo (2 tools)');
  });
});
