/**
 * Builds the MCP manager for a project folder: reads both mcp.json files and wires connections to
 * the process tracker (their tools reach the registry through the MCP extension's tool set); an
 * active skill's servers join the same manager (`startSkillServers`). Shared by the agent and the
 * `geekagent mcp` subcommands.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_VERSION } from '../config/version.js';
import type { AuthorizationPrompter } from '../mcp/auth/prompters.js';
import {
  type ClientFeatures,
  nonInteractiveElicitation,
  type RefusalNote,
  type Root,
  refusingSampling,
} from '../mcp/client-features.js';
import type { CommandLineServers } from '../mcp/command-line-config.js';
import {
  conflictNotice,
  type InProcessServer,
  inProcessEntries,
  loadMcpServers,
  loadSkillServers,
  pluginServerEntries,
  type ServerConfigEntry,
  userConfinesProjectServers,
} from '../mcp/config.js';
import { type ConnectionLayer, type LoadedLayer, McpManager } from '../mcp/manager.js';
import type { ServerSandboxer } from '../mcp/sandbox-launch.js';
import { type CachedListing, cacheDirectory, hasToolCache, readCachedListing } from '../mcp/tool-cache.js';
import type { TransportFactory } from '../mcp/transports.js';
import { readSandboxSections } from '../permissions/config.js';
import { createRedactor, type Redactor } from '../permissions/redact.js';
import type { PluginServers } from '../plugins/load.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import type { CommandSandbox, SandboxMode } from '../sandbox/index.js';
import type { SettingsFiles } from '../settings/files.js';
import type { SkillServersHandle } from '../skills/servers.js';
import { visibleLine } from '../util/terminal-text.js';

export interface McpRuntimeOptions {
  projectDir: string;
  homeDir: string;
  /** Where user-level state lives (`userStateDir`): the user mcp.json and OAuth tokens. */
  userDir: string;
  /** Whether the project's own servers may run: only in a folder the person trusts. */
  projectTrusted: boolean;
  /** Told about configuration worth a person's attention (a server-name conflict). */
  notice?: (message: string) => void;
  env: NodeJS.ProcessEnv;
  tracker: ProcessGroupTracker;
  acceptsMedia: boolean;
  /** Where a login may happen now (`mcp login`); background connects report needs_auth instead. */
  prompter?: AuthorizationPrompter;
  features?: ClientFeatures;
  /** Narrow to these servers (`mcp call` connects only the one it needs). */
  only?: (entry: ServerConfigEntry) => boolean;
  /** Hides secrets in server logs; default: the secrets of `env`. */
  redact?: Redactor;
  /**
   * Servers with a cached tool list (and `startup` not `eager`) start on first use. The agent's
   * faces pass true; `geekagent mcp list/get` connect every server (they are diagnostics).
   */
  lazy?: boolean;
  /**
   * `--mcp-config` / `--strict-mcp-config`: servers added for this run (replacing same-named ones),
   * or the only ones when strict. A bad value throws its ConfigError (naming the value or file).
   */
  mcpConfig?: McpConfigFlags;
  /**
   * The library's in-process servers (`{ type: 'sdk', instance }`), by name: added like
   * `--mcp-config` servers (replacing same-named ones, kept when strict). Never from a file.
   */
  inProcess?: Readonly<Record<string, InProcessServer>>;
  /**
   * The run's command sandbox (the tool runtime's): confined servers run in it. Without one, a
   * manager with a confined server makes its own (the library is one per process: never both).
   */
  sandbox?: ServerSandboxer;
  /** `--sandbox` of this run (else GEEKAGENT_SANDBOX): the mode of the sandbox made here. */
  sandboxMode?: SandboxMode;
  /** The run's plugins' servers (plugins/load.ts): after the configured ones, never replacing one. */
  pluginServers?: readonly PluginServers[];
  /** The run's settings reads (boot/bootstrap.ts `Folder.settingsFiles`): each mcp.json read once. */
  files?: SettingsFiles;
}

/** `--mcp-config <file-or-json>` values (in order) and `--strict-mcp-config`, as given. */
export interface McpConfigFlags {
  values: readonly string[];
  strict: boolean;
}

/**
 * The flags as commander parsed them (the agent and the `mcp` commands alike: commander gives
 * both to the program wherever they stand); undefined when neither is given.
 */
export function mcpConfigFlags(parsed: {
  mcpConfig?: readonly string[];
  strictMcpConfig?: boolean;
}): McpConfigFlags | undefined {
  const values = parsed.mcpConfig ?? [];
  const strict = parsed.strictMcpConfig === true;
  return values.length > 0 || strict ? { values, strict } : undefined;
}

