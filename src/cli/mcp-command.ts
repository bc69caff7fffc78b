/**
 * `geekagent mcp …` (matching `claude mcp`): list, get, add, remove, call and approve. Each command
 * that talks to servers connects them exactly like the agent does, then shuts them down. Text
 * output shows control characters visibly (`out` / `err`); `list --json` is left to JSON.stringify.
 */
import os from 'node:os';
import path from 'node:path';
import { Command, Option } from 'commander';
import { authDirectory, createMcpManager, nonInteractiveFeatures } from '../app/create-mcp.js';
import { userStateDir } from '../config/paths.js';
import { type AuthorizationPrompter, canOpenBrowser, interactivePrompter } from '../mcp/auth/prompters.js';
import { addServerToConfig, loadMcpConfig, mcpConfigPath, removeServerFromConfig } from '../mcp/config.js';
import type { McpManager } from '../mcp/manager.js';
import { tokenStoreFor } from '../mcp/remote-transport.js';
import { convertCallToolResult } from '../mcp/results.js';
import { ToolRegistry } from '../tools/registry.js';
import { outputToText } from '../tools/types.js';
import { decideTrust, type FolderTrust } from '../trust/decide.js';
import { serverDeclaration } from '../trust/declarations.js';
import { TRUST_HINT, untrustedNotice } from '../trust/describe.js';
import { errorMessage } from '../util/errors.js';
import { ConfigError, readJsonFile } from '../util/json-file.js';
import { visible } from '../util/terminal-text.js';
import { addJsonCommand } from './mcp-add-json.js';
import { approveServer } from './mcp-approve.js';
import { remoteEntry, stdioEntry } from './mcp-entry.js';
import { formatServerDetail, formatServerList, serverListJson } from './mcp-format.js';
import { importCommand } from './mcp-import.js';
import { mcpServeCommand, type ServeRootOptions } from './mcp-serve-command.js';
import { type ProcessScope, withProcessScope } from './process-scope.js';
import type { ChatOptions, CliIO } from './program.js';

type Scope = 'project' | 'user';

