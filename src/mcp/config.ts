/**
 * The MCP server config files (project and user `.geekagent/mcp.json`) as the MCP feature's
 * settings section (`mcpSettingsSection`: user and project scopes, no project-local one), read
 * through the run's settings files (each file once) and loaded into server definitions
 * (validated, `${VAR}`-expanded, a user server keeps its name over a project one). What a
 * definition is: server-definition.ts; one entry into one: config-entry.ts. Adding and removing
 * raw entries is config-edit.ts.
 */
import path from 'node:path';
import { projectSettingsFile, readOnce, type SettingsFiles, settingsFilePath } from '../settings/files.js';
import type { SettingsSection } from '../settings/section.js';
import { ConfigError } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { visibleLine } from '../util/terminal-text.js';
import { toConfigEntry } from './config-entry.js';
import { typeName } from './config-schema.js';
import { confinesProjectServers } from './sandbox-config.js';
import {
  type ConfigSource,
  DEFAULT_MAX_RESULT_TOKENS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type InProcessServer,
  type ServerConfigEntry,
} from './server-definition.js';

export type { OAuthSettings } from './oauth-settings.js';
export type { ServerSandbox } from './sandbox-config.js';
export type {
  ConfigSource,
  InProcessDefinition,
  InProcessServer,
  McpServerDefinition,
  RemoteDefinition,
  ServerConfigEntry,
  StdioDefinition,
} from './server-definition.js';
export {
  DEFAULT_MAX_RESULT_TOKENS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
} from './server-definition.js';

export interface ConfigDirs {
  projectDir: string;
  /** The person's home: what a relative `cwd` of a user-file server is relative to. */
  homeDir: string;
  /** Where user-level state lives (`userStateDir`); default `<homeDir>/.geekagent`. */
  userDir?: string;
}

/**
 * mcp.json as a settings section: the whole file, `{"mcpServers": {<name>: <entry>}}`. Its
 * scopes are listed, not merged key by key: both files' servers run, a user server keeping its
 * name over a project one (`loadMcpServers`); the project's only in a trusted folder. No
 * project-local scope: a server private to one person goes in their user file. The schema is the
 * file's shape; the reader below checks it in its own words (file + JSON path), each entry is
 * config-entry.ts's.
 */
const mcpFileSchema = z.lazySchema(() =>
  z.looseObject({ mcpServers: z.optional(z.record(z.string(), z.unknown())) }),
);

export const mcpSettingsSection: SettingsSection<McpDocument> = {
  key: '',
  file: 'mcp.json',
  // Built when an mcp.json is read: a start without one never needs it.
  get schema() {
    return mcpFileSchema();
  },
  scopes: { user: 'listed', project: 'listed' },
  invalid: 'throw',
};

export interface McpDocument {
  mcpServers?: Record<string, unknown>;
  [key: string]: unknown;
}

export function mcpConfigPath(scope: 'project' | 'user', dirs: ConfigDirs): string {
  const userDir = dirs.userDir ?? path.join(dirs.homeDir, '.geekagent');
  return settingsFilePath('mcp.json', scope, { projectDir: dirs.projectDir, userDir }) as string;
}

/** A project server named like a user server: the user's runs, the project's is skipped. */
export interface ServerNameConflict {
  name: string;
  projectFile: string;
  userFile: string;
}

/** A repo must not take over the name (and so the rules) of the person's own server. */
export function conflictNotice(conflict: ServerNameConflict): string {
  return visibleLine(
    `MCP server ${conflict.name} is declared in both ${conflict.userFile} and ${conflict.projectFile}: ` +
      `the user's server runs, the project's is skipped (rename one to use both)`,
  );
}

export interface LoadedMcpConfig {
  entries: ServerConfigEntry[];
  conflicts: ServerNameConflict[];
}

/** Every server of both files (the project trusted), user servers winning a name clash. */
export async function loadMcpConfig(
  options: ConfigDirs & { env: NodeJS.ProcessEnv; files?: SettingsFiles },
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
    /** The run's settings reads: each file read once (trust's reading included). */
    files?: SettingsFiles;
  },
): Promise<LoadedMcpConfig> {
  const projectDir = path.resolve(options.projectDir);
  const homeDir = path.resolve(options.homeDir);
  const dirs = { projectDir, homeDir, userDir: options.userDir };
  const projectFile = mcpConfigPath('project', dirs);
  const userFile = mcpConfigPath('user', dirs);
  // Started in the user folder itself: there is one file, not two layers.
  const [project, userDocument] = await Promise.all([
    options.project ? readServers(projectFile, options.files) : Promise.resolve([]),
    userFile === projectFile ? Promise.resolve(undefined) : readDocument(userFile, options.files),
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

/**
 * The project file's raw server entries (unexpanded), for the trust question; [] when missing.
 * Through the run's settings reads when given: the run then uses the very file trust was asked about.
 */
export async function readProjectServers(
  projectDir: string,
  files?: SettingsFiles,
): Promise<Array<[string, unknown]>> {
  return readServers(projectSettingsFile('mcp.json', projectDir), files);
}

async function readServers(file: string, files?: SettingsFiles): Promise<Array<[string, unknown]>> {
  const document = await readDocument(file, files);
  return document ? Object.entries(serversOf(file, document)) : [];
}

async function readDocument(
  file: string,
  files: SettingsFiles | undefined,
): Promise<Record<string, unknown> | undefined> {
  const read = await readOnce(files, file);
  return read.kind === 'missing' ? undefined : documentOf(file, read.value);
}

/** Whether the user's mcp.json confines project servers (false when there is no file). */
export async function userConfinesProjectServers(dirs: ConfigDirs, files?: SettingsFiles): Promise<boolean> {
  const file = mcpConfigPath('user', dirs);
  const document = await readDocument(file, files);
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
  // A skill's own file, not a settings scope: read when the skill starts.
  return (await readServers(file, undefined)).map(([name, raw]) => toConfigEntry(name, raw, context));
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