export async function createMcpManager(options: McpRuntimeOptions): Promise<McpManager> {
  const commandLine = await readMcpConfigFlags(options.mcpConfig, options);
  const { entries: configured, conflicts } = commandLine?.strict
    ? { entries: [], conflicts: [] }
    : await loadMcpServers({
        projectDir: options.projectDir,
        homeDir: options.homeDir,
        userDir: options.userDir,
        env: options.env,
        project: options.projectTrusted,
        ...(options.files ? { files: options.files } : {}),
      });
  for (const conflict of conflicts) options.notice?.(conflictNotice(conflict));
  if (!commandLine?.strict) configured.push(...pluginEntries(configured, options));
  const loaded = withCommandLine(configured, commandLine, options.notice, options.inProcess);
  // A login waits for a person in a browser: the start-up deadline must not cut it short.
  const entries = options.prompter ? loaded.map(withLoginTime) : loaded;
  const selected = options.only ? entries.filter(options.only) : entries;
  const cacheDir = cacheDirectory(options.userDir);
  // The connection layer's chunk and the cached listings load side by side.
  const [layer, cached, owned] = await Promise.all([
    connectionLayer(selected),
    cachedListings(cacheDir, selected),
    options.sandbox ? undefined : ownSandbox(selected, options),
  ]);
  const transports = (loaded: LayerModule) =>
    loaded.createTransportFactory(
      options.tracker,
      { authDir: authDirectory(options.userDir), prompter: options.prompter },
      options.sandbox ?? owned,
    );
  return new McpManager({
    entries: selected,
    cacheDir,
    cached,
    lazy: options.lazy === true,
    // The agent's faces (the lazy ones) run long enough for changes to matter; `mcp …` commands do not.
    followChanges: options.lazy === true,
    serverNames: entries.map((entry) => entry.name),
    connections: layer,
    createTransport: layer ? transports(layer) : noTransport,
    // A skill's servers may join a manager that started with none.
    loadConnections: async (): Promise<LoadedLayer> => {
      const loaded = await import('../mcp/connection-layer.js');
      return { connections: loaded, createTransport: transports(loaded) };
    },
    logDir: path.join(options.projectDir, '.geekagent', 'logs'),
    projectDir: options.projectDir,
    acceptsMedia: options.acceptsMedia,
    clientVersion: PACKAGE_VERSION,
    features: options.features,
    redact: options.redact ?? createRedactor(options.env),
    ...(owned ? { afterShutdown: () => owned.dispose() } : {}),
  });
}

/** Plugin servers as entries; one named like a configured server is left out with a notice. */
function pluginEntries(
  configured: readonly ServerConfigEntry[],
  options: McpRuntimeOptions,
): ServerConfigEntry[] {
  const taken = new Set(configured.map((entry) => entry.name));
  return (options.pluginServers ?? []).flatMap((plugin) =>
    pluginServerEntries(plugin.file, plugin.servers, {
      pluginDir: plugin.root,
      projectDir: options.projectDir,
      env: options.env,
    }).filter((entry) => {
      if (!taken.has(entry.name)) {
        taken.add(entry.name);
        return true;
      }
      options.notice?.(
        `MCP server ${visibleLine(entry.name)} of plugin ${visibleLine(plugin.plugin)} is not started: a configured server has that name`,
      );
      return false;
    }),
  );
}

function confinedServers(entries: readonly ServerConfigEntry[]): boolean {
  return entries.some(
    (entry) => entry.kind === 'ok' && entry.definition.transport === 'stdio' && entry.definition.sandbox,
  );
}

/**
 * A sandbox for the confined servers of a manager nobody handed one (`geekagent mcp …`): the
 * project folder is the root, the project's `.geekagent` read-only; loaded only when needed.
 */
async function ownSandbox(
  entries: readonly ServerConfigEntry[],
  options: ServerSandboxOptions,
): Promise<CommandSandbox | undefined> {
  return confinedServers(entries) ? createServerSandbox(options) : undefined;
}

type ServerSandboxOptions = Pick<
  McpRuntimeOptions,
  'projectDir' | 'homeDir' | 'userDir' | 'env' | 'projectTrusted' | 'sandboxMode'
> &
  Partial<Pick<McpRuntimeOptions, 'tracker'>>;

/**
 * The command sandbox servers run in when no tool runtime made one: the user's `sandbox` settings
 * (a trusted project's only narrow), the project folder its root; the library loads on first use.
 */
export async function createServerSandbox(options: ServerSandboxOptions): Promise<CommandSandbox> {
  const [{ createCommandSandbox, resolveSandboxPolicy, runSandboxMode }, sections] = await Promise.all([
    import('../sandbox/index.js'),
    readSandboxSections(options),
  ]);
  // The same mode rules as the agent's: `--sandbox`, else GEEKAGENT_SANDBOX, else the files.
  const { policy } = resolveSandboxPolicy(
    sections.user,
    options.projectTrusted ? sections.project : undefined,
    runSandboxMode(options.sandboxMode, options.env).mode,
  );
  return createCommandSandbox({
    policy,
    root: options.projectDir,
    home: options.homeDir,
    userStateDir: options.userDir,
    stateDirs: [path.join(options.projectDir, '.geekagent')],
    env: options.env,
    // The library's proxy bridges (a server allowed a host) die with the run, as in the agent's runtime.
    ...(options.tracker ? { onHelperProcess: (pid: number) => options.tracker?.addProcess(pid) } : {}),
  });
}

