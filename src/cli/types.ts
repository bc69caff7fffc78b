/**
 * The command line's shared shapes: the process's streams and environment (CliIO) and the chat
 * flags as commander parsed them (ChatOptions). A leaf, so the subcommands and faces that take
 * them need not import program.ts, which imports them.
 */
import type { OutputFormat } from './print-mode.js';

export interface CliIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

export interface ChatOptions {
  print?: string | boolean;
  /**
   * `geekagent "fix the bug"`: the first message, sent as the interactive session opens (print
   * mode's prompt with `-p` and no value, or when stdin/stdout is not a terminal).
   */
  prompt?: string;
  outputFormat: OutputFormat;
  /** `--input-format stream-json`: turns (and approval answers) as JSON lines on stdin. */
  inputFormat: 'text' | 'stream-json';
  /** `--include-partial-messages`: stream-json carries each reply's stream events too. */
  includePartialMessages?: boolean;
  /** `--verbose`: accepted as Claude Code's `-p --output-format stream-json` needs it (stream-json is always whole). */
  verbose?: boolean;
  allow: string[];
  deny: string[];
  /** `--allow-protected` paths (relative to the project folder). */
  allowProtected: string[];
  cwd?: string;
  model?: string;
  baseUrl?: string;
  provider?: string;
  acceptElicitationDefaults?: boolean;
  /** Use the folder's declarations this run without recording trust. */
  trust?: boolean;
  /** `-c`: the latest session of this folder. */
  continue?: boolean;
  /** `--resume <id>`: that session. */
  resume?: string;
  /** `--skill <name>` (repeatable): skills active from the start. */
  skill: string[];
  /** `--mcp-config <file-or-json>` (repeatable): MCP servers for this run only. */
  mcpConfig: string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers, not the mcp.json files. */
  strictMcpConfig?: boolean;
  /** `--sandbox MODE`: the command sandbox for this run. */
  sandbox?: 'workspace-write' | 'read-only' | 'off';
  /** `--approval-mode MODE`: default, accept-edits, plan or bypass. */
  approvalMode?: string;
  /** `--image FILE` (repeatable): images attached to the first message. */
  image: string[];
}
