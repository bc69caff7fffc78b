/**
 * The Tool contract shared by built-in tools, MCP tools and (later) skill tools, and the shapes of
 * what a tool returns. Nothing here depends on a provider or on the UI.
 */
import type { CommandSandbox, SandboxPolicy } from '../sandbox/index.js';
import type { Redactor } from '../util/redact.js';
import type { ProtectedPathGuard } from '../workspace/protected.js';
import type { PathSandbox } from '../workspace/root-sandbox.js';

export { ToolError } from '../util/errors.js';
// The root-confined file primitives (workspace/) sit below the contract and define these.
export type { PathSandbox, ProtectedPathGuard };

export type JsonSchema = Record<string, unknown>;

/** One piece of tool output. Images and audio carry base64 data so MCP media can pass through. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string };

/** What a tool's `run` resolves to: plain text, or a list of parts. */
export type ToolOutput = string | ContentPart[];

/** A progress report from a long-running tool (MCP progress notifications end up here). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What a person is shown before an `ask` tool runs. */
export interface ApprovalPrompt {
  /** One line naming what is about to happen, e.g. `About to call MCP tool: mcp_demo_dice (from server demo)`. */
  title: string;
  /** The detail: arguments, the command, a diff, a URL. */
  detail: string;
  /** Lets the UI pick a rendering (a diff is coloured, a command is shown verbatim). */
  kind: 'generic' | 'command' | 'diff' | 'url' | 'mcp';
  /** For MCP tools: the server the tool comes from. */
  server?: string;
}

/** A record of a confirmed file change, so `/undo` can restore it. */
export interface UndoRecorder {
  /**
   * Call before changing `absolutePath`; `previous` is its content, or null if it did not exist;
   * `next` what is about to be written (`/undo` and a rewind restore only a file that still holds it).
   */
  record(absolutePath: string, previous: string | null, next: string): Promise<void>;
}

/** What the registry hands a tool at run time. State is passed in, never global. */
export interface ToolContext {
  signal: AbortSignal;
  sandbox: PathSandbox;
  undo: UndoRecorder;
  /** Absent: nothing is protected (unit tests of single tools). */
  protectedPaths?: ProtectedPathGuard;
  /** The protected paths the person approved for this call (set by the executor). */
  approvedProtected?: readonly string[];
  /** Environment the tool may use (shell tools); already the agent's own env. */
  env: NodeJS.ProcessEnv;
  /**
   * Hides secret values. A tool that cuts its output to a length redacts before cutting (see
   * util/text.ts), or a secret straddling the cut would leak its prefix; the executor redacts the
   * finished output again. Absent where there are no secrets to hide (unit tests).
   */
  redact?: Redactor;
  onProgress?: (progress: ToolProgress) => void;
  /** Confines commands (run_shell). Absent: commands run as they are, asked (unit tests). */
  commandSandbox?: CommandSandbox;
  /** The run's sandbox settings (autoAllow, allowUnconfined); with `commandSandbox`. */
  sandboxPolicy?: SandboxPolicy;
  /** The id of the tool call being run (the sandbox attributes violations by it). */
  callId?: string;
  /**
   * Where read/write/patch get and put a file's text once the root checks passed (an editor's
   * buffers, over ACP). Absent: the disk, through workspace/root-files.ts.
   */
  fileAccess?: FileAccess;
  /** Where run_shell runs its command line (an editor's terminal, over ACP). Absent: a child process. */
  commandRunner?: CommandRunner;
}

/**
 * Text I/O of a file the tools already resolved and checked inside the root: `path` is its real,
 * absolute path. Reads see what the editor has (unsaved changes included); writes land there.
 */
export interface FileAccess {
  readText(path: string, signal: AbortSignal): Promise<string>;
  writeText(path: string, content: string, signal: AbortSignal): Promise<void>;
}

/** One `/bin/sh -c <line>` run somewhere else than a child process of the agent. */
export interface CommandRequest {
  line: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** The call it belongs to (the face shows the terminal with that call). */
  callId?: string;
}

