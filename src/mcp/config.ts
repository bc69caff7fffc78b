/**
 * The MCP server config files (project and user `.geekagent/mcp.json`): loading them into server
 * definitions (validated, `${VAR}`-expanded, a user server keeps its name over a project one).
 * Adding and removing raw entries is config-edit.ts.
 */
import path from 'node:path';
import { ConfigError, jsonPath, readJsonFile } from '../util/json-file.js';
import { checkServerEntry, isHttpUrl, type RemoteEntry, type StdioEntry, typeName } from './config-schema.js';
import { expandVariables } from './expand-vars.js';
import { expandOAuth } from './oauth-settings.js';
import { confinesProjectServers, type ServerSandbox, sandboxOf } from './sandbox-config.js';

export type { ServerSandbox };

/** `cli`: given with `--mcp-config` for one run (the person's own, so no folder trust needed). */
export type ConfigSource = 'project' | 'user' | 'cli';

interface DefinitionBase {
  name: string;
  source: ConfigSource;
  /** The mcp.json the server came from (absolute). */
  file: string;
  timeoutMs: number;
  startupTimeoutMs: number;
  disabled: boolean;
  /**
   * `false` (`"roots": false`): the client does not declare the roots capability to this server.
   * A server like server-filesystem replaces the directories it was started with by the client's
   * roots, so declaring them would narrow it to the project folder.
   */
  roots?: false;
  /** lazy: with a cached tool list the server starts on first use; eager: with the agent. */
  startup?: 'lazy' | 'eager';
  includeTools?: string[];
  excludeTools?: string[];
  maxResultTokens: number;
  /**
   * Every other configured server's name, set by the manager: tool naming keeps this server's
   * names apart from theirs (see mcp/naming.ts).
   */
  otherServers?: readonly string[];
}

export interface StdioDefinition extends DefinitionBase {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Only the declared env, expanded; the transport adds a minimal base environment. */
  env: Record<string, string>;
  /** Absolute. */
  cwd: string;
  /** Run confined by the kernel sandbox (never unconfined: no sandbox, no start). */
  sandbox?: ServerSandbox;
}

export interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  callbackPort?: number;
  clientMetadataUrl?: string;
  grant?: 'authorization_code' | 'client_credentials' | 'cross_app_access';
  privateKey?: string;
  signingAlgorithm?: string;
  idp?: { tokenEndpoint: string; clientId: string; idToken: string };
}

export interface RemoteDefinition extends DefinitionBase {
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  oauth?: OAuthSettings;
}

/**
 * A server living in this process (the library's `{ type: 'sdk', instance }`): an MCP SDK server
 * object connected over an in-memory transport pair. Never from a file (a file cannot hold an
 * object): no command line, no sandbox, no cached tool list.
 */
export interface InProcessDefinition extends DefinitionBase {
  transport: 'sdk';
  instance: InProcessServer;
}

/** What an in-process server must offer: the MCP SDK's `McpServer` (or `Server`) does. */
export interface InProcessServer {
  connect(transport: never): Promise<void>;
}

export type McpServerDefinition = StdioDefinition | RemoteDefinition | InProcessDefinition;

export type ServerConfigEntry =
  | { name: string; kind: 'ok'; definition: McpServerDefinition }
  | { name: string; kind: 'invalid'; error: string; source: ConfigSource; file: string };

/** The SDK's and Codex's default: a language server's first call alone can take 8–10 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESULT_TOKENS = 25_000;

export interface ConfigDirs {
  projectDir: string;
  /** The person's home: what a relative `cwd` of a user-file server is relative to. */
  homeDir: string;
  /** Where user-level state lives (`userStateDir`); default `<homeDir>/.geekagent`. */
  userDir?: string;
}

export function mcpConfigPath(scope: 'project' | 'user', dirs: ConfigDirs): string {
  if (scope === 'project') return path.join(path.resolve(dirs.projectDir), '.geekagent', 'mcp.json');
  return path.join(path.resolve(dirs.userDir ?? path.join(dirs.homeDir, '.geekagent')), 'mcp.json');
}

