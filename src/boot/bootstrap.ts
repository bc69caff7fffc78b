/**
 * The one bootstrap of a project folder, shared by the agent (app/create-app.ts) and `geekagent
 * mcp serve` (serve/tool-set.ts). It builds the parts in layer order, each from what it needs:
 * `decideFolderTrust` (folder-trust.ts: the run's one trust decision, which every command that
 * reads a project's files comes through), `openFolder` (the `.geekagent` check, the user state folder, trust, the
 * settings model: the run's file reads and the settings environment with its sources),
 * then `bootTools` (permissions under trust → policies → redaction → the tool runtime → the
 * extension host and the tool extensions both offer). What differs between the two is an option:
 * the agent remembers "always" answers and pins MCP definitions, `mcp serve` does neither.
 */
import path from 'node:path';
import { DOTENV_FILE, readModelDotEnv } from '../config/dotenv.js';
import { userStateDir } from '../config/paths.js';
import { ExtensionHost } from '../extensions/host.js';
import type { Extension } from '../extensions/types.js';
import { createMemoryBank, memoryExtension, memoryTrustOptions } from '../memory/feature/extension.js';
import { saveAnswer } from '../permissions/answers-file.js';
import { loadPermissionConfig, type PermissionConfig } from '../permissions/config.js';
import { BUILTIN_POLICIES } from '../permissions/defaults.js';
import { policyLayers } from '../permissions/layers.js';
import { mcpPinsPlaces, PinStore } from '../permissions/pins.js';
import { PolicyStore } from '../permissions/policy.js';
import { createRedactor, type Redactor } from '../permissions/redact.js';
import { ragExtension } from '../rag/feature/extension.js';
import { RagStore } from '../rag/store.js';
import { type EnvSettings, envSettings } from '../settings/env.js';
import { SettingsFiles } from '../settings/files.js';
import type { BackgroundShells } from '../tools/background/shells.js';
import { createBuiltinTools } from '../tools/builtin/index.js';
import type { ProcessGroups } from '../tools/builtin/shell.js';
import { builtinToolsExtension } from '../tools/feature/builtin-tools.js';
import { permissionsUnderTrust } from '../trust/apply.js';
import type { FolderTrust } from '../trust/decide.js';
import { checkStateDir } from '../util/state-dir.js';
import { createToolRuntime, type ToolRuntime, type ToolRuntimeOptions } from './tool-runtime.js';

export interface Folder {
  readonly projectDir: string;
  readonly homeDir: string;
  /** `$GEEKAGENT_HOME` or `~/.geekagent`, from the real environment only. */
  readonly userDir: string;
  /** The real environment: tools and servers inherit it. */
  readonly env: NodeJS.ProcessEnv;
  readonly trust: FolderTrust;
  readonly trusted: boolean;
  /**
   * The real environment plus a trusted `.env`'s model settings (`env`: for settings and redaction
   * only), with where each variable came from (`source`).
   */
  readonly envSettings: EnvSettings;
  /** The run's settings reads: each settings file is read and parsed once (settings/files.ts). */
  readonly settingsFiles: SettingsFiles;
}

/** The folder a run works in: refused when its `.geekagent` is planted; the `.env` read only when trusted. */
export async function openFolder(options: {
  cwd: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  trust: FolderTrust;
}): Promise<Folder> {
  const projectDir = path.resolve(options.cwd);
  // A planted `.geekagent` link would aim every state and config write elsewhere: refuse it first.
  await checkStateDir(projectDir);
  const trusted = options.trust.state === 'trusted';
  // Only model settings, only when trusted, and into a copy: tools and servers never see `.env`.
  const env = envSettings(
    options.env,
    trusted ? { file: path.join(projectDir, DOTENV_FILE), values: readModelDotEnv(projectDir) } : undefined,
  );
  return {
    projectDir,
    homeDir: options.homeDir,
    // From the real environment only: a project's .env must not move the protected user folder.
    userDir: userStateDir(options.env, options.homeDir),
    env: options.env,
    trust: options.trust,
    trusted,
    envSettings: env,
    // The reads trust was decided on, when it was decided for this run: each file read once.
    settingsFiles: options.trust.files ?? new SettingsFiles(),
  };
}

