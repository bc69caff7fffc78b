/**
 * What a tool runs under, built once for the agent (app/) and for `geekagent mcp serve` (serve/):
 * the root sandbox, the undo stack, protected paths, the registry and executors over them. One
 * place, so a tool meets the same rules whichever face called it.
 */
import os from 'node:os';
import path from 'node:path';
import type { PermissionConfig } from '../permissions/config.js';
import type { Redactor } from '../permissions/redact.js';
import { UndoStack, undoFilePath } from '../permissions/undo.js';
import {
  type CommandSandbox,
  createCommandSandbox,
  resolveSandboxPolicy,
  runSandboxMode,
  type SandboxMode,
  type SandboxPolicy,
} from '../sandbox/index.js';
import type { Approver, ModeGate, PolicyLookup } from '../tools/approval.js';
import { ToolCallInterceptors } from '../tools/call-interceptors.js';
import { ToolExecutor } from '../tools/executor.js';
import { ToolRegistry } from '../tools/registry.js';
import type { CommandRunner, FileAccess } from '../tools/types.js';
import { ProtectedPaths } from '../workspace/protected.js';
import { RootSandbox } from '../workspace/root-sandbox.js';

export interface ToolRuntimeOptions {
  projectDir: string;
  /** `$GEEKAGENT_HOME` or `~/.geekagent`. */
  userDir: string;
  permissions: Pick<
    PermissionConfig,
    'root' | 'projectFetchAllow' | 'userFetchAllow' | 'userSandbox' | 'projectSandbox'
  >;
  /** HOME of the run: its credential folders are hidden from confined commands. */
  homeDir?: string;
  /** `--sandbox MODE` for this run. */
  sandboxMode?: SandboxMode;
  /** Absolute folders the file tools may use besides the root (an editor's additional directories). */
  extraRoots?: readonly string[];
  /** `--allow-protected` values, as given. */
  allowProtected?: readonly string[];
  policies: PolicyLookup;
  approver: Approver;
  /** The run's approval mode, shared by every executor (sub-agents inherit it). */
  mode?: ModeGate;
  redact: Redactor;
  env: NodeJS.ProcessEnv;
  /** Told the sandbox library's helper processes, so a SIGKILLed agent's reaper ends them too. */
  onHelperProcess?: (pid: number) => void;
  /** The face's file text I/O (an editor's buffers); default: the disk. */
  fileAccess?: FileAccess;
  /** The face's command runner (an editor's terminal); default: a child process. */
  commandRunner?: CommandRunner;
}

export interface ToolRuntime {
  readonly sandbox: RootSandbox;
  readonly undo: UndoStack;
  readonly registry: ToolRegistry;
  readonly executor: ToolExecutor;
  /** Confines `run_shell` (and whatever else runs commands); dispose it when the run ends. */
  readonly commandSandbox: CommandSandbox;
  readonly sandboxPolicy: SandboxPolicy;
  /** What a project's `sandbox` section asked for and may not have (it only narrows). */
  readonly sandboxNotices: string[];
  /** The fetch allow-list of both permission files (project first). */
  readonly fetchAllowHosts: string[];
  /** The hooks around each call, shared by every executor of the run (extensions add them). */
  readonly interceptors: ToolCallInterceptors;
  /**
   * An executor over another registry (a sub-agent's view) and approver, same rules otherwise
   * (`policies`: another view of them, such as one without skill pre-approvals).
   */
  executorFor(registry: ToolRegistry, approver: Approver, policies?: PolicyLookup): ToolExecutor;
}

export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const { projectDir, permissions, policies, redact, env } = options;
  const sandbox = new RootSandbox(permissions.root, options.extraRoots);
  const protectedPaths = new ProtectedPaths({
    projectDir,
    userStateDir: options.userDir,
    allowed: options.allowProtected,
  });
  // The person's own state, keyed by the folder: a repository's `.geekagent/undo.json` is never read.
  const undo = new UndoStack(undoFilePath(options.userDir, projectDir), {
    sandbox,
    protectedPaths,
    stateBase: options.userDir,
    projectDir,
  });
  const runMode = runSandboxMode(options.sandboxMode, env);
  const resolved = resolveSandboxPolicy(permissions.userSandbox, permissions.projectSandbox, runMode.mode);
  if (runMode.ignored) resolved.ignored.push(runMode.ignored);
  const commandSandbox = createCommandSandbox({
    policy: resolved.policy,
    root: permissions.root,
    home: options.homeDir ?? os.homedir(),
    userStateDir: options.userDir,
    stateDirs: [...new Set([path.join(projectDir, '.geekagent'), path.join(permissions.root, '.geekagent')])],
    env,
    ...(options.onHelperProcess ? { onHelperProcess: options.onHelperProcess } : {}),
  });
  const interceptors = new ToolCallInterceptors();
  const executorFor = (registry: ToolRegistry, approver: Approver, lookup: PolicyLookup = policies) =>
    new ToolExecutor({
      registry,
      policies: lookup,
      approver,
      ...(options.mode ? { mode: options.mode } : {}),
      redact,
      context: {
        sandbox,
        undo,
        env,
        redact,
        protectedPaths,
        commandSandbox,
        sandboxPolicy: resolved.policy,
        ...(options.fileAccess ? { fileAccess: options.fileAccess } : {}),
        ...(options.commandRunner ? { commandRunner: options.commandRunner } : {}),
      },
      interceptors,
    });
  const registry = new ToolRegistry();
  return {
    sandbox,
    undo,
    registry,
    executor: executorFor(registry, options.approver),
    commandSandbox,
    sandboxPolicy: resolved.policy,
    sandboxNotices:
      resolved.ignored.length > 0
        ? [`sandbox settings ignored (a project may only narrow the user's): ${resolved.ignored.join('; ')}`]
        : [],
    fetchAllowHosts: [...permissions.projectFetchAllow, ...permissions.userFetchAllow],
    interceptors,
    executorFor,
  };
}