/** A project server named like a user server: the user's runs, the project's is skipped. */
export interface ServerNameConflict {
  name: string;
  projectFile: string;
  userFile: string;
}

export interface LoadedMcpConfig {
  entries: ServerConfigEntry[];
  conflicts: ServerNameConflict[];
}

/** Every server of both files (the project trusted), user servers winning a name clash. */
export async function loadMcpConfig(
  options: ConfigDirs & { env: NodeJS.ProcessEnv },
): Promise<ServerConfigEntry[]> {
  return (await loadMcpServers({ ...options, project: true })).entries;
}

/**
 * Both files' servers: the project's (only when `project` is true — a folder the person trusts),
 * except those named like a user server, which are reported as conflicts and skipped (a repo must
 * not take over a user server's name and the rules written for it), then the user's.
 */
export async function loadMcpServers(
  options: ConfigDirs & {
    env: NodeJS.ProcessEnv;
    project: boolean;
    /** Confine every project stdio server (also set by the user file's `"sandbox"`). */
    confineProjectServers?: boolean;
  },
): Promise<LoadedMcpConfig> {
  const projectDir = path.resolve(options.projectDir);
  const homeDir = path.resolve(options.homeDir);
  const dirs = { projectDir, homeDir, userDir: options.userDir };
  const projectFile = mcpConfigPath('project', dirs);
  const userFile = mcpConfigPath('user', dirs);
  // Started in the user folder itself: there is one file, not two layers.
  const [project, userDocument] = await Promise.all([
    options.project ? readServers(projectFile) : Promise.resolve([]),
    userFile === projectFile ? Promise.resolve(undefined) : readDocument(userFile),
  ]);
  const user = userDocument ? Object.entries(serversOf(userFile, userDocument)) : [];
  // Only the person's own file (or flag) sets it: a project's mcp.json cannot turn it off.
  const confine =
    options.confineProjectServers === true ||
    (userDocument !== undefined && confinesProjectServers(userFile, userDocument));
  const context = { projectDir, env: options.env };
  const userNames = new Set(user.map(([name]) => name));
  const conflicts: ServerNameConflict[] = [];
  const entries: ServerConfigEntry[] = [];
  for (const [name, raw] of project) {
    if (userNames.has(name)) {
      conflicts.push({ name, projectFile, userFile });
      continue;
    }
    entries.push(
      toConfigEntry(name, raw, {
        ...context,
        source: 'project',
        file: projectFile,
        baseDir: projectDir,
        confineByDefault: confine,
      }),
    );
  }
  for (const [name, raw] of user) {
    entries.push(toConfigEntry(name, raw, { ...context, source: 'user', file: userFile, baseDir: homeDir }));
  }
  return { entries, conflicts };
}

/**
 * Servers of one `--mcp-config` document (`label` is its file, or `--mcp-config` for inline
 * JSON): source `cli`, a relative `cwd` taken from the project folder. Throws a ConfigError for a
 * document that is not `{"mcpServers": {...}}`.
 */
export function commandLineEntries(
  label: string,
  value: unknown,
  options: { projectDir: string; env: NodeJS.ProcessEnv },
): ServerConfigEntry[] {
  const projectDir = path.resolve(options.projectDir);
  const context = { source: 'cli' as const, file: label, baseDir: projectDir, projectDir, env: options.env };
  return Object.entries(serversOf(label, documentOf(label, value))).map(([name, raw]) =>
    toConfigEntry(name, raw, context),
  );
}