export interface BootToolsOptions
  extends Pick<
    ToolRuntimeOptions,
    | 'sandboxMode'
    | 'extraRoots'
    | 'allowProtected'
    | 'approver'
    | 'mode'
    | 'onHelperProcess'
    | 'fileAccess'
    | 'commandRunner'
  > {
  /** `--allow` / `--deny` patterns: a cli layer above the config files (a deny anywhere still wins). */
  allow?: readonly string[];
  deny?: readonly string[];
  /**
   * The agent: an "always" answer is saved to the person's answers for this folder (in their own
   * state, permissions/answers-file.ts) and MCP definitions are checked against their pins. Left out (`mcp serve`):
   * an answer holds for its one call.
   */
  remember?: boolean;
  /** The session's background shells (the agent's faces; `mcp serve` has none). */
  backgroundShells?: BackgroundShells;
  /** The run's process tracker: run_shell lists each command's group while it runs. */
  processGroups?: ProcessGroups;
}

export interface BootedTools {
  readonly permissions: PermissionConfig;
  readonly policies: PolicyStore;
  readonly redact: Redactor;
  readonly runtime: ToolRuntime;
  readonly host: ExtensionHost;
  /** Built-in tools, memory and the knowledge base: for the caller's extension list (in this order). */
  readonly toolExtensions: {
    readonly builtinTools: Extension;
    readonly memory: Extension;
    readonly rag: Extension;
  };
}

export async function bootTools(folder: Folder, options: BootToolsOptions): Promise<BootedTools> {
  const { projectDir, homeDir, userDir, trust, env } = folder;
  const permissions = permissionsUnderTrust(
    await loadPermissionConfig({ projectDir, homeDir, userDir, files: folder.settingsFiles }),
    trust,
    projectDir,
  );
  const policies = new PolicyStore({
    layers: policyLayers(permissions, options),
    defaults: { ...BUILTIN_POLICIES },
    ...(options.remember
      ? {
          // The person's own answer, in their own state: nothing is written into the folder.
          persistAllow: (rule: string) => saveAnswer(userDir, permissions.answersFile, rule),
          persistDeny: (rule: string) => saveAnswer(userDir, permissions.answersFile, rule, 'deny'),
          pins: new PinStore(mcpPinsPlaces(projectDir, userDir)),
        }
      : {}),
  });
  // A trusted `.env`'s model key is a secret to hide in output, never tool env.
  const redact = createRedactor(folder.envSettings.env);
  const runtime = createToolRuntime({
    projectDir,
    userDir,
    homeDir,
    ...(options.sandboxMode ? { sandboxMode: options.sandboxMode } : {}),
    ...(options.extraRoots ? { extraRoots: options.extraRoots } : {}),
    permissions,
    allowProtected: options.allowProtected,
    policies,
    approver: options.approver,
    mode: options.mode,
    redact,
    env,
    onHelperProcess: options.onHelperProcess,
    fileAccess: options.fileAccess,
    commandRunner: options.commandRunner,
  });
  const host = new ExtensionHost({ registry: runtime.registry, policies, toolCalls: runtime.interceptors });
  const { undo, fetchAllowHosts } = runtime;
  const toolExtensions = {
    builtinTools: builtinToolsExtension({
      undo,
      tools: createBuiltinTools({
        fetchAllowHosts,
        background: options.backgroundShells,
        groups: options.processGroups,
      }),
    }),
    memory: memoryExtension(
      createMemoryBank({ projectDir, userDir, redact }),
      memoryTrustOptions(trust, projectDir),
    ),
    rag: ragExtension({
      store: new RagStore(projectDir),
      root: permissions.root,
      allowHosts: fetchAllowHosts,
    }),
  };
  return { permissions, policies, redact, runtime, host, toolExtensions };
}
