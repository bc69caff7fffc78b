/**
 * `geekagent mcp …` (matching `claude mcp`): list, get, add, remove, call and approve. Each command
 * that talks to servers connects them exactly like the agent does, then shuts them down. Text
 * output shows control characters visibly (`out` / `err`); `list --json` is left to JSON.stringify.
 */
import os from 'node:os';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { mcpConfigFlags } from '../app/create-mcp.js';
import { decideFolderTrust } from '../boot/folder-trust.js';
import { userStateDir } from '../config/paths.js';
import { mcpConfigPath } from '../mcp/config.js';
import { addServerToConfig, removeServerFromConfig } from '../mcp/config-edit.js';
import type { ServerStatus } from '../mcp/status.js';
import { serverDeclaration } from '../trust/declarations.js';
import { TRUST_HINT } from '../trust/describe.js';
import { readJsonFile } from '../util/json-file.js';
import { addJsonCommand } from './mcp-add-json.js';
import { approveServer } from './mcp-approve.js';
import { call } from './mcp-call.js';
import { err, type McpContext, missingServer, out, run, withManager } from './mcp-context.js';
import { remoteEntry, stdioEntry } from './mcp-entry.js';
import { formatServerDetail, formatServerList, serverListJson } from './mcp-format.js';
import { importCommand } from './mcp-import.js';
import { login, logout } from './mcp-login.js';
import { mcpServeCommand, type ServeRootOptions } from './mcp-serve-command.js';
import type { ChatOptions, CliIO } from './types.js';

type Scope = 'project' | 'user';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function mcpCommand(
  io: CliIO,
  setExitCode: (code: number) => void,
  rootOptions: () => Pick<ChatOptions, 'cwd' | 'trust'> &
    Partial<ServeRootOptions & Pick<ChatOptions, 'mcpConfig' | 'strictMcpConfig'>>,
): Command {
  const homeDir = os.homedir();
  const ctx: McpContext = {
    io,
    projectDir: () => path.resolve(rootOptions().cwd ?? process.cwd()),
    homeDir,
    userDir: userStateDir(io.env, homeDir),
    trustFlag: () => rootOptions().trust === true,
    mcpConfig: () => mcpConfigFlags(rootOptions()),
    sandboxMode: () => rootOptions().sandbox,
    setExitCode,
  };
  const mcp = new Command('mcp').description('configure and inspect MCP servers');
  const scopeOption = () =>
    new Option(
      '-s, --scope <scope>',
      'which config file: project (.geekagent/mcp.json) or user (~/.geekagent/mcp.json)',
    ).choices(['project', 'user']);

  mcp
    .command('list')
    .description('connect every configured server and print its status and tools')
    .option('--json', 'print a JSON array')
    .action((options: { json?: boolean }) => run(ctx, () => list(ctx, options.json === true)));

  mcp
    .command('get')
    .description('show one server: where it is configured, how it starts, its status and tools')
    .argument('<name>', 'the server name, as in mcp.json or geekagent mcp list')
    .action((name: string) => run(ctx, () => get(ctx, name)));

  mcp
    .command('add')
    .description(
      'add a server: geekagent mcp add <name> [-e KEY=VALUE]... -- <command> [args...], or --transport http|sse <name> <url>',
    )
    .argument('<name>', 'the name to give the server (the tools become mcp_<name>_<tool>)')
    .argument('<target...>', 'the command and its arguments (stdio), or the URL (http, sse)')
    .addOption(scopeOption().default('project'))
    .addOption(
      new Option('-t, --transport <transport>', 'how to reach the server')
        .choices(['stdio', 'http', 'sse'])
        .default('stdio'),
    )
    .option('-e, --env <KEY=VALUE>', 'environment variable for a stdio server (repeatable)', collect, [])
    .option('-H, --header <"Key: value">', 'HTTP header for a remote server (repeatable)', collect, [])
    .action((name: string, target: string[], options: AddOptions) =>
      run(ctx, () => add(ctx, name, target, options)),
    );

  mcp
    .command('login')
    .description('log in to a remote server that uses OAuth (opens the browser, or paste the redirect URL)')
    .argument('<name>', 'the remote server, as named in mcp.json')
    .action((name: string) => run(ctx, () => login(ctx, name)));

  mcp
    .command('logout')
    .description("forget a remote server's OAuth tokens")
    .argument('<name>', 'the remote server, as named in mcp.json')
    .action((name: string) => run(ctx, () => logout(ctx, name)));

  mcp
    .command('remove')
    .description('remove a server from the project file (or the user file)')
    .argument('<name>', 'the server name, as in mcp.json')
    .addOption(scopeOption())
    .action((name: string, options: { scope?: Scope }) => run(ctx, () => remove(ctx, name, options.scope)));

  mcp
    .command('approve')
    .description('connect a server, show how its tools changed since approved, and pin their definitions')
    .argument('<server>', 'the server name, as in mcp.json')
    .action((name: string) => run(ctx, () => approve(ctx, name)));

  mcp
    .command('call')
    .description("call one tool by the server's own tool name and print the result")
    .argument('<server>', 'the server name, as in mcp.json')
    .argument('<tool>', "the tool's name as the server gives it (not mcp_<server>_<tool>)")
    .argument('[json-arguments]', 'arguments as a JSON object', '{}')
    .action((server: string, tool: string, json: string) => run(ctx, () => call(ctx, server, tool, json)));

  mcp.addCommand(addJsonCommand(ctx));
  mcp.addCommand(importCommand(ctx));
  mcp.addCommand(mcpServeCommand(io, setExitCode, rootOptions));
  for (const command of mcp.commands) commandLineServers(ctx, command);
  return mcp;
}

