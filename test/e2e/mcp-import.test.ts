// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${VAR} references are what is converted.
/**
 * `geekagent mcp import` from each client's files where that client keeps them (in the test's
 * temp HOME and project), and `geekagent mcp add-json`, through the built CLI.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
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

async function writeHome(relative: string, content: string): Promise<void> {
  const file = path.join(project.home, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

async function servers(file: string): Promise<Record<string, unknown>> {
  return (JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers;
}

const projectFile = () => path.join(project.dir, '.geekagent', 'mcp.json');
const userFile = () => path.join(project.home, '.geekagent', 'mcp.json');

async function fileExists(file: string): Promise<boolean> {
  return readFile(file).then(
    () => true,
    () => false,
  );
}

describe('geekagent mcp import', () => {
  it('claude-code: .mcp.json, ~/.claude.json (top level and this project); dry run writes nothing', async () => {
    await project.write(
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          demo: { type: 'stdio', command: 'node', args: [DEMO_SERVER], env: { LEVEL: '${LEVEL:-3}' } },
          remote: {
            type: 'http',
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer ${TOKEN}' },
            headersHelper: '/bin/get-headers',
          },
        },
      }),
    );
    await writeHome(
      '.claude.json',
      JSON.stringify({
        numStartups: 3,
        mcpServers: { everywhere: { command: 'npx', args: ['-y', 'pkg'], env: { API_KEY: 'sk-secret' } } },
        projects: {
          [project.dir]: { mcpServers: { local: { type: 'sse', url: 'http://127.0.0.1:9/sse' } } },
          '/elsewhere': { mcpServers: { other: { command: 'x' } } },
        },
      }),
    );
    const dry = await runCli(['mcp', 'import', '--from', 'claude-code', '--dry-run'], { project });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`From claude-code:\n  ${path.join(project.home, '.claude.json')} projects[`);
    expect(dry.stdout).toContain(`Into ${projectFile()}:\n`);
    expect(dry.stdout).toContain(
      `  + demo: {"command":"node","args":[${JSON.stringify(DEMO_SERVER)}],"env":{"LEVEL":"\${LEVEL:-3}"}}\n`,
    );
    expect(dry.stdout).toContain('  + local: {"type":"sse","url":"http://127.0.0.1:9/sse"}\n');
    expect(dry.stdout).toContain('      left out: headersHelper (a command that prints headers;');
    // A literal secret is not shown, a variable reference is.
    expect(dry.stdout).toContain(
      '  + everywhere: {"command":"npx","args":["-y","pkg"],"env":{"API_KEY":"<hidden>"}}',
    );
    expect(dry.stdout).toContain('"headers":{"Authorization":"Bearer ${TOKEN}"}');
    expect(dry.stdout).not.toContain('sk-secret');
    expect(dry.stdout).not.toContain('other');
    expect(dry.stdout).toContain('Dry run: nothing written.\n');
    expect(await fileExists(projectFile())).toBe(false);
    expect(await fileExists(userFile())).toBe(false);

    const run = await runCli(['mcp', 'import', '--from', 'claude-code'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(await servers(projectFile())).toEqual({
      local: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
      demo: { command: 'node', args: [DEMO_SERVER], env: { LEVEL: '${LEVEL:-3}' } },
      remote: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer ${TOKEN}' },
      },
    });
    expect(await servers(userFile())).toEqual({
      everywhere: { command: 'npx', args: ['-y', 'pkg'], env: { API_KEY: 'sk-secret' } },
    });
    // ~/.claude.json is the person's own file: its server stays trusted (like `mcp add`); the ones
    // copied from the repo's .mcp.json wait for the trust question.
    expect(run.stdout).toContain(
      'demo, remote came from files in this folder: approve them at the next start',
    );
    const trusted = await readFile(path.join(project.home, '.geekagent', 'trusted.json'), 'utf8');
    expect(trusted).toContain('server:local');
    expect(trusted).not.toContain('server:demo');
    // The imported server works.
    const list = await runCli(['mcp', 'get', 'demo'], { project });
    expect(list.stdout).toContain('demo (2 tools)');
  });

  it('claude-desktop: ~/.config/Claude/claude_desktop_config.json into the user file (or --scope project)', async () => {
    await writeHome(
      '.config/Claude/claude_desktop_config.json',
      JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', '@x/fs', '/tmp'] } } }),
    );
    const run = await runCli(['mcp', 'import', '--from', 'claude-desktop', '--scope', 'project'], {
      project,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Imported 1 server into ${projectFile()}: files\n`);
    expect(await servers(projectFile())).toEqual({
      files: { command: 'npx', args: ['-y', '@x/fs', '/tmp'] },
    });
  });

  it('vscode: servers + inputs with comments; ${input:…} cannot be converted, ${env:X} becomes ${X}', async () => {
    await project.write(
      '.vscode/mcp.json',
      `{
  // VS Code's own shape
  "inputs": [{ "type": "promptString", "id": "api-key", "description": "Key", "password": true }],
  "servers": {
    "fs": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js"], "env": { "TOKEN": "\${env:MY_TOKEN}" }, "envFile": "\${workspaceFolder}/.env" },
    "web": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "X-Key": "\${env:KEY}" } },
    "secret": { "type": "stdio", "command": "npx", "args": ["srv"], "env": { "KEY": "\${input:api-key}" } },
  },
}`,
    );
    const run = await runCli(['mcp', 'import', '--from', 'vscode'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Cannot convert:\n  × secret (');
    expect(run.stdout).toContain('env.KEY uses ${input:api-key}, a value VS Code asks for at start');
    expect(run.stdout).toContain('left out: envFile');
    expect(await servers(projectFile())).toEqual({
      fs: { command: 'node', args: [`${project.dir}/server.js`], env: { TOKEN: '${MY_TOKEN}' } },
      web: { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-Key': '${KEY}' } },
    });
  });

  it('cursor: .cursor/mcp.json and ~/.cursor/mcp.json; a url alone is Streamable HTTP', async () => {
    await project.write(
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { docs: { url: 'https://docs.example/mcp' } } }),
    );
    await writeHome(
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { tool: { command: 'uvx', args: ['tool'] } } }),
    );
    const run = await runCli(['mcp', 'import', '--from', 'cursor', '--scope', 'user'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(await servers(userFile())).toEqual({
      docs: { type: 'http', url: 'https://docs.example/mcp' },
      tool: { command: 'uvx', args: ['tool'] },
    });
  });

  it('gemini: httpUrl/url, timeout, include/exclude, mcp.excluded → disabled; trust left out; tcp cannot convert', async () => {
    await writeHome(
      '.gemini/settings.json',
      JSON.stringify({
        mcp: { excluded: ['off'] },
        mcpServers: {
          api: {
            httpUrl: 'https://api.example/mcp',
            headers: { Authorization: 'Bearer $API_TOKEN' },
            timeout: 5000,
            includeTools: ['search'],
            trust: true,
          },
          events: { url: 'http://127.0.0.1:9/sse', excludeTools: ['delete_*'] },
          off: { command: 'python', args: ['-m', 'srv'], cwd: './srv', env: { A: '${B}' } },
          socket: { tcp: 'localhost:9000' },
        },
      }),
    );
    const dry = await runCli(['mcp', 'import', '--from', 'gemini', '--dry-run'], { project });
    expect(dry.stdout).toContain('left out: trust (GeekAgent asks before MCP calls');
    expect(dry.stdout).toContain('  × socket (');
    expect(dry.stdout).toContain('tcp (websocket) servers are not supported');
    const run = await runCli(['mcp', 'import', '--from', 'gemini'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(await servers(userFile())).toEqual({
      api: {
        type: 'http',
        url: 'https://api.example/mcp',
        headers: { Authorization: 'Bearer ${API_TOKEN}' },
        timeout: 5000,
        includeTools: ['search'],
      },
      events: { type: 'sse', url: 'http://127.0.0.1:9/sse', excludeTools: ['delete_*'] },
      off: { command: 'python', args: ['-m', 'srv'], env: { A: '${B}' }, cwd: './srv', disabled: true },
    });
  });

  it('codex: ~/.codex/config.toml [mcp_servers.*] with timeouts, tool lists, bearer token and enabled', async () => {
    await writeHome(
      '.codex/config.toml',
      `model = "gpt-5"  # not ours

[mcp_servers.docs]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]
env = { "LOG" = "debug", LEVEL = 2 }
env_vars = ["HOME_TOKEN"]
startup_timeout_sec = 20
tool_timeout_sec = 60.5
enabled_tools = ["search", "fetch"]

[mcp_servers."remote.api"]
url = 'https://api.example/mcp'
bearer_token_env_var = "API_TOKEN"
http_headers.X-Team = "core"
enabled = false
disabled_tools = [
  "drop",  # dangerous
]

[mcp_servers.demo]
command = "node"
args = ['${DEMO_SERVER}']

[mcp_servers.grep]
command = "rg"
args = ["--replace", "\${name}"]
`,
    );
    const run = await runCli(['mcp', 'import', '--from', 'codex'], { project });
    expect(run.code, run.stderr).toBe(0);
    // Literal to Codex, a variable to us: reported instead of converted into something else.
    expect(run.stdout).toContain('  × grep (');
    expect(run.stdout).toContain('args[1]: "${name}" is literal text to Codex, but GeekAgent would expand');
    expect(await servers(userFile())).toEqual({
      docs: {
        command: 'npx',
        args: ['-y', '@upstash/context7-mcp'],
        env: { HOME_TOKEN: '${HOME_TOKEN}', LOG: 'debug', LEVEL: '2' },
        startupTimeout: 20000,
        timeout: 60500,
        includeTools: ['search', 'fetch'],
      },
      'remote.api': {
        type: 'http',
        url: 'https://api.example/mcp',
        headers: { 'X-Team': 'core', Authorization: 'Bearer ${API_TOKEN}' },
        disabled: true,
        excludeTools: ['drop'],
      },
      demo: { command: 'node', args: [DEMO_SERVER] },
    });
    // The converted server runs.
    expect((await runCli(['mcp', 'get', 'demo'], { project })).stdout).toContain('demo (2 tools)');
  });

  it('a broken source file is reported with its line; nothing is written', async () => {
    await writeHome('.codex/config.toml', '[mcp_servers.docs]\ncommand = npx\n');
    const run = await runCli(['mcp', 'import', '--from', 'codex'], { project });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('config.toml (codex): line 2: invalid value');
    expect(await fileExists(userFile())).toBe(false);
  });

  it('never replaces an existing name without --force', async () => {
    await project.mcpServers({ demo: { command: 'old' } });
    await project.write(
      '.mcp.json',
      JSON.stringify({ mcpServers: { demo: { command: 'new' }, extra: { command: 'x' } } }),
    );
    const run = await runCli(['mcp', 'import', '--from', 'claude-code'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('  = demo: already there, kept (--force replaces it)\n');
    expect(await servers(projectFile())).toEqual({ demo: { command: 'old' }, extra: { command: 'x' } });

    const forced = await runCli(['mcp', 'import', '--from', 'claude-code', '--force'], { project });
    expect(forced.stdout).toContain('  ~ demo: {"command":"new"} (replaces the existing entry)\n');
    expect(await servers(projectFile())).toEqual({ demo: { command: 'new' }, extra: { command: 'x' } });
  });

  it("a symlinked .mcp.json is the repo's file: its server is never recorded as trusted", async () => {
    // The project folder is app/ of a repository; its .mcp.json links to the repo's tools/ folder.
    const tools = path.join(path.dirname(project.dir), 'tools');
    await mkdir(tools);
    await writeFile(
      path.join(tools, 'servers.json'),
      JSON.stringify({ mcpServers: { evil: { command: 'node', args: [DEMO_SERVER] } } }),
    );
    await symlink('../tools/servers.json', path.join(project.dir, '.mcp.json'));
    const run = await runCli(['mcp', 'import', '--from', 'claude-code'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(await servers(projectFile())).toEqual({ evil: { command: 'node', args: [DEMO_SERVER] } });
    expect(run.stdout).toContain('evil came from files in this folder: approve them at the next start');
    const trusted = await readFile(path.join(project.home, '.geekagent', 'trusted.json'), 'utf8').catch(
      () => '',
    );
    expect(trusted).not.toContain('server:evil');
    // Not started until the person trusts the folder with it.
    const get = await runCli(['mcp', 'get', 'evil'], { project, trusted: false });
    expect(get.stdout).not.toContain('evil (2 tools)');
    expect(get.stderr).toContain(
      'MCP server evil is declared in .geekagent/mcp.json, but this folder is not trusted',
    );
  });

  it('--scope user of a project file warns that its servers start in every folder', async () => {
    const file = await project.write(
      '.mcp.json',
      JSON.stringify({ mcpServers: { 'repo-srv': { command: 'node', args: [DEMO_SERVER] } } }),
    );
    await writeHome(
      '.claude.json',
      JSON.stringify({ mcpServers: { mine: { command: 'node', args: [DEMO_SERVER] } } }),
    );
    const warning =
      `warning: repo-srv from ${file}, a file of this project folder (written by whoever wrote the ` +
      `repository): in ${userFile()} it runs in every folder you start geekagent in, with no trust question.`;
    const dry = await runCli(['mcp', 'import', '--from', 'claude-code', '--scope', 'user', '--dry-run'], {
      project,
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(warning);
    const run = await runCli(['mcp', 'import', '--from', 'claude-code', '--scope', 'user'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(warning);
    // The person's own server is not named in it.
    expect(run.stderr).not.toContain('mine');
    expect(Object.keys(await servers(userFile())).sort()).toEqual(['mine', 'repo-srv']);
  });

  it('without --from lists every source found and writes nothing; names are shown escaped', async () => {
    await project.write('.mcp.json', JSON.stringify({ mcpServers: { 'evil\u001b[31m': { command: 'x' } } }));
    await writeHome('.codex/config.toml', '[mcp_servers.docs]\ncommand = "npx"\n');
    const run = await runCli(['mcp', 'import'], { project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `  claude-code     ${path.join(project.dir, '.mcp.json')} (project): 1 (evil^[[31m)\n`,
    );
    expect(run.stdout).toContain(
      `  codex           ${path.join(project.home, '.codex', 'config.toml')} mcp_servers (user): 1 (docs)\n`,
    );
    expect(run.stdout).toContain('Import with: geekagent mcp import --from claude-code|codex [--dry-run]\n');
    expect(run.stdout).not.toContain('\u001b');
    expect(await fileExists(projectFile())).toBe(false);

    const none = await runCli(['mcp', 'import', '--from', 'gemini'], { project });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no gemini MCP servers found (looked in ');
  });
});

describe('geekagent mcp add-json', () => {
  it('adds a valid entry; refuses an existing name', async () => {
    const run = await runCli(
      ['mcp', 'add-json', 'demo', JSON.stringify({ command: 'node', args: [DEMO_SERVER] })],
      {
        project,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Added MCP server demo to ${projectFile()}\n`);
    expect(await servers(projectFile())).toEqual({ demo: { command: 'node', args: [DEMO_SERVER] } });
    const again = await runCli(['mcp', 'add-json', 'demo', '{"command":"x"}'], { project });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');

    const user = await runCli(
      ['mcp', 'add-json', '--scope', 'user', 'web', '{"type":"http","url":"https://x.example/mcp"}'],
      { project },
    );
    expect(user.code, user.stderr).toBe(0);
    expect(await servers(userFile())).toEqual({ web: { type: 'http', url: 'https://x.example/mcp' } });
  });

  it('an invalid entry is refused with the field named; bad JSON with its position', async () => {
    const typo = await runCli(['mcp', 'add-json', 'demo', '{"command":"node","timout":5}'], { project });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      'at mcpServers.demo.timout: unknown key "timout" (did you mean "timeout"?)',
    );
    const zero = await runCli(['mcp', 'add-json', 'demo', '{"command":"node","timeout":0}'], { project });
    expect(zero.stderr).toContain('at mcpServers.demo.timeout: must be at least 1 (milliseconds)');
    const bad = await runCli(['mcp', 'add-json', 'demo', '{"command":'], { project });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('geekagent mcp add-json: invalid JSON at line 1, column 12');
    expect(await fileExists(projectFile())).toBe(false);
  });
});