export interface CommandOutcome {
  /** Merged stdout and stderr (the runner may keep only its end). */
  output: string;
  code: number | null;
  signal: string | null;
  stopped: 'timeout' | 'abort' | null;
}

export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome>;
}

/** A call the model asked for: the provider reassembles it, the executor runs it. */
export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model produced it; may be malformed. */
  arguments: string;
}

/** What the model is told about a tool: the provider converts it to its own format. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** Where a tool comes from, when not built in: tool search defers MCP tools by it. */
export interface ToolOrigin {
  kind: 'mcp';
  server: string;
  /** The server's own tool name; for a resource helper, `list_resources` or `read_resource`. */
  tool: string;
  /** One of the resource tools GeekAgent adds for a server (the server lists no such tool). */
  resourceHelper?: true;
}

export interface Tool extends ToolSpec {
  origin?: ToolOrigin;
  /**
   * Tools with their own confirmation (command, diff, URL) describe it here; the permission layer
   * shows it instead of the generic "About to call tool" prompt. The spec calls this `authorizes`.
   */
  describeApproval?: (args: Record<string, unknown>, ctx: ToolContext) => Promise<ApprovalPrompt>;
  /**
   * Protected paths this call would touch (see ProtectedPathGuard). A non-empty answer makes the
   * call always asked, even under `allow`, and print mode refuses it.
   */
  protectedTargets?: (args: Record<string, unknown>, ctx: ToolContext) => Promise<string[]>;
  /**
   * Why this particular call must be asked even under `allow` (a user-scope memory written from a
   * folder the person has not trusted), or undefined. The reason is shown above the question;
   * `refusal` is what an approver that cannot ask (print mode, `mcp serve` without elicitation)
   * returns instead of its usual hint: why, and what would let the call through.
   */
  askReason?: (args: Record<string, unknown>, ctx: ToolContext) => Promise<CallReview | undefined>;
  /**
   * Whether this call may run unasked although its policy is `ask` (a command the sandbox
   * confines). Never consulted for `deny`, protected paths or an `askReason`.
   */
  runsUnasked?: (args: Record<string, unknown>, ctx: ToolContext) => Promise<boolean>;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
  /**
   * `run` settles as soon as `ctx.signal` aborts (an MCP call: the SDK rejects it at once), so the
   * executor need not race it against the signal. Left out: it is raced.
   */
  endsOnAbort?: true;
  /**
   * Calls of one round that return the same key run one after another instead of concurrently
   * (write/patch key on the file: two edits of one file must not both read the old content).
   * Undefined: no constraint.
   */
  exclusiveKey?(args: Record<string, unknown>, root: string): string | undefined;
}

/** A tool's own reason to ask for one call (the executor's PolicyReview has the same shape). */
export interface CallReview {
  reason: string;
  refusal?: string;
}

/** How a call was let through (or not) by the permission layer. */
export type ToolDecision = 'allow' | 'deny' | 'approved' | 'refused';

/** What one tool call came to, as the loop, print mode and the UI see it. */
export interface ToolCallOutcome {
  name: string;
  /** The arguments as the model sent them (raw JSON text). */
  arguments: string;
  decision: ToolDecision;
  output: ToolOutput;
  isError: boolean;
}

/** Joins the text parts of an output; media parts become a short placeholder. */
export function outputToText(output: ToolOutput): string {
  if (typeof output === 'string') return output;
  return output.map((part) => (part.type === 'text' ? part.text : mediaPlaceholder(part))).join('\n');
}

/** `[image: image/png, 12.3 KB]` — used where a provider or display cannot take media. */
export function mediaPlaceholder(part: Exclude<ContentPart, { type: 'text' }>): string {
  const bytes = Math.floor((part.data.length * 3) / 4);
  const size =
    bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
  return `[${part.type}: ${part.mimeType}, ${size}]`;
}
