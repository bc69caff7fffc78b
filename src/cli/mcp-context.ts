/**
 * What every `geekagent mcp …` subcommand shares: its context, the exit-code wrapper, a manager
 * connected exactly like the agent's (`--mcp-config` servers included, then shut down), and
 * escaped output.
 */
import { createMcpManager, type McpConfigFlags, nonInteractiveFeatures } from '../app/create-mcp.js';
import { decideFolderTrust } from '../boot/folder-trust.js';
import type { AuthorizationPrompter } from '../mcp/auth/prompters.js';
import type { McpManager } from '../mcp/manager.js';
import { loadPlugins, pluginServers } from '../plugins/load.js';
import type { SandboxMode } from '../sandbox/index.js';
import type { FolderTrust } from '../trust/decide.js';
import { TRUST_HINT } from '../trust/describe.js';
import { errorMessage } from '../util/errors.js';
import { ConfigError } from '../util/json-file.js';
import { visible, visibleLine } from '../util/terminal-text.js';
import { type ProcessScope, withProcessScope } from './process-scope.js';
import type { CliIO } from './types.js';

export interface McpContext {
  io: CliIO;
  projectDir: () => string;
  homeDir: string;
  /** `$GEEKAGENT_HOME` or `~/.geekagent` (from the real environment). */
  userDir: string;
  /** `--trust` given (before or after the subcommand). */
  trustFlag: () => boolean;
  /** `--mcp-config` / `--strict-mcp-config` (before or after the subcommand), as the agent takes them. */
  mcpConfig: () => McpConfigFlags | undefined;
  /** `--sandbox` (before or after the subcommand): confined servers run under that mode. */
  sandboxMode: () => SandboxMode | undefined;
  setExitCode: (code: number) => void;
}

export async function run(ctx: McpContext, body: () => Promise<number>): Promise<void> {
  try {
    ctx.setExitCode(await body());
  } catch (error) {
    err(ctx, `${error instanceof ConfigError ? error.message : `geekagent mcp: ${errorMessage(error)}`}\n`);
    ctx.setExitCode(1);
  }
}

export async function withManager<T>(
  ctx: McpContext,
  only: ((name: string) => boolean) | undefined,
  body: (manager: McpManager, scope: ProcessScope, trust: FolderTrust) => Promise<T>,
  prompter?: AuthorizationPrompter,
): Promise<T> {
  const projectDir = ctx.projectDir();
  // Nobody to ask: an untrusted folder's servers are neither spawned nor contacted, and stderr says so.
  const trust = await decideFolderTrust({
    projectDir,
    env: ctx.io.env,
    homeDir: ctx.homeDir,
    flag: ctx.trustFlag(),
    notice: (text) => ctx.io.stderr.write(`${text}\n`),
  });
  return withProcessScope(ctx.io.stderr, async (scope) => {
    const projectTrusted = trust.state === 'trusted';
    // The agent's plugins' servers too: `mcp list` shows what a run would start.
    const plugins = await loadPlugins({ userDir: ctx.userDir, projectDir, projectTrusted });
    const manager = await createMcpManager({
      pluginServers: pluginServers(plugins),
      projectDir,
      homeDir: ctx.homeDir,
      userDir: ctx.userDir,
      projectTrusted,
      notice: (message) => ctx.io.stderr.write(`geekagent: ${message}\n`),
      env: ctx.io.env,
      tracker: scope.tracker,
      acceptsMedia: false,
      prompter,
      features: nonInteractiveFeatures(projectDir, false, (line) =>
        ctx.io.stderr.write(`geekagent: ${visibleLine(line)}\n`),
      ),
      only: only ? (entry) => only(entry.name) : undefined,
      mcpConfig: ctx.mcpConfig(),
      sandboxMode: ctx.sandboxMode(),
      // The reads trust was decided on: each mcp.json read once.
      ...(trust.files ? { files: trust.files } : {}),
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
export function missingServer(ctx: McpContext, trust: FolderTrust, name: string): number {
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

/**
 * Every line of text output: server names, errors, results and descriptions come from servers and
 * config files, so control characters are shown (`^[`), never sent to the terminal.
 */
export function out(ctx: McpContext, text: string): void {
  ctx.io.stdout.write(visible(text));
}

export function err(ctx: McpContext, text: string): void {
  ctx.io.stderr.write(visible(text));
}