/** The library's in-process servers, as entries of source `cli` (the caller's own, like `--mcp-config`). */
export function inProcessEntries(servers: Record<string, InProcessServer>): ServerConfigEntry[] {
  return Object.entries(servers).map(([name, instance]) => ({
    name,
    kind: 'ok',
    definition: {
      name,
      source: 'cli',
      file: 'query() options',
      timeoutMs: DEFAULT_TIMEOUT_MS,
      startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
      disabled: false,
      startup: 'eager',
      maxResultTokens: DEFAULT_MAX_RESULT_TOKENS,
      transport: 'sdk',
      instance,
    },
  }));
}

/** The project file's raw server entries (unexpanded), for the trust question; [] when missing. */
export async function readProjectServers(projectDir: string): Promise<Array<[string, unknown]>> {
  return readServers(mcpConfigPath('project', { projectDir, homeDir: projectDir }));
}

async function readServers(file: string): Promise<Array<[string, unknown]>> {
  const document = await readDocument(file);
  return document ? Object.entries(serversOf(file, document)) : [];
}

async function readDocument(file: string): Promise<Record<string, unknown> | undefined> {
  const read = await readJsonFile(file);
  return read.kind === 'missing' ? undefined : documentOf(file, read.value);
}

/** Whether the user's mcp.json confines project servers (false when there is no file). */
export async function userConfinesProjectServers(dirs: ConfigDirs): Promise<boolean> {
  const file = mcpConfigPath('user', dirs);
  const document = await readDocument(file);
  return document !== undefined && confinesProjectServers(file, document);
}

/** The parsed file as an object, or a ConfigError naming the file. */
export function documentOf(file: string, value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new ConfigError(
      `${file}: expected a JSON object like {"mcpServers": {...}}, got ${typeName(value)}`,
      file,
    );
  }
  return value;
}

/** A file without `mcpServers` has no servers; one whose `mcpServers` is not an object is broken. */
export function serversOf(file: string, document: Record<string, unknown>): Record<string, unknown> {
  const servers = document.mcpServers;
  if (servers === undefined) return {};
  if (!isPlainObject(servers)) {
    throw new ConfigError(
      `${file}: at mcpServers: expected an object of servers by name, got ${typeName(servers)}`,
      file,
    );
  }
  return servers;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface EntryContext {
  source: ConfigSource;
  file: string;
  /** What a relative `cwd` is relative to: the project for project files, home for user files. */
  baseDir: string;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  /** The user confines every project stdio server: `"sandbox": false` cannot undo that. */
  confineByDefault?: boolean;
}

/** Carries an expansion problem out of the nested field walk; never escapes this module. */
class EntryProblem extends Error {}

function toConfigEntry(name: string, raw: unknown, context: EntryContext): ServerConfigEntry {
  const invalid = (error: string): ServerConfigEntry => ({
    name,
    kind: 'invalid',
    error,
    source: context.source,
    file: context.file,
  });
  const check = checkServerEntry(context.file, name, raw);
  if (!check.ok) return invalid(check.error);
  try {
    const definition =
      check.kind === 'remote'
        ? remoteDefinition(name, check.entry, context)
        : stdioDefinition(name, check.entry, context);
    return { name, kind: 'ok', definition };
  } catch (error) {
    if (error instanceof EntryProblem) return invalid(error.message);
    throw error;
  }
}

type Expand = (value: string, ...where: PropertyKey[]) => string;

function expander(
  name: string,
  context: EntryContext,
): { expand: Expand; fail: (message: string, ...where: PropertyKey[]) => never } {
  const fail = (message: string, ...where: PropertyKey[]): never => {
    throw new EntryProblem(`${context.file}: at ${jsonPath(['mcpServers', name, ...where])}: ${message}`);
  };
  const expand: Expand = (value, ...where) => {
    const result = expandVariables(value, context.env);
    if (result.ok) return result.value;
    const variable = result.variable;
    return fail(
      `environment variable ${variable} is not set (use \${${variable}:-default} to give a default)`,
      ...where,
    );
  };
  return { expand, fail };
}

function expandRecord(
  record: Record<string, string> | undefined,
  key: string,
  expand: Expand,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record ?? {}).map(([name, value]) => [name, expand(value, key, name)]),
  );
}

