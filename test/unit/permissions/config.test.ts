import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answersFilePath, saveAnswer } from '../../../src/permissions/answers-file.js';
import { loadPermissionConfig, permissionFileSchema } from '../../../src/permissions/config.js';
import { BUILTIN_POLICIES } from '../../../src/permissions/defaults.js';
import { ConfigError } from '../../../src/util/json-file.js';

describe('permission config', () => {
  let base: string;
  let projectDir: string;
  let homeDir: string;
  let projectFile: string;
  let userFile: string;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-config-')));
    projectDir = path.join(base, 'project');
    homeDir = path.join(base, 'home');
    await mkdir(projectDir);
    await mkdir(homeDir);
    projectFile = path.join(projectDir, '.geekagent', 'GeekAgent.json');
    userFile = path.join(homeDir, '.geekagent', 'GeekAgent.json');
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const load = () => loadPermissionConfig({ projectDir, homeDir });
  const writeJson = async (file: string, value: unknown) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const loadError = async (): Promise<ConfigError> => {
    const error = await load().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  };

  it('creates nothing when the project file is missing: the root is the folder itself', async () => {
    const config = await load();
    expect(config).toEqual({
      root: projectDir,
      projectFile,
      projectRules: {},
      answersFile: answersFilePath(path.join(homeDir, '.geekagent'), projectDir),
      answerRules: {},
      userFile,
      userRules: {},
      projectAnnotations: {},
      userAnnotations: {},
      projectFetchAllow: [],
      userFetchAllow: [],
    });
    expect(await readdir(projectDir)).toEqual([]);
    // The user file is read when present, never created.
    await expect(stat(userFile)).rejects.toThrow(/ENOENT/);
  });

  it("reads the person's answers for this folder from their own state", async () => {
    const userDir = path.join(homeDir, '.geekagent');
    const file = answersFilePath(userDir, projectDir);
    await saveAnswer(userDir, file, 'mcp:demo/dice');
    await saveAnswer(userDir, file, 'fetch');
    expect((await load()).answerRules).toEqual({ 'mcp:demo/dice': 'allow', fetch: 'allow' });
    expect(await readdir(projectDir)).toEqual([]);
    // Another folder has its own answers.
    const other = path.join(base, 'other');
    await mkdir(other);
    expect((await loadPermissionConfig({ projectDir: other, homeDir })).answerRules).toEqual({});
  });

  it('reads entries that only repeat a built-in default as defaults, not as project rules', async () => {
    // What older versions created, plus two decisions a person made.
    await writeJson(projectFile, {
      root: '..',
      tools: { ...BUILTIN_POLICIES, read: 'ask', mcp_demo_dice: 'allow', fetch: 'ask' },
    });
    const config = await load();
    expect(config.projectRules).toEqual({ read: 'ask', mcp_demo_dice: 'allow' });
  });

  it('keeps a repeated `ask` a person wrote (a file that is no copy of the defaults)', async () => {
    await writeJson(projectFile, { root: '..', tools: { run_shell: 'ask', ls: 'allow' } });
    expect((await load()).projectRules).toEqual({ run_shell: 'ask' });
  });

  it('resolves root relative to the config file folder, and defaults to the project folder', async () => {
    await mkdir(path.join(projectDir, 'src'));
    await writeJson(projectFile, { root: '../src', tools: {} });
    expect((await load()).root).toBe(path.join(projectDir, 'src'));

    await writeJson(projectFile, { root: '.', tools: {} });
    expect((await load()).root).toBe(path.join(projectDir, '.geekagent'));

    await writeJson(projectFile, { root: base, tools: {} });
    expect((await load()).root).toBe(base);

    await writeJson(projectFile, { tools: { read: 'deny' } });
    const config = await load();
    expect(config.root).toBe(projectDir);
    expect(config.projectRules).toEqual({ read: 'deny' });
  });

  it('accepts a file without tools and unknown top-level keys', async () => {
    await writeJson(projectFile, { root: '..', mcp: { anything: [1, 2] } });
    const config = await load();
    expect(config.projectRules).toEqual({});
  });

  it('reads the user file as its own layer and ignores its root', async () => {
    await writeJson(projectFile, { root: '..', tools: { read: 'ask' } });
    await writeJson(userFile, {
      root: '/does/not/exist',
      tools: { 'mcp_*': 'deny', fetch: 'allow' },
      extra: true,
    });
    const config = await load();
    expect(config.root).toBe(projectDir);
    expect(config.projectRules).toEqual({ read: 'ask' });
    expect(config.userRules).toEqual({ 'mcp_*': 'deny', fetch: 'allow' });
  });

  it('does not read the project file a second time as the user layer when home is the project', async () => {
    await writeJson(projectFile, { root: '..', tools: { read: 'deny' } });
    const config = await loadPermissionConfig({ projectDir, homeDir: projectDir });
    expect(config.userFile).toBe(config.projectFile);
    expect(config.projectRules).toEqual({ read: 'deny' });
    expect(config.userRules).toEqual({});
  });

  it('reports malformed JSON with the file, line and column', async () => {
    // A trailing comma: the most common hand-editing slip.
    await writeJson(projectFile, '{\n  "root": "..",\n  "tools": { "read": "allow", }\n}\n');
    const error = await loadError();
    expect(error.file).toBe(projectFile);
    expect(error.message).toBe(`${projectFile}: invalid JSON at line 3, column 31: property name expected`);
  });

  it('reports malformed JSON in the user file, naming that file', async () => {
    await writeJson(userFile, '{ "tools": ');
    const error = await loadError();
    expect(error.file).toBe(userFile);
    expect(error.message).toMatch(
      new RegExp(`^${escapeRegExp(userFile)}: invalid JSON at line 1, column \\d+`),
    );
  });

  it('reads fetch.allowHosts from each file and names a bad entry by its path', async () => {
    await writeJson(projectFile, { root: '..', fetch: { allowHosts: ['localhost:8080', '10.0.0.0/8'] } });
    await writeJson(userFile, { fetch: { allowHosts: ['[::1]:3000'] } });
    const config = await load();
    expect(config.projectFetchAllow).toEqual(['localhost:8080', '10.0.0.0/8']);
    expect(config.userFetchAllow).toEqual(['[::1]:3000']);

    await writeJson(projectFile, { fetch: { allowHosts: ['ok.example', 'http://x/'] } });
    expect((await loadError()).message).toBe(
      `${projectFile}: at fetch.allowHosts[1]: "http://x/" is not a host, host:port, IP or CIDR range`,
    );
  });

  it('reads a file that starts with a UTF-8 byte order mark', async () => {
    await writeJson(projectFile, `\uFEFF${JSON.stringify({ root: '..', tools: { read: 'deny' } })}`);
    expect((await load()).projectRules).toEqual({ read: 'deny' });
  });

  it('names the JSON path of a bad policy value', async () => {
    await writeJson(projectFile, { root: '..', tools: { read: 'allow', run_shell: 'sometimes' } });
    const error = await loadError();
    expect(error.message).toBe(
      `${projectFile}: at tools.run_shell: Invalid option: expected one of "allow"|"ask"|"deny"`,
    );
  });

  it('names the JSON path of a wrongly typed root, tools or file', async () => {
    await writeJson(projectFile, { root: 3 });
    expect((await loadError()).message).toBe(
      `${projectFile}: at root: Invalid input: expected string, received number`,
    );
    await writeJson(projectFile, { tools: ['read'] });
    expect((await loadError()).message).toMatch(new RegExp(`^${escapeRegExp(projectFile)}: at tools: `));
    await writeJson(projectFile, []);
    expect((await loadError()).message).toMatch(
      new RegExp(`^${escapeRegExp(projectFile)}: at \\(top level\\): `),
    );
  });

  it('refuses a root that does not exist or is not a directory, naming the file and the path', async () => {
    await writeJson(projectFile, { root: '../missing' });
    const missing = await loadError();
    expect(missing.file).toBe(projectFile);
    expect(missing.message).toBe(
      `${projectFile}: at root: "../missing" is ${path.join(projectDir, 'missing')}, which does not exist`,
    );

    await writeFile(path.join(projectDir, 'file.txt'), 'x');
    await writeJson(projectFile, { root: '../file.txt' });
    expect((await loadError()).message).toBe(
      `${projectFile}: at root: "../file.txt" is ${path.join(projectDir, 'file.txt')}, which is not a directory`,
    );
  });

  it('saveAnswer keeps other rules and keys, and refuses to overwrite a file that became invalid', async () => {
    const userDir = path.join(homeDir, '.geekagent');
    const file = answersFilePath(userDir, projectDir);
    await writeJson(file, { tools: { read: 'deny' }, note: 'kept' });
    await saveAnswer(userDir, file, 'fetch');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      tools: { read: 'deny', fetch: 'allow' },
      note: 'kept',
    });
    const broken = '{ "tools": { "read": "maybe" } }';
    await writeFile(file, broken);
    await expect(saveAnswer(userDir, file, 'fetch')).rejects.toThrow(
      `${file}: at tools.read: Invalid option`,
    );
    expect(await readFile(file, 'utf8')).toBe(broken);
  });

  it('exports one schema that keeps unknown keys', () => {
    const parsed = permissionFileSchema().parse({ root: '..', tools: { read: 'allow' }, later: 1 });
    expect(parsed).toEqual({ root: '..', tools: { read: 'allow' }, later: 1 });
    expect(permissionFileSchema().safeParse({ tools: { read: 'yes' } }).success).toBe(false);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