interface McpContext {
  io: CliIO;
  projectDir: () => string;
  homeDir: string;
  /** `$GEEKAGENT_HOME` or `~/.geekagent` (from the real environment). */
  userDir: string;
  /** `--trust` given (before or after the subcommand). */
  trustFlag: () => boolean;
  setExitCode: (code: number) => void;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function mcpCommand(
  io: CliIO,
  setExitCode: (code: number) => void,
  rootOptions: () => Pick<ChatOptions, 'cwd' | 'trust'> & Partial<ServeRootOptions>,
): Command {
  const homeDir = os.homedir();
  const ctx: McpContext = {
    io,
    projectDir: () => path.resolve(rootOptions().cwd ?? process.cwd()),
    homeDir,
    userDir: userStateDir(io.env, homeDir),
    trustFlag: () => rootOptions().trust === true,
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
    .argument('<name>')
    .action((name: string) => run(ctx, () => get(ctx, name)));

  mcp
    .command('add')
    .description(
      'add a server: geekagent mcp add <name> [-e KEY=VALUE]... -- <command> [args...], or --transport http|sse <name> <url>',
    )
    .argument('<name>')
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
    .argument('<name>')
    .action((name: string) => run(ctx, () => login(ctx, name)));

  mcp
    .command('logout')
    .description("forget a remote server's OAuth tokens")
    .argument('<name>')
    .action((name: string) => run(ctx, () => logout(ctx, name)));

  mcp
    .command('remove')
    .description('remove a server from the project file (or the user file)')
    .argument('<name>')
    .addOption(scopeOption())
    .action((name: string, options: { scope?: Scope }) => run(ctx, () => remove(ctx, name, options.scope)));

  mcp
    .command('approve')
    .description('connect a server, show how its tools changed since approved, and pin their definitions')
    .argument('<server>')
    .action((name: string) => run(ctx, () => approve(ctx, name)));

  mcp
    .command('call')
    .description("call one tool by the server's own tool name and print the result")
    .argument('<server>')
    .argument('<tool>')
    .argument('[json-arguments]', 'arguments as a JSON object', '{}')
    .action((server: string, tool: string, json: string) => run(ctx, () => call(ctx, server, tool, json)));

  mcp.addCommand(addJsonCommand(ctx));
  mcp.addCommand(importCommand(ctx));
  mcp.addCommand(mcpServeCommand(io, setExitCode, rootOptions));
  return mcp;
}

async function run(ctx: McpContext, body: () => Promise<number>): Promise<void> {
  try {
    ctx.setExitCode(await body());
  } catch (error) {
    err(ctx, `${error instanceof ConfigError ? error.message : `geekagent mcp: ${errorMessage(error)}`}\n`);
    ctx.setExitCode(1);
  }
}

async function withManager<T>(
  ctx: McpContext,
  only: ((name: string) => boolean) | undefined,
  body: (manager: McpManager, scope: ProcessScope, trust: FolderTrust) => Promise<T>,
  prompter?: AuthorizationPrompter,
): Promise<T> {
  const projectDir = ctx.projectDir();
  // Nobody to ask: an untrusted folder's servers are neither spawned nor contacted, and stderr says so.
  const trust = await decideTrust({
    projectDir,
    env: ctx.io.env,
    homeDir: ctx.homeDir,
    flag: ctx.trustFlag(),
  });
  const ignored = untrustedNotice(trust);
  if (ignored) ctx.io.stderr.write(`${ignored}\n`);
  return withProcessScope(ctx.io.stderr, async (scope) => {
    const manager = await createMcpManager({
      projectDir,
      homeDir: ctx.homeDir,
      userDir: ctx.userDir,
      projectTrusted: trust.state === 'trusted',
      notice: (message) => ctx.io.stderr.write(`geekagent: ${message}\n`),
      env: ctx.io.env,
      tracker: scope.tracker,
      registry: new ToolRegistry(),
      policies: { ensureToolPolicy: () => undefined },
      acceptsMedia: false,
      prompter,
      features: nonInteractiveFeatures(projectDir, false),
      only: only ? (entry) => only(entry.name) : undefined,
    });
    scope.onShutdown(() => manager.shutdown());
    try {
      return await body(manager, scope, trust);
    } finally {
      await manager.shutdown();
    }
  });
}

/** "No such server" — or, for a project server of an untrusted folder, why it is not there. */
function missingServer(ctx: McpContext, trust: FolderTrust, name: string): number {
  const declared =
    trust.state === 'untrusted' &&
    trust.declarations.items.some((item) => item.kind === 'server' && item.name === name);
  err(
    ctx,
    declared
      ? `MCP server ${name} is declared in .geekagent/mcp.json, but this folder is not trusted: ${TRUST_HINT}\n`
      : `no MCP server named ${name} (see geekagent mcp list)\n`,
  );
  return 1;
}

async function list(ctx: McpContext, json: boolean): Promise<number> {
  return withManager(ctx, undefined, async (manager) => {
    manager.start();
    await manager.whenSettled();
    const statuses = manager.statuses();
    // JSON.stringify escapes control characters itself; the content stays exact for scripts.
    if (json) ctx.io.stdout.write(`${JSON.stringify(serverListJson(statuses), null, 2)}\n`);
    else out(ctx, formatServerList(statuses, ctx.projectDir()));
    return 0;
  });
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
      out(ctx, formatServerDetail(manager.status(name)!, manager.connection(name)?.definition));
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
      ? await decideTrust({ projectDir, env: ctx.io.env, homeDir: ctx.homeDir })
      : undefined;
  await addServerToConfig(file, name, entry);
  out(ctx, `Added ${options.transport} MCP server ${name} to ${file}\n`);
  if (trust?.state === 'trusted') await trust.remember?.([serverDeclaration(file, name, entry)]);
  else if (trust?.state === 'untrusted')
    err(ctx, `note: this folder is not trusted, so its servers do not start: ${TRUST_HINT}\n`);
  return 0;
}

async function login(ctx: McpContext, name: string): Promise<number> {
  const prompter = interactivePrompter({
    output: ctx.io.stderr,
    input: ctx.io.stdin,
    openBrowser: canOpenBrowser(ctx.io.env),
  });
  return withManager(
    ctx,
    (server) => server === name,
    async (manager, _scope, trust) => {
      const definition = manager.connection(name)?.definition;
      if (!definition) return missingServer(ctx, trust, name);
      if (definition.transport === 'stdio') {
        err(ctx, `${name} is a stdio server; only remote (http, sse) servers log in\n`);
        return 1;
      }
      manager.start();
      await manager.whenSettled();
      const state = manager.status(name)!.state;
      if (state.state !== 'connected') {
        err(
          ctx,
          `login to ${name} failed: ${state.state === 'failed' || state.state === 'needs_auth' ? state.error : state.state}\n`,
        );
        return 1;
      }
      out(ctx, `Logged in to ${name} (${state.tools.length} tools)\n`);
      return 0;
    },
    prompter,
  );
}

async function logout(ctx: McpContext, name: string): Promise<number> {
  // Forgetting tokens contacts nothing: every configured server is eligible, trusted or not.
  const entries = await loadMcpConfig({
    projectDir: ctx.projectDir(),
    homeDir: ctx.homeDir,
    userDir: ctx.userDir,
    env: ctx.io.env,
  });
  const entry = entries.find((candidate) => candidate.name === name);
  if (entry?.kind !== 'ok' || entry.definition.transport === 'stdio') {
    err(ctx, `no remote MCP server named ${name} (see geekagent mcp list)\n`);
    return 1;
  }
  const store = tokenStoreFor(entry.definition, authDirectory(ctx.userDir));
  const removed = await store.clear();
  out(ctx, removed ? `Logged out of ${name} (removed ${store.file})\n` : `${name} had no saved login\n`);
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

async function call(ctx: McpContext, server: string, tool: string, json: string): Promise<number> {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (error) {
    err(ctx, `invalid JSON arguments: ${errorMessage(error)}\n`);
    return 1;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    err(ctx, 'invalid JSON arguments: expected a JSON object such as {"text": "hi"}\n');
    return 1;
  }
  return withManager(
    ctx,
    (name) => name === server,
    async (manager, _scope, trust) => {
      const connection = manager.connection(server);
      const status = manager.status(server);
      if (!status) return missingServer(ctx, trust, server);
      manager.start();
      await manager.whenSettled();
      const state = manager.status(server)!.state;
      if (state.state !== 'connected' || !connection) {
        const reason = state.state === 'failed' || state.state === 'needs_auth' ? state.error : state.state;
        err(ctx, `MCP server ${server} is not connected: ${reason}\n`);
        return 1;
      }
      if (!state.tools.some((info) => info.originalName === tool)) {
        const names = state.tools.map((info) => info.originalName).join(', ') || '(none)';
        err(ctx, `server ${server} has no tool named ${tool}; its tools: ${names}\n`);
        return 1;
      }
      try {
        const result = await connection.callTool(tool, args as Record<string, unknown>);
        const converted = convertCallToolResult(result, {
          maxResultTokens: connection.definition.maxResultTokens,
          acceptsMedia: false,
        });
        const text = outputToText(converted.output);
        (converted.isError ? err : out)(ctx, `${text}\n`);
        return converted.isError ? 1 : 0;
      } catch (error) {
        err(ctx, `${errorMessage(error)}\n`);
        return 1;
      }
    },
  );
}

async function approve(ctx: McpContext, server: string): Promise<number> {
  return withManager(
    ctx,
    (name) => name === server,
    (manager) => approveServer(manager, server, ctx.projectDir(), ctx.io),
  );
}

/**
 * Every line of text output: server names, errors, results and descriptions come from servers and
 * config files, so control characters are shown (`^[`), never sent to the terminal.
 */
function out(ctx: McpContext, text: string): void {
  ctx.io.stdout.write(visible(text));
}

function err(ctx: McpContext, text: string): void {
  ctx.io.stderr.write(visible(text));
}

async function serverExists(file: string, name: string): Promise<boolean> {
  const read = await readJsonFile(file);
  if (read.kind === 'missing') return false;
  const servers = (read.value as { mcpServers?: Record<string, unknown> } | null)?.mcpServers;
  return typeof servers === 'object' && servers !== null && Object.hasOwn(servers, name);
}
