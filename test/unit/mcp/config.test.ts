// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are the ${VAR} references under test.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadMcpConfig,
  loadMcpServers,
  type McpServerDefinition,
  type ServerConfigEntry,
} from '../../../src/mcp/config.js';
import { entrySchemas } from '../../../src/mcp/config-schema.js';
import { toolIncluded } from '../../../src/mcp/tool-filter.js';
import { ConfigError } from '../../../src/util/json-file.js';
import * as z from '../../../src/util/schema.js';

describe('MCP config', () => {
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
  const servers = (entries: Record<string, unknown>) => ({ mcpServers: entries });
  const ok = (entry: ServerConfigEntry | undefined): McpServerDefinition => {
    if (entry?.kind !== 'ok') throw new Error(`expected an ok entry, got ${JSON.stringify(entry)}`);
    return entry.definition;
  };
  const invalid = (entry: ServerConfigEntry | undefined): string => {
    if (entry?.kind !== 'invalid') throw new Error(`expected an invalid entry, got ${JSON.stringify(entry)}`);
    return entry.error;
  };
  const loadError = async (): Promise<ConfigError> => {
    const error = await load().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  };

  it('has no servers when neither file exists', async () => {
    expect(await load()).toEqual([]);
  });

  it('has no servers for a file without mcpServers', async () => {
    await write(projectFile, { $schema: 'x' });
    expect(await load()).toEqual([]);
  });

  it('reports bad JSON with the file, line and column', async () => {
    await write(projectFile, '{\n  "mcpServers": {\n    "demo": { "command": "node", }\n  }\n}');
    const error = await loadError();
    expect(error.file).toBe(projectFile);
    expect(error.message).toBe(`${projectFile}: invalid JSON at line 3, column 34: property name expected`);
  });

  it('stops on a top level that is not an object, or mcpServers that is not one', async () => {
    await write(projectFile, '[]');
    expect((await loadError()).message).toBe(
      `${projectFile}: expected a JSON object like {"mcpServers": {...}}, got an array`,
    );
    await write(projectFile, { mcpServers: ['demo'] });
    expect((await loadError()).message).toBe(
      `${projectFile}: at mcpServers: expected an object of servers by name, got an array`,
    );
  });

  it('isolates a bad entry with its JSON path and loads the others', async () => {
    await write(
      projectFile,
      servers({ demo: { command: 'node', args: [1] }, good: { command: 'node', args: ['server.js'] } }),
    );
    const [demo, good] = await load();
    expect(invalid(demo)).toBe(
      `${projectFile}: at mcpServers.demo.args[0]: Invalid input: expected string, received number`,
    );
    expect(demo).toMatchObject({ name: 'demo', source: 'project', file: projectFile });
    expect(ok(good)).toMatchObject({ name: 'good', command: 'node', args: ['server.js'] });
  });

  it('names an unknown key and suggests the likely one; comment keys are allowed', async () => {
    await write(projectFile, servers({ demo: { command: 'node', arg: ['x'], _note: 'hi', $comment: 'ok' } }));
    const [demo] = await load();
    expect(invalid(demo)).toBe(
      `${projectFile}: at mcpServers.demo.arg: unknown key "arg" (did you mean "args"?)`,
    );
  });

  it('explains a url without a type, an unknown type and a bad url', async () => {
    await write(
      projectFile,
      servers({
        a: { url: 'https://example.com/mcp' },
        b: { type: 'websocket', url: 'wss://x' },
        c: { type: 'http', url: 'ftp://example.com' },
        d: 'node',
      }),
    );
    const [a, b, c, d] = await load();
    expect(invalid(a)).toBe(
      `${projectFile}: at mcpServers.a: an entry with "url" needs "type": "http" or "sse"`,
    );
    expect(invalid(b)).toBe(
      `${projectFile}: at mcpServers.b.type: expected "stdio", "http" or "sse", got "websocket"`,
    );
    expect(invalid(c)).toBe(`${projectFile}: at mcpServers.c.url: expected an http:// or https:// URL`);
    expect(invalid(d)).toContain('at mcpServers.d: expected an object');
  });

  it('refuses an in-process ("sdk") entry: only the library can give a server object', async () => {
    await write(projectFile, servers({ inproc: { type: 'sdk', instance: {} } }));
    const [inproc] = await load();
    expect(invalid(inproc)).toBe(
      `${projectFile}: at mcpServers.inproc.type: expected "stdio", "http" or "sse", got "sdk"`,
    );
  });

  it('accepts odd server names but refuses slashes, whitespace and names over 64 characters', async () => {
    await write(
      projectFile,
      servers({
        'my.server@2': { command: 'node' },
        'a/b': { command: 'node' },
        'a b': { command: 'node' },
        [`s${'x'.repeat(64)}`]: { command: 'node' },
      }),
    );
    const [odd, slash, space, long] = await load();
    expect(ok(odd).name).toBe('my.server@2');
    expect(invalid(slash)).toContain('must not contain "/" or whitespace');
    expect(invalid(space)).toContain('must not contain "/" or whitespace');
    expect(invalid(long)).toContain('65 characters long (at most 64)');
  });

  it('keeps the user server on a name clash, reports the conflict and records each source', async () => {
    await write(projectFile, servers({ shared: { command: 'project-cmd' }, mine: { command: 'p' } }));
    await write(userFile, servers({ extra: { command: 'u1' }, shared: { command: 'user-cmd' } }));
    const loaded = await loadMcpServers({ projectDir, homeDir, env: {}, project: true });
    expect(loaded.entries.map((entry) => entry.name)).toEqual(['mine', 'extra', 'shared']);
    expect(ok(loaded.entries[0])).toMatchObject({ source: 'project', file: projectFile, command: 'p' });
    expect(ok(loaded.entries[2])).toMatchObject({ source: 'user', file: userFile, command: 'user-cmd' });
    expect(loaded.conflicts).toEqual([{ name: 'shared', projectFile, userFile }]);
    expect((await load()).map((entry) => entry.name)).toEqual(['mine', 'extra', 'shared']);
  });

  it('leaves the project file out for an untrusted folder, and reads the user file from userDir', async () => {
    await write(projectFile, servers({ mine: { command: 'p' } }));
    const userDir = path.join(homeDir, 'elsewhere');
    await write(path.join(userDir, 'mcp.json'), servers({ other: { command: 'u' } }));
    const loaded = await loadMcpServers({ projectDir, homeDir, userDir, env: {}, project: false });
    expect(loaded.entries.map((entry) => entry.name)).toEqual(['other']);
    expect(ok(loaded.entries[0])).toMatchObject({ source: 'user', file: path.join(userDir, 'mcp.json') });
    expect(loaded.conflicts).toEqual([]);
  });

  it('reads one file once when home is the project', async () => {
    await write(projectFile, servers({ demo: { command: 'node' } }));
    const entries = await loadMcpConfig({ projectDir, homeDir: projectDir, env: {} });
    expect(entries).toHaveLength(1);
    expect(ok(entries[0]).source).toBe('project');
  });

  it('resolves cwd against the project for project entries and home for user entries', async () => {
    await write(projectFile, servers({ p: { command: 'x', cwd: 'tools' }, q: { command: 'x' } }));
    await write(
      userFile,
      servers({ u: { command: 'x', cwd: 'bin' }, abs: { command: 'x', cwd: '/opt/srv' } }),
    );
    const [p, q, u, abs] = (await load()).map(ok);
    expect(p).toMatchObject({ transport: 'stdio', cwd: path.join(projectDir, 'tools') });
    expect(q).toMatchObject({ cwd: projectDir });
    expect(u).toMatchObject({ cwd: path.join(homeDir, 'bin') });
    expect(abs).toMatchObject({ cwd: '/opt/srv' });
  });

  it('fills in the defaults', async () => {
    await write(projectFile, servers({ demo: { command: 'node' } }));
    const demo = ok((await load())[0]);
    expect(demo).toEqual({
      name: 'demo',
      source: 'project',
      file: projectFile,
      transport: 'stdio',
      command: 'node',
      args: [],
      written: { command: 'node', args: [] },
      env: {},
      cwd: projectDir,
      timeoutMs: 60_000,
      startupTimeoutMs: 30_000,
      disabled: false,
      startup: 'lazy',
      maxResultTokens: 25_000,
    });
  });

  it('takes the optional settings and rejects non-positive timeouts', async () => {
    await write(
      projectFile,
      servers({
        a: {
          command: 'node',
          timeout: 500,
          startupTimeout: 900,
          disabled: true,
          includeTools: ['get_*'],
          excludeTools: ['get_secret'],
          maxResultTokens: 100,
        },
        b: { command: 'node', timeout: 0 },
        c: { command: '' },
        d: { command: 'node', timeout: 1e12, startupTimeout: 2_147_483_647 },
        e: { command: 'node', startupTimeout: 99_999_999_999 },
        f: { command: 'node', maxResultTokens: 0.5 },
      }),
    );
    const [a, b, c, d, e, f] = await load();
    expect(ok(a)).toMatchObject({
      timeoutMs: 500,
      startupTimeoutMs: 900,
      disabled: true,
      includeTools: ['get_*'],
      excludeTools: ['get_secret'],
      maxResultTokens: 100,
    });
    expect(invalid(b)).toBe(`${projectFile}: at mcpServers.b.timeout: must be at least 1 (milliseconds)`);
    expect(invalid(c)).toBe(`${projectFile}: at mcpServers.c.command: command must not be empty`);
    // Node's timers fire after 1 ms for anything above 2^31-1 ms: such values are refused.
    expect(invalid(d)).toBe(
      `${projectFile}: at mcpServers.d.timeout: must be at most 2147483647 (milliseconds, about 24.8 days)`,
    );
    expect(invalid(e)).toBe(
      `${projectFile}: at mcpServers.e.startupTimeout: must be at most 2147483647 (milliseconds, about 24.8 days)`,
    );
    expect(invalid(f)).toBe(
      `${projectFile}: at mcpServers.f.maxResultTokens: expected a whole number of tokens`,
    );
  });

  it('parses remote entries', async () => {
    await write(
      projectFile,
      servers({
        remote: {
          type: 'http',
          url: 'https://${HOST}/mcp',
          headers: { Authorization: 'Bearer ${TOKEN}' },
          oauth: { clientId: 'id', clientSecret: '${SECRET:-none}', scopes: ['read'], callbackPort: 8123 },
        },
        old: { type: 'sse', url: 'http://localhost:3000/sse', oauth: { clientid: 'x' } },
      }),
    );
    const [remote, old] = await load({ HOST: 'mcp.example.com', TOKEN: 't0k' });
    expect(ok(remote)).toMatchObject({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer t0k' },
      oauth: { clientId: 'id', clientSecret: 'none', scopes: ['read'], callbackPort: 8123 },
      timeoutMs: 60_000,
    });
    expect(invalid(old)).toBe(
      `${projectFile}: at mcpServers.old.oauth.clientid: unknown key "clientid" (did you mean "clientId"?)`,
    );
  });

  it('expands ${VAR} and ${VAR:-default} in command, args, env and cwd', async () => {
    await write(
      projectFile,
      servers({
        demo: {
          command: '${NODE_BIN}',
          args: ['--token=${TOKEN}', '${MODE:-fast}', '${EMPTY:-fallback}', 'cost: $5 $$ ${EMPTY}!'],
          env: { API_KEY: '${TOKEN}' },
          cwd: '${WORK:-srv}',
        },
      }),
    );
    const demo = ok((await load({ NODE_BIN: '/usr/bin/node', TOKEN: 'abc', EMPTY: '' }))[0]);
    expect(demo).toMatchObject({
      command: '/usr/bin/node',
      args: ['--token=abc', 'fast', 'fallback', 'cost: $5 $$ !'],
      env: { API_KEY: 'abc' },
      cwd: path.join(projectDir, 'srv'),
      // What is shown (mcp get, geekagent config): the command line as written, no token in it.
      written: {
        command: '${NODE_BIN}',
        args: ['--token=${TOKEN}', '${MODE:-fast}', '${EMPTY:-fallback}', 'cost: $5 $$ ${EMPTY}!'],
      },
    });
  });

  it('makes a server with an unset variable invalid, naming the variable and the path', async () => {
    await write(
      projectFile,
      servers({
        gh: { command: 'npx', args: ['server-github', '${GITHUB_TOKEN}'] },
        other: { command: 'x' },
      }),
    );
    const [gh, other] = await load({});
    expect(invalid(gh)).toBe(
      `${projectFile}: at mcpServers.gh.args[1]: environment variable GITHUB_TOKEN is not set (use \${GITHUB_TOKEN:-default} to give a default)`,
    );
    expect(ok(other).name).toBe('other');
  });

  it('names env and header paths for unset variables', async () => {
    await write(projectFile, servers({ s: { command: 'x', env: { KEY: '${MISSING}' } } }));
    await write(
      userFile,
      servers({ r: { type: 'http', url: 'https://x.dev', headers: { 'X-Key': '${NOPE}' } } }),
    );
    const [s, r] = await load();
    expect(invalid(s)).toContain(`${projectFile}: at mcpServers.s.env.KEY: environment variable MISSING`);
    expect(invalid(r)).toContain(`${userFile}: at mcpServers.r.headers.X-Key: environment variable NOPE`);
    expect(r).toMatchObject({ source: 'user', file: userFile });
  });

  it('checks a url built from variables once it is expanded', async () => {
    await write(projectFile, servers({ r: { type: 'http', url: '${URL}' } }));
    const [r] = await load({ URL: 'not a url' });
    expect(invalid(r)).toBe(
      `${projectFile}: at mcpServers.r.url: expected an http:// or https:// URL once variables are expanded`,
    );
  });

  it('filters tools with includeTools then excludeTools, with * patterns', async () => {
    await write(
      projectFile,
      servers({
        a: { command: 'x', includeTools: ['get_*', 'list'], excludeTools: ['*secret*'] },
        b: { command: 'x', excludeTools: ['delete_*'] },
        c: { command: 'x' },
      }),
    );
    const [a, b, c] = (await load()).map(ok);
    expect(
      ['get_item', 'get_secret_key', 'list', 'listing', 'put'].filter((t) => toolIncluded(a!, t)),
    ).toEqual(['get_item', 'list']);
    expect(toolIncluded(b!, 'delete_all')).toBe(false);
    expect(toolIncluded(b!, 'read.file')).toBe(true);
    expect(toolIncluded(c!, 'anything(.*)')).toBe(true);
  });

  it('treats regex characters in patterns literally', async () => {
    await write(projectFile, servers({ a: { command: 'x', includeTools: ['a.b'] } }));
    const a = ok((await load())[0]);
    expect(toolIncluded(a, 'a.b')).toBe(true);
    expect(toolIncluded(a, 'axb')).toBe(false);
  });

  it('documents the entry schema', () => {
    expect(z.globalRegistry.get(entrySchemas().stdio)?.description).toMatch(/stdio/);
    expect(z.globalRegistry.get(entrySchemas().stdio.shape.command)?.description).toBeTruthy();
  });
});
