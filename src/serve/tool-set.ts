/**
 * The tools `geekagent mcp serve` offers, built for one project folder exactly as the agent builds
 * them: the built-in tools, memory and the knowledge base (through their extensions, so names,
 * schemas and default policies are the agent's), the layered policy store (the folder's rules only
 * as far as its trust allows, `--allow`/`--deny` on top), the root sandbox, protected paths, undo
 * and redaction — all behind the agent's ToolExecutor. Tools that need a conversation or a model
 * (todo_write, delegate_task) are not part of it.
 */
import path from 'node:path';
import { createToolRuntime } from '../app/tool-runtime.js';
import { readModelDotEnv, withDotEnvSettings } from '../config/dotenv.js';
import { userStateDir } from '../config/paths.js';
import { builtinToolsExtension } from '../extensions/builtin-tools.js';
import { ExtensionHost } from '../extensions/host.js';
import { createMemoryBank, memoryExtension, memoryTrustOptions } from '../extensions/memory.js';
import { ragExtension } from '../extensions/rag.js';
import { loadPermissionConfig } from '../permissions/config.js';
import { BUILTIN_POLICIES } from '../permissions/defaults.js';
import { policyLayers } from '../permissions/layers.js';
import { PolicyStore } from '../permissions/policy.js';
import { createRedactor } from '../permissions/redact.js';
import type { Approver } from '../permissions/types.js';
import { RagStore } from '../rag/store.js';
import type { SandboxMode } from '../sandbox/index.js';
import { createBuiltinTools } from '../tools/builtin/index.js';
import type { ToolExecutor } from '../tools/executor.js';
import type { Tool } from '../tools/types.js';
import { permissionsUnderTrust } from '../trust/apply.js';
import type { FolderTrust } from '../trust/decide.js';
import { checkStateDir } from '../util/state-dir.js';
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
  const projectDir = path.resolve(options.projectDir);
  await checkStateDir(projectDir);
  const userDir = userStateDir(options.env, options.homeDir);
  const trusted = options.trust.state === 'trusted';
  const permissions = permissionsUnderTrust(
    await loadPermissionConfig({ projectDir, homeDir: options.homeDir, userDir }),
    options.trust,
    projectDir,
  );
  const policies = new PolicyStore({
    layers: policyLayers(permissions, options),
    defaults: { ...BUILTIN_POLICIES },
    // No "always" answers here: an elicitation's yes holds for that one call.
  });
  // As in the agent: a trusted `.env`'s model key is a secret to hide in output, never tool env.
  const redact = createRedactor(withDotEnvSettings(options.env, trusted ? readModelDotEnv(projectDir) : {}));
  const { undo, registry, executor, fetchAllowHosts, commandSandbox, sandboxNotices } = createToolRuntime({
    projectDir,
    userDir,
    homeDir: options.homeDir,
    ...(options.sandboxMode ? { sandboxMode: options.sandboxMode } : {}),
    permissions,
    allowProtected: options.allowProtected,
    policies,
    approver: options.approver,
    redact,
    env: options.env,
  });
  const host = new ExtensionHost({ registry, policies });
  host.onNotice((message) => options.notice(message));
  for (const message of sandboxNotices) options.notice(message);
  // Said once on stderr, as the agent's start line: a shell that cannot be confined is asked.
  const status = commandSandbox.status;
  if (status.kind === 'unavailable')
    options.notice(
      `sandbox unavailable (${status.reason}): run_shell asks before every command. Fix: ${status.fix}`,
    );
  await host.add(
    builtinToolsExtension({ undo, tools: createBuiltinTools({ fetchAllowHosts }) }),
    memoryExtension(
      createMemoryBank({ projectDir, userDir, redact }),
      memoryTrustOptions(options.trust, projectDir),
    ),
    ragExtension({ store: new RagStore(projectDir), root: permissions.root, allowHosts: fetchAllowHosts }),
  );
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
