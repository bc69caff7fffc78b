/**
 * What a configured MCP server is once read: its definition (stdio, remote, in-process), where it
 * came from, and the defaults its file may leave out. Types and constants only; config.ts loads
 * them from files, config-entry.ts builds each from one raw entry.
 */
import type { OAuthSettings } from './oauth-settings.js';
import type { ServerSandbox } from './sandbox-config.js';

/** `cli`: given with `--mcp-config` for one run (the person's own, so no folder trust needed). */
export type ConfigSource = 'project' | 'user' | 'cli';

export interface DefinitionBase {
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
   * Each value a `${VAR}` of the entry took from the environment (a token, a private path): what
   * the server's errors and log lines never show (mcp/redact.ts). Absent when it took none.
   */
  fromEnv?: readonly EnvValue[];
  /**
   * Every other configured server's name, set by the manager: tool naming keeps this server's
   * names apart from theirs (see mcp/naming.ts).
   */
  otherServers?: readonly string[];
}

/** One value taken from the environment, by the variable that held it. */
export interface EnvValue {
  variable: string;
  value: string;
}

export interface StdioDefinition extends DefinitionBase {
  transport: 'stdio';
  command: string;
  args: string[];
  /**
   * The command and args as the file writes them, before `${VAR}` expansion: what is shown (`mcp
   * get`, `geekagent config`), so a value taken from the environment, a token say, is not.
   */
  written?: { command: string; args: string[] };
  /** Only the declared env, expanded; the transport adds a minimal base environment. */
  env: Record<string, string>;
  /** Absolute. */
  cwd: string;
  /** Run confined by the kernel sandbox (never unconfined: no sandbox, no start). */
  sandbox?: ServerSandbox;
}

export interface RemoteDefinition extends DefinitionBase {
  transport: 'http' | 'sse';
  url: string;
  /** The address as the file writes it, before `${VAR}` expansion: what is shown, as for stdio. */
  written?: { url: string };
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
