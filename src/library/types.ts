/**
 * The library's public types: what `query()` takes and what it yields. Self-contained on purpose (no
 * imports): the shipped `.d.ts` is this file and index.ts's, nothing of the rest of the code.
 * The messages are the stream-json lines `geekagent -p --output-format stream-json` writes, in
 * Claude Code's shapes; the fields named here are the ones a program usually reads.
 */

/** A user message as stream-json input takes it (content a string or text blocks). */
export interface UserInputMessage {
  type: 'user';
  message: { role: 'user'; content: string | Array<{ type: 'text'; text: string }> };
  parent_tool_use_id?: string | null;
  session_id?: string;
}

/** Fields every message carries. */
interface MessageBase {
  uuid: string;
  session_id: string;
  [field: string]: unknown;
}

export interface SystemMessage extends MessageBase {
  type: 'system';
  /** `init` first (cwd, model, tools, mcp_servers, permissionMode…), then notices, compaction, todos. */
  subtype: string;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export interface AssistantMessage extends MessageBase {
  type: 'assistant';
  message: {
    id: string;
    type: 'message';
    role: 'assistant';
    model: string;
    content: ContentBlock[];
    stop_reason: string | null;
    stop_sequence: string | null;
    usage: Record<string, unknown>;
  };
  parent_tool_use_id: string | null;
}

export interface ToolResultMessage extends MessageBase {
  type: 'user';
  message: {
    role: 'user';
    content: Array<{ type: 'tool_result'; tool_use_id: string; content: unknown; is_error: boolean }>;
  };
  /** The result as text (`Error: …` when it failed). */
  tool_use_result: string;
  parent_tool_use_id: string | null;
  /** GeekAgent's own facts: the tool, how the call was decided, how long it took. */
  tool_name?: string;
  decision?: string;
  duration_ms?: number;
}

export interface ResultMessage extends MessageBase {
  type: 'result';
  subtype: string;
  is_error: boolean;
  /** The turn's final answer (absent when it failed). */
  result?: string;
  num_turns: number;
  duration_ms: number;
  duration_api_ms: number;
  total_cost_usd: number;
  usage: Record<string, unknown>;
  permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
}

export interface StreamEventMessage extends MessageBase {
  type: 'stream_event';
  event: { type: string; [field: string]: unknown };
  parent_tool_use_id: string | null;
}

export interface ToolProgressMessage extends MessageBase {
  type: 'tool_progress';
  tool_use_id: string;
  tool_name: string;
}

/** One message of the run, exactly as the stream-json output writes it. */
export type QueryMessage =
  | SystemMessage
  | AssistantMessage
  | ToolResultMessage
  | ResultMessage
  | StreamEventMessage
  | ToolProgressMessage;

/** What `canUseTool` answers: run the call (as asked: a changed input is refused), or not and why. */
export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message?: string };

/**
 * Asked for a call that needs a question (a tool no rule allows); not asked for calls the rules or
 * `allowedTools` already allow or deny. Throwing counts as a deny.
 */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  context: { signal: AbortSignal; toolUseID?: string; title: string },
) => Promise<PermissionResult> | PermissionResult;

/**
 * An MCP server object in your process: the MCP SDK's `McpServer` (`@modelcontextprotocol/server`).
 * Typed by what is used of it, so this file imports nothing.
 */
export interface McpServerInstance {
  connect(transport: never): Promise<void>;
}

/**
 * An in-process server (the Claude Agent SDK's shape): connected over an in-memory transport, no
 * process, no sandbox, no cached tool list. Its tools are named and allowed like any server's.
 */
export interface McpSdkServerConfig {
  type: 'sdk';
  /** The Claude Agent SDK's entries carry one; the key in `mcpServers` is the name used. */
  name?: string;
  instance: McpServerInstance;
}

/**
 * An MCP server entry, as in `.mcp.json`'s `mcpServers` (stdio, Streamable HTTP or SSE), or an
 * in-process server (`{ type: 'sdk', instance }`).
 */
