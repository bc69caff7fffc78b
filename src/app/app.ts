/**
 * What the composition root takes and gives: `AppOptions` (what a face passes to `createApp`) and
 * `App` (the finished object graph the faces use). Types only; `create-app.ts` builds it.
 */
import type { Agent } from '../agent/agent.js';
import type { Conversation } from '../agent/conversation.js';
import type { ModelSettings } from '../config/model-settings.js';
import type { ExtensionHost } from '../extensions/host.js';
import type { CodeHook } from '../hooks/engine.js';
import type { ClientFeatures } from '../mcp/client-features.js';
import type { InProcessServer } from '../mcp/config.js';
import type { McpManager } from '../mcp/manager.js';
import type { ApprovalMode } from '../permissions/approval-mode.js';
import type { Approver } from '../permissions/types.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import type { ChatProvider } from '../providers/types.js';
import type { SandboxMode } from '../sandbox/index.js';
import type { Opened, SessionStart, Sessions } from '../sessions/manager.js';
import type { BackgroundShells } from '../tools/background/shells.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { CommandRunner, FileAccess } from '../tools/types.js';
import type { FolderTrust } from '../trust/decide.js';
import type { AskTrust } from '../trust/reload.js';
import type { RootSandbox } from '../workspace/root-sandbox.js';
import type { McpConfigFlags } from './create-mcp.js';

export interface AppOptions {
  cwd: string;
  homeDir?: string;
  /**
   * The real environment: tools and MCP servers inherit from it, and `GEEKAGENT_HOME` is read from
   * it. Never changed here; a trusted project's `.env` only feeds the model settings.
   */
  env: NodeJS.ProcessEnv;
  /**
   * Whether the folder's declarations (project servers, allow rules, a root outside it, `.env`)
   * apply: see `decideTrust`. Untrusted, the run goes on without them.
   */
  trust: FolderTrust;
  /**
   * How this face asks the trust question for a project command or skill that `/commands reload`
   * or `/skills reload` finds new or changed (the TUI); absent: nobody to ask, it stays out.
   */
  askTrust?: AskTrust;
  /** After `/trust` is answered yes: what the face loads live (the TUI's earlier input history). */
  onTrusted?: () => Promise<void> | void;
  model?: string;
  baseURL?: string;
  /** `--provider`: which model API (see config/provider-kinds.ts). */
  provider?: string;
  /** `--allow` / `--deny` patterns, layered above the config files for this run. */
  allow?: string[];
  deny?: string[];
  /** `--allow-protected` paths: protected paths (.geekagent/, .env) this run may change unasked. */
  allowProtected?: string[];
  /** `--sandbox MODE`: the command sandbox's mode for this run. */
  sandboxMode?: SandboxMode;
  /**
   * Absolute folders the file tools may use besides the root, under the same rules (an editor's
   * `additionalDirectories`); commands still run in the root.
   */
  extraRoots?: readonly string[];
  /** `--approval-mode MODE`: the run's first approval mode (else the user's `approvalMode`). */
  approvalMode?: string;
  approver: Approver;
  /** Every process group the run starts (MCP servers) is registered here, so none outlives it. */
  tracker: ProcessGroupTracker;
  /**
   * How this face answers servers' requests (elicitation, sampling); default: nobody to ask, so
   * decline. Gets the provider (sampling answers with the configured model) and the root.
   */
  features?: (context: { provider: ChatProvider; root: string }) => ClientFeatures;
  /** Which session the run continues (`--continue`, `--resume <id>`); a new one by default. */
  session?: SessionStart;
  /** `--skill <name>` (repeatable): skills active from the start of the run. */
  skills?: string[];
  /** `--mcp-config` values (files or JSON) and `--strict-mcp-config`: servers for this run only. */
  mcpConfig?: McpConfigFlags;
  /** The library's in-process MCP servers by name (`{ type: 'sdk', instance }` entries). */
  inProcessMcp?: Readonly<Record<string, InProcessServer>>;
  /** An editor face's file text I/O and command runner (ACP); default: the disk, child processes. */
  fileAccess?: FileAccess;
  commandRunner?: CommandRunner;
  /** Hooks given in code (the library's `hooks`), run beside the configured ones. */
  hooks?: readonly CodeHook[];
  /** `--image FILE` (repeatable): images attached to the first message the person sends. */
  images?: string[];
}

/**
 * What the faces (print mode, stream-json, the TUI, ACP) and the turn controller read; the rest of
 * the object graph (policies, executor, undo, redaction) stays inside, reached through extensions.
 */
export interface App {
  readonly projectDir: string;
  /** `$GEEKAGENT_HOME` or `~/.geekagent` (ACP lists the person's named models from it). */
  readonly userDir: string;
  /** Start-up problems worth a person's attention (e.g. a server-name conflict), shown by the face. */
  readonly notices: readonly string[];
  /** The model settings now (a `/model` switch changes them): the key, its variable, the model. */
  readonly settings: ModelSettings;
  /** The root every file tool is confined to (the project folder unless the config moves it). */
  readonly root: string;
  /**
   * The approval mode (default, accept-edits, plan, bypass): `current`, `modes`, `set(mode)` (an
   * error text when refused), `cycle()`, `onChange(listener)`. Every executor consults it.
   */
  readonly approvalMode: ApprovalMode;
  /** The root's file access (ACP reads a file's old text through it for a diff). */
  readonly sandbox: RootSandbox;
  /** The tools (stream-json's init line lists the visible ones). */
  readonly registry: ToolRegistry;
  /** The switchable model (name, model, window; `prepare()` loads its client early). */
  readonly provider: ChatProvider;
  readonly conversation: Conversation;
  readonly agent: Agent;
  /** The MCP servers (stream-json's init line lists their states). */
  readonly mcp: McpManager;
  /** What every feature contributed: commands, panel rows, notices; the agent's hooks. */
  readonly extensions: ExtensionHost;
  /** The run's session: its id, and the file every conversation change is appended to. */
  readonly sessions: Sessions;
  /** Background shells (run_shell `background`): an editor keeps their calls in progress until settled. */
  readonly backgroundShells: BackgroundShells;
  /** The session the run started in, when it continued one (for the face to say so). */
  readonly opened: Opened | undefined;
  /** Releases every extension (stops MCP servers, closes the session file); safe to call twice. */
  shutdown(): Promise<void>;
}