/** The commands that connect servers as the agent does, so they take the run's `--mcp-config` servers. */
const CONNECTING = new Set(['list', 'get', 'call', 'login', 'approve']);

/**
 * `--mcp-config` / `--strict-mcp-config` on a connecting command add (or are) its servers, as for
 * a chat run; the others only edit or read the files, so the flags are refused there rather than
 * silently dropped.
 */
function commandLineServers(ctx: McpContext, command: Command): void {
  if (CONNECTING.has(command.name())) {
    command.addHelpText(
      'after',
      '\nAlso takes --mcp-config <file-or-json> (repeatable) and --strict-mcp-config, as a chat run does.',
    );
    return;
  }
  command.hook('preAction', () => {
    if (!ctx.mcpConfig()) return;
    const message = `--mcp-config and --strict-mcp-config apply to chat runs and to geekagent mcp ${[...CONNECTING].join('/')}, not to geekagent mcp ${command.name()}`;
    err(ctx, `${message}\n`);
    throw new CommanderError(1, 'geekagent.mcpConfigUnused', message);
  });
}

async function list(ctx: McpContext, json: boolean): Promise<number> {
  return withManager(ctx, undefined, async (manager) => {
    manager.start();
    await manager.whenSettled();
    const statuses = manager.statuses();
    // JSON.stringify escapes control characters itself; the content stays exact for scripts.
    if (json) ctx.io.stdout.write(`${JSON.stringify(serverListJson(statuses), null, 2)}\n`);
    else out(ctx, formatServerList(statuses, ctx.projectDir()));
    return reportUnavailable(ctx, statuses);
  });
}

/**
 * Exit 1 when an enabled server failed to connect or needs a login, so a script can tell; the
 * servers are named on stderr. Disabled servers, idle ones (tools from the cache) and the servers
 * of an untrusted folder (not started; stderr already says why) are not failures.
 */
function reportUnavailable(ctx: McpContext, statuses: readonly ServerStatus[]): number {
  const failed = statuses.filter((status) => status.state.state === 'failed').map((status) => status.name);
  const login = statuses.filter((status) => status.state.state === 'needs_auth').map((status) => status.name);
  if (failed.length === 0 && login.length === 0) return 0;
  const parts = [
    ...(failed.length > 0 ? [`failed to connect: ${failed.join(', ')}`] : []),
    ...(login.length > 0 ? [`need a login (geekagent mcp login <name>): ${login.join(', ')}`] : []),
  ];
  err(ctx, `geekagent mcp list: ${parts.join('; ')}\n`);
  return 1;
}

async function get(ctx: McpContext, name: string): Promise<number> {
  return withManager(
    ctx,
    (server) => server === name,
    async (manager, _scope, trust) => {
      const status = manager.status(name);
      if (!status) return missingServer(ctx, trust, name);
      manager.start();
      await manager.whenSettled();
      const connection = manager.connection(name);
      out(ctx, formatServerDetail(manager.status(name)!, connection?.definition, connection?.era));
      return 0;
    },
  );
}

interface AddOptions {
  scope: Scope;
  transport: 'stdio' | 'http' | 'sse';
  env: string[];
  header: string[];
}

async function add(ctx: McpContext, name: string, target: string[], options: AddOptions): Promise<number> {
  const projectDir = ctx.projectDir();
  const file = mcpConfigPath(options.scope, { projectDir, homeDir: ctx.homeDir, userDir: ctx.userDir });
  const report = (text: string) => err(ctx, text);
  const entry =
    options.transport === 'stdio'
      ? stdioEntry(report, target, options.env)
      : remoteEntry(report, target, options.transport, options.header);
  if (!entry) return 1;
  if (await serverExists(file, name)) {
    err(ctx, `MCP server ${name} already exists in ${file}; remove it first: geekagent mcp remove ${name}\n`);
    return 1;
  }
  // Decided before the write: a folder trusted as it was stays trusted with the person's own server.
  const trust =
    options.scope === 'project'
      ? await decideFolderTrust({ projectDir, env: ctx.io.env, homeDir: ctx.homeDir })
      : undefined;
  await addServerToConfig(file, name, entry);
  out(ctx, `Added ${options.transport} MCP server ${name} to ${file}\n`);
  if (trust?.state === 'trusted') await trust.remember?.([serverDeclaration(file, name, entry)]);
  else if (trust?.state === 'untrusted')
    err(ctx, `note: this folder is not trusted, so its servers do not start: ${TRUST_HINT}\n`);
  return 0;
}

async function remove(ctx: McpContext, name: string, scope: Scope | undefined): Promise<number> {
  const dirs = { projectDir: ctx.projectDir(), homeDir: ctx.homeDir, userDir: ctx.userDir };
  const scopes: Scope[] = scope ? [scope] : ['project', 'user'];
  for (const candidate of scopes) {
    const file = mcpConfigPath(candidate, dirs);
    if (await removeServerFromConfig(file, name)) {
      out(ctx, `Removed MCP server ${name} from ${file}\n`);
      return 0;
    }
  }
  const where = scopes.map((candidate) => mcpConfigPath(candidate, dirs)).join(' or ');
  err(ctx, `no MCP server named ${name} in ${where}\n`);
  return 1;
}

async function approve(ctx: McpContext, server: string): Promise<number> {
  return withManager(
    ctx,
    (name) => name === server,
    (manager) => approveServer(manager, server, ctx.projectDir(), ctx.userDir, ctx.io),
  );
}

async function serverExists(file: string, name: string): Promise<boolean> {
  const read = await readJsonFile(file);
  if (read.kind === 'missing') return false;
  const servers = (read.value as { mcpServers?: Record<string, unknown> } | null)?.mcpServers;
  return typeof servers === 'object' && servers !== null && Object.hasOwn(servers, name);
}