export type McpServerConfig =
  | McpSdkServerConfig
  | {
      type?: 'stdio';
      command: string;
      args?: string[];
      env?: Record<string, string>;
      [field: string]: unknown;
    }
  | { type: 'http' | 'sse'; url: string; headers?: Record<string, string>; [field: string]: unknown };

/** Claude Code's names for the approval modes (GeekAgent's own names are taken too). */
export type PermissionMode =
  | 'default'
  | 'acceptEdits'
  | 'plan'
  | 'bypassPermissions'
  | 'accept-edits'
  | 'bypass';

/** The hook events (Claude Code's names). */
export type HookEventName =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'UserPromptSubmit'
  | 'Stop'
  | 'SubagentStop'
  | 'SessionStart'
  | 'SessionEnd'
  | 'PreCompact'
  | 'Notification';

/** What a hook answers: a hook command's JSON output (`decision`, `hookSpecificOutput`, `continue`, …). */
export interface HookOutput {
  continue?: boolean;
  stopReason?: string;
  decision?: 'approve' | 'block';
  reason?: string;
  systemMessage?: string;
  hookSpecificOutput?: {
    hookEventName?: HookEventName;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
  [field: string]: unknown;
}

/**
 * A hook as a callback: gets what a hook command reads on stdin (`hook_event_name`, `tool_name`,
 * `tool_input`, `session_id`, `cwd`, …); returns its JSON output. A throw or a timeout is reported
 * as a notice and otherwise ignored, as for a command.
 */
export type HookCallback = (
  input: Record<string, unknown>,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookOutput | undefined> | HookOutput | undefined;

export interface HookCallbackMatcher {
  /** Which tools (PreToolUse, PostToolUse) or sources it runs for; absent: every one. */
  matcher?: string;
  hooks: HookCallback[];
  /** Seconds (default 60). */
  timeout?: number;
}

export interface QueryOptions {
  /** The project folder (default: `process.cwd()`). */
  cwd?: string;
  /** The environment tools and servers inherit and the model settings are read from (default: `process.env`). */
  env?: Record<string, string | undefined>;
  /** The model API (`openai`, `anthropic`, `gemini`, …) and model, as `--provider` / `--model`. */
  provider?: string;
  model?: string;
  baseURL?: string;
  /** Tool patterns allowed / denied for this run, as `--allow` / `--deny`. */
  allowedTools?: string[];
  disallowedTools?: string[];
  permissionMode?: PermissionMode;
  /** Servers for this run only, beside the configured ones (as `--mcp-config`). */
  mcpServers?: Record<string, McpServerConfig>;
  /** Only the servers given here (as `--strict-mcp-config`). */
  strictMcpConfig?: boolean;
  canUseTool?: CanUseTool;
  /** Hooks as callbacks, beside the ones in the config files. */
  hooks?: Partial<Record<HookEventName, HookCallbackMatcher[]>>;
  /** Aborting it cancels the running turn and ends the run (the iteration ends). */
  abortController?: AbortController;
  /** Continue the session with this id, or the folder's latest one. */
  resume?: string;
  continue?: boolean;
  /** The folder's own declarations (project MCP servers, allow rules, `.env`) apply, as `--trust`. */
  trust?: boolean;
  /** `stream_event` messages for each reply as well (`--include-partial-messages`). */
  includePartialMessages?: boolean;
}

export interface QueryParams {
  /** One prompt, or user messages for a multi-turn session (each a turn, in order, until it ends). */
  prompt: string | AsyncIterable<UserInputMessage>;
  options?: QueryOptions;
}

/** The run's messages, as they happen; ends after the last turn's `result`. */
export interface Query extends AsyncGenerator<QueryMessage, void> {
  /** Cancels the running turn (its `result` says so); a multi-turn session goes on with the next message. */
  interrupt(): Promise<void>;
}