/** The flags' servers; their reader is loaded only when the flags are given (most runs never need it). */
async function readMcpConfigFlags(
  flags: McpConfigFlags | undefined,
  options: { projectDir: string; env: NodeJS.ProcessEnv },
): Promise<CommandLineServers | undefined> {
  if (!flags) return undefined;
  const { readCommandLineServers } = await import('../mcp/command-line-config.js');
  return readCommandLineServers(flags.values, {
    projectDir: options.projectDir,
    env: options.env,
    strict: flags.strict,
  });
}

/** The command line's servers after the files' ones, replacing any of the same name (with a notice). */
function withCommandLine(
  configured: ServerConfigEntry[],
  commandLine: CommandLineServers | undefined,
  notice: ((message: string) => void) | undefined,
  inProcess: Readonly<Record<string, InProcessServer>> | undefined,
): ServerConfigEntry[] {
  const given = inProcess ? inProcessEntries({ ...inProcess }) : [];
  if (!commandLine && given.length === 0) return configured;
  for (const message of commandLine?.notices ?? []) notice?.(message);
  const ownNames = new Set(given.map((entry) => entry.name));
  // An in-process server replaces a --mcp-config one of its name, as that one replaces a file's.
  const added = [...(commandLine?.entries ?? []).filter((entry) => !ownNames.has(entry.name)), ...given];
  const names = new Set(added.map((entry) => entry.name));
  const kept = configured.filter((entry) => {
    if (!names.has(entry.name)) return true;
    const file = entry.kind === 'ok' ? entry.definition.file : entry.file;
    notice?.(
      visibleLine(`MCP server ${entry.name} from --mcp-config replaces the one in ${file} for this run`),
    );
    return false;
  });
  return [...kept, ...added];
}

/**
 * The SDK side of the MCP client, loaded only when there is a server to connect: a run without
 * servers (print mode's common case) never loads the SDK.
 */
async function connectionLayer(entries: readonly ServerConfigEntry[]): Promise<LayerModule | undefined> {
  return entries.some((entry) => entry.kind === 'ok') ? import('../mcp/connection-layer.js') : undefined;
}

type LayerModule = ConnectionLayer & {
  createTransportFactory: typeof import('../mcp/connection-layer.js').createTransportFactory;
};

/** Never called: a manager without servers opens no transport. */
const noTransport: TransportFactory = () => {
  throw new Error('no MCP server to connect');
};

/**
 * The cached listings (read in parallel, leniently): a lazy server starts from its tools, and every
 * server's connect from its protocol era (no probe).
 */
async function cachedListings(
  dir: string,
  entries: readonly ServerConfigEntry[],
): Promise<Map<string, CachedListing>> {
  const found = new Map<string, CachedListing>();
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.kind !== 'ok' || entry.definition.disabled || !hasToolCache(entry.definition)) return;
      const listing = await readCachedListing(dir, entry.definition);
      if (listing) found.set(entry.name, listing);
    }),
  );
  return found;
}

const LOGIN_TIME_MS = 10 * 60_000;

function withLoginTime(entry: ServerConfigEntry): ServerConfigEntry {
  if (entry.kind !== 'ok') return entry;
  const startupTimeoutMs = Math.max(entry.definition.startupTimeoutMs, LOGIN_TIME_MS);
  return { ...entry, definition: { ...entry.definition, startupTimeoutMs } };
}

/**
 * Print mode and the `mcp` commands: nobody to ask, so decline (or accept form defaults), and say
 * so in one line through `note`.
 */
export function nonInteractiveFeatures(
  root: string,
  acceptElicitationDefaults: boolean,
  note?: RefusalNote,
): ClientFeatures {
  return {
    elicitation: nonInteractiveElicitation(acceptElicitationDefaults, note),
    sampling: refusingSampling(note),
    roots: () => [rootOf(root)],
  };
}

export function rootOf(root: string): Root {
  return { uri: pathToFileURL(root).href, name: path.basename(root) || root };
}

export function authDirectory(userDir: string): string {
  return path.join(userDir, 'auth');
}

export interface SkillServerOptions {
  /** The run's manager: the skill's servers join it (`/mcp`, the panel and approval see them). */
  manager: McpManager;
  /** The skill's name: its servers' group (`skill <name>` in `/mcp`). */
  skill: string;
  file: string;
  skillDir: string;
  source: 'project' | 'user';
  projectDir: string;
  userDir: string;
  env: NodeJS.ProcessEnv;
  homeDir: string;
  /** The run's settings reads: the user mcp.json as the run read it at start. */
  files?: SettingsFiles;
}

export async function startSkillServers(options: SkillServerOptions): Promise<SkillServersHandle> {
  const confineProjectServers = await userConfinesProjectServers(
    { projectDir: options.projectDir, homeDir: options.homeDir, userDir: options.userDir },
    options.files,
  );
  const entries = await loadSkillServers(options.file, { ...options, confineProjectServers });
  const group = await options.manager.addServers(`skill ${options.skill}`, entries);
  return { whenSettled: group.whenSettled, toolNames: group.toolNames, stop: group.remove };
}