function baseDefinition(
  name: string,
  entry: StdioEntry | RemoteEntry,
  context: EntryContext,
): DefinitionBase {
  return {
    name,
    source: context.source,
    file: context.file,
    timeoutMs: entry.timeout ?? DEFAULT_TIMEOUT_MS,
    startupTimeoutMs: entry.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_MS,
    disabled: entry.disabled ?? false,
    ...(entry.roots === false ? { roots: false as const } : {}),
    startup: entry.startup ?? 'lazy',
    ...(entry.includeTools ? { includeTools: [...entry.includeTools] } : {}),
    ...(entry.excludeTools ? { excludeTools: [...entry.excludeTools] } : {}),
    maxResultTokens: entry.maxResultTokens ?? DEFAULT_MAX_RESULT_TOKENS,
  };
}

function stdioDefinition(name: string, entry: StdioEntry, context: EntryContext): StdioDefinition {
  const { expand, fail } = expander(name, context);
  const command = expand(entry.command, 'command');
  if (command.trim() === '') fail('command is empty once variables are expanded', 'command');
  return {
    ...baseDefinition(name, entry, context),
    transport: 'stdio',
    command,
    args: (entry.args ?? []).map((arg, index) => expand(arg, 'args', index)),
    env: expandRecord(entry.env, 'env', expand),
    // Without a cwd a server runs in the project, user-file servers included: it works on this project.
    cwd:
      entry.cwd === undefined ? context.projectDir : path.resolve(context.baseDir, expand(entry.cwd, 'cwd')),
    ...sandboxOf(entry.sandbox, {
      baseDir: context.baseDir,
      env: context.env,
      confineByDefault: context.confineByDefault === true,
      expand: (value, ...where) => expand(value, 'sandbox', ...where),
    }),
  };
}

function remoteDefinition(name: string, entry: RemoteEntry, context: EntryContext): RemoteDefinition {
  const { expand, fail } = expander(name, context);
  const url = expand(entry.url, 'url');
  if (!isHttpUrl(url)) fail(`expected an http:// or https:// URL once variables are expanded`, 'url');
  const oauth = entry.oauth;
  return {
    ...baseDefinition(name, entry, context),
    transport: entry.type,
    url,
    headers: expandRecord(entry.headers, 'headers', expand),
    // Secrets belong in the environment, not in a file that may be committed: expand them all.
    ...(oauth ? { oauth: expandOAuth(oauth, expand) } : {}),
  };
}

/**
 * A skill's `mcp.json` (the same format): its servers, a relative `cwd` taken from the skill folder.
 * A broken file throws its ConfigError.
 */
export async function loadSkillServers(
  file: string,
  options: {
    skillDir: string;
    projectDir: string;
    env: NodeJS.ProcessEnv;
    source: ConfigSource;
    /** The user confines project servers: a project skill's servers are the project's. */
    confineProjectServers?: boolean;
  },
): Promise<ServerConfigEntry[]> {
  const context = {
    source: options.source,
    file,
    baseDir: options.skillDir,
    projectDir: options.projectDir,
    env: options.env,
    confineByDefault: options.source === 'project' && options.confineProjectServers === true,
  };
  return (await readServers(file)).map(([name, raw]) => toConfigEntry(name, raw, context));
}

/**
 * A plugin's servers (plugins/): the person's own — an installed plugin, or a trusted project's —
 * with a relative `cwd` taken from the plugin folder.
 */
export function pluginServerEntries(
  file: string,
  servers: Record<string, unknown>,
  options: { pluginDir: string; projectDir: string; env: NodeJS.ProcessEnv },
): ServerConfigEntry[] {
  const context = {
    source: 'user' as const,
    file,
    baseDir: options.pluginDir,
    projectDir: options.projectDir,
    env: options.env,
  };
  return Object.entries(servers).map(([name, raw]) => toConfigEntry(name, raw, context));
}
