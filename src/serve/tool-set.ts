/**
 * The tools `geekagent mcp serve` offers, built for one project folder exactly as the agent builds
 * them: the built-in tools, memory and the knowledge base (through their extensions, so names,
 * schemas and default policies are the agent's), the layered policy store (the folder's rules only
 * as far as its trust allows, `--allow`/`--deny` on top), the root sandbox, protected paths, undo
 * and redaction — all behind the agent's ToolExecutor. Tools that need a conversation or a model
 * (todo_write, delegate_task) are not part of it.
 */
import { bootTools, openFolder } from '../boot/bootstrap.js';
import type { PolicyStore } from '../permissions/policy.js';
import type { Approver } from '../permissions/types.js';
import type { SandboxMode } from '../sandbox/index.js';
import type { ToolExecutor } from '../tools/executor.js';
import type { Tool } from '../tools/types.js';
import type { FolderTrust } from '../trust/decide.js';
import { SERVED_TOOL_HINTS, type ServedHints } from './hints.js';

export interface ToolSetOptions {
  projectDir: string;
  homeDir: string;
  /** The real environment: the tools (run_shell) inherit it; a trusted `.env` only adds secrets to hide. */
  env: NodeJS.ProcessEnv;
  trust: FolderTrust;
  /** `--allow` / `--deny` patterns: a cli layer above the config files (a deny anywhere still wins). */
  allow: readonly string[];
  deny: readonly string[];
  allowProtected: readonly string[];
  /** `--sandbox MODE`: run_shell is confined as in the agent (the user's `sandbox` settings). */
  sandboxMode?: SandboxMode;
  approver: Approver;
  /** Start-up problems (a memory file that does not parse): written to stderr by the caller. */
  notice: (message: string) => void;
}

export interface ServedTool {
  tool: Tool;
  hints: ServedHints;
}

export interface ToolSet {
  readonly root: string;
  readonly policies: PolicyStore;
  readonly executor: ToolExecutor;
  /** Every tool with hints, in the agent's order (denied ones included: the caller filters). */
  readonly tools: readonly ServedTool[];
  /** Registered tools without an entry in SERVED_TOOL_HINTS: not served. */
  readonly unannotated: readonly string[];
  dispose(): Promise<void>;
}

export async function createToolSet(options: ToolSetOptions): Promise<ToolSet> {
  const folder = await openFolder({ ...options, cwd: options.projectDir });
  // No "always" answers here: an elicitation's yes holds for that one call.
  const { permissions, policies, runtime, host, toolExtensions } = await bootTools(folder, options);
  const { registry, executor, commandSandbox, sandboxNotices } = runtime;
  host.onNotice((message) => options.notice(message));
  for (const message of sandboxNotices) options.notice(message);
  // Said once on stderr, as the agent's start line: a shell that cannot be confined is asked.
  const status = commandSandbox.status;
  if (status.kind === 'unavailable')
    options.notice(
      `sandbox unavailable (${status.reason}): run_shell asks before every command. Fix: ${status.fix}`,
    );
  await host.add(toolExtensions.builtinTools, toolExtensions.memory, toolExtensions.rag);
  const tools: ServedTool[] = [];
  const unannotated: string[] = [];
  for (const tool of registry.list()) {
    const hints = SERVED_TOOL_HINTS[tool.name];
    if (hints) tools.push({ tool, hints });
    else unannotated.push(tool.name);
  }
  return {
    root: permissions.root,
    policies,
    executor,
    tools,
    unannotated,
    dispose: () => host.dispose().then(() => commandSandbox.dispose()),
  };
}
