/**
 * The composition root: builds the object graph for one project folder (settings, permissions,
 * sandbox, undo, registry, executor, provider, conversation, agent) and the extensions every
 * feature plugs in through (built-in tools, AGENTS.md, MCP, sessions, compaction). Faces (print
 * mode, TUI) receive the finished App; nothing here talks to the terminal.
 */
import os from 'node:os';
import path from 'node:path';
import { Agent } from '../agent/agent.js';
import { Compactor } from '../agent/compaction.js';
import { Conversation } from '../agent/conversation.js';
import { resolveCompactionSettings } from '../config/compaction-settings.js';
import { readModelDotEnv, withDotEnvSettings } from '../config/dotenv.js';
import { resolveModelSettings, switchedModelSettings } from '../config/model-settings.js';
import { loadNamedModels } from '../config/named-models.js';
import { userStateDir } from '../config/paths.js';
import { customCommandsExtension } from '../custom-commands/extension.js';
import { approvalModeExtension } from '../extensions/approval-mode.js';
import { builtinToolsExtension } from '../extensions/builtin-tools.js';
import { compactionExtension } from '../extensions/compaction.js';
import { DeferredTools } from '../extensions/deferred-tools.js';
import { ExtensionHost } from '../extensions/host.js';
import { mcpExtension, waitForServers } from '../extensions/mcp.js';
import { createMemoryBank, memoryExtension, memoryTrustOptions } from '../extensions/memory.js';
import { ModelChoice, modelChoiceExtension } from '../extensions/model-choice.js';
import { projectInstructionsExtension } from '../extensions/project-instructions.js';
import { ragExtension } from '../extensions/rag.js';
import { sandboxExtension } from '../extensions/sandbox.js';
import { todoExtension } from '../extensions/todos.js';
import { describeDeferral, toolSearchExtension, toolSearchMode } from '../extensions/tool-search.js';
import { loadHooks } from '../hooks/config.js';
import { hooksExtension } from '../hooks/extension.js';
import type { McpManager } from '../mcp/manager.js';
import { mentionsExtension } from '../mentions/extension.js';
import { ApprovalMode, CLAUDE_MODE_NAMES } from '../permissions/approval-mode.js';
import { loadPermissionConfig, type PermissionConfig, saveAllowRule } from '../permissions/config.js';
import { BUILTIN_POLICIES } from '../permissions/defaults.js';
import { policyLayers } from '../permissions/layers.js';
import { mcpPinsFile, PinStore } from '../permissions/pins.js';
import { PolicyStore } from '../permissions/policy.js';
import { createRedactor } from '../permissions/redact.js';
import { promptCacheKeyMode } from '../providers/prompt-cache-key.js';
import { createProvider } from '../providers/registry.js';
import { RagStore } from '../rag/store.js';
import { sessionsExtension } from '../sessions/extension.js';
import { Sessions } from '../sessions/manager.js';
import { Rewinder } from '../sessions/rewind.js';
import { rewindExtension } from '../sessions/rewind-extension.js';
import { skillsExtension } from '../skills/extension.js';
import { loadAgents } from '../subagents/definitions.js';
import { agentLimits, agentsExtension } from '../subagents/extension.js';
import { createBuiltinTools } from '../tools/builtin/index.js';
import { permissionsUnderTrust } from '../trust/apply.js';
import { trustedByPerson } from '../trust/decide.js';
import { allowDeclaration } from '../trust/declarations.js';
import { checkStateDir } from '../util/state-dir.js';
import type { App, AppOptions } from './app.js';
import { createMcpManager, nonInteractiveFeatures, startSkillServers } from './create-mcp.js';
import { createToolRuntime } from './tool-runtime.js';

export type { App, AppOptions } from './app.js';

export async function createApp(options: AppOptions): Promise<App> {
  const projectDir = path.resolve(options.cwd);
  const homeDir = options.homeDir ?? os.homedir();
  const env = options.env;
  // A planted `.geekagent` link would aim every state and config write elsewhere: refuse it first.
  await checkStateDir(projectDir);
  // From the real environment only: a project's .env must not move the protected user folder.
  const userDir = userStateDir(env, homeDir);
  const trust = options.trust;
  const trusted = trust.state === 'trusted';
  // Only model settings, only when trusted, and into a copy: tools and servers never see `.env`.
  const settingsEnv = withDotEnvSettings(env, trusted ? readModelDotEnv(projectDir) : {});
  // The person's own file only (user state folder), never the project's.
  const named = await loadNamedModels(userDir);
  const notices: string[] = [];
  if (named.problem) notices.push(named.problem);
  const settings = resolveModelSettings(
    settingsEnv,
    { model: options.model, baseURL: options.baseURL, provider: options.provider },
    named.models,
  );
  const compaction = resolveCompactionSettings(settingsEnv);

  const permissions = permissionsUnderTrust(
    await loadPermissionConfig({ projectDir, homeDir, userDir }),
    trust,
    projectDir,
  );
  const policies = new PolicyStore({
    layers: policyLayers(permissions, options),
    defaults: { ...BUILTIN_POLICIES },
    persistAllow: async (rule) => {
      await saveAllowRule(permissions.projectFile, rule);
      // The person's own answer: a trusted folder stays trusted with it.
      if (trust.state === 'trusted')
        await trust.remember?.([allowDeclaration(permissions.projectFile, rule)]);
    },
    pins: new PinStore(mcpPinsFile(projectDir)),
  });
  const redact = createRedactor(settingsEnv);
  const approvalMode = new ApprovalMode({
    trustedByPerson: trustedByPerson(trust),
    // `mcp` is built below; this runs only when a tool is called.
    isReadOnlyMcp: (name) => readOnlyMcpTool(mcp, name),
  });
  notices.push(...startApprovalMode(approvalMode, options.approvalMode, permissions));
  const runtime = createToolRuntime({
    projectDir,
    userDir,
    homeDir,
    sandboxMode: options.sandboxMode,
    permissions,
    allowProtected: options.allowProtected,
    policies,
    approver: options.approver,
    mode: approvalMode,
    redact,
    env,
    onHelperProcess: (pid) => options.tracker.addProcess(pid),
    fileAccess: options.fileAccess,
    commandRunner: options.commandRunner,
  });
  const { sandbox, undo, registry, executor, fetchAllowHosts, executorFor } = runtime;

  const cacheKeyMode = promptCacheKeyMode(settingsEnv);
  if (cacheKeyMode.problem) notices.push(cacheKeyMode.problem);
  const providerOptions = { redact, promptCacheKey: cacheKeyMode.mode };
  // Everything gets the switchable provider: a `/model` switch reaches the agent, compaction,
  // sub-agents' default model and MCP sampling alike.
  const choice = new ModelChoice({
    env: settingsEnv,
    named,
    initial: settings,
    make: (chosen) => createProvider(chosen, providerOptions),
  });
  const provider = choice.provider;
  // The run's one command sandbox (the library is one per process): confined MCP servers run in it.
  const serverSandbox = runtime.commandSandbox;
  // Reads mcp.json now (a broken file stops start-up); servers connect when the face calls start().
  const mcp = await createMcpManager({
    sandbox: serverSandbox,
    projectDir,
    homeDir,
    userDir,
    projectTrusted: trusted,
    lazy: true,
    mcpConfig: options.mcpConfig,
    notice: (message) => notices.push(message),
    env,
    tracker: options.tracker,
    registry,
    policies,
    acceptsMedia: provider.acceptsMedia,
    redact,
    features: (options.features ?? (({ root }) => nonInteractiveFeatures(root, false)))({
      provider,
      root: permissions.root,
    }),
  });
  const conversation = new Conversation();
  const extensions = new ExtensionHost({ registry, policies, toolCalls: runtime.callHooks });
  const { sessions, opened } = await Sessions.create({
    projectDir,
    userDir,
    conversation,
    start: options.session ?? { kind: 'new' },
    notice: (message, kind) => extensions.notice(message, kind),
    // The person's own trust: a clone holding nothing but planted sessions "declares nothing".
    importProjectSessions: trustedByPerson(trust),
  });
  const toolSearch = toolSearchMode(settingsEnv);
  if (toolSearch.problem) notices.push(toolSearch.problem);
  const deferred = new DeferredTools(registry, toolSearch.mode, provider.contextWindow);
  const hooks = hooksExtension({
    loaded: await loadHooks({ userDir, projectDir, projectTrusted: trusted }),
    projectDir,
    env,
    tracker: options.tracker,
    session: () => ({ id: sessions.currentId, file: sessions.currentFile }),
    resumed: opened !== undefined,
    permissionMode: () => CLAUDE_MODE_NAMES[approvalMode.current],
  });
  // Order matters: hooks run in it (wait for MCP servers before measuring the request to compact).
  await extensions.add(
    // First: a UserPromptSubmit hook's block comes before any other work of the turn.
    hooks,
    builtinToolsExtension({ undo, tools: createBuiltinTools({ fetchAllowHosts }) }),
    projectInstructionsExtension({ cwd: projectDir, root: permissions.root, userDir, env }),
    memoryExtension(createMemoryBank({ projectDir, userDir, redact }), memoryTrustOptions(trust, projectDir)),
    ragExtension({ store: new RagStore(projectDir), root: permissions.root, allowHosts: fetchAllowHosts }),
    mcpExtension(mcp, {
      acceptsMedia: provider.acceptsMedia,
      trust,
      describeMore: () => describeDeferral(deferred),
    }),
    mentionsExtension(permissions.root, { projectDir, userDir, provider, redact, mcp }, options.images),
    toolSearchExtension({
      deferred,
      whenToolsReady: (signal, notify) => waitForServers(mcp, signal, notify),
    }),
    sessionsExtension(sessions),
    rewindExtension(new Rewinder({ conversation, sessions, undo })),
    modelChoiceExtension(choice, {
      conversation,
      explicit: options.model !== undefined || options.provider !== undefined,
    }),
    todoExtension(conversation),
    approvalModeExtension(approvalMode, options.approver),
    sandboxExtension({
      sandbox: runtime.commandSandbox,
      policy: runtime.sandboxPolicy,
      notices: runtime.sandboxNotices,
    }),
    agentsExtension(
      {
        registry,
        approver: options.approver,
        // A skill's pre-approvals are the main conversation's: a sub-agent's calls ask as usual.
        executorFor: (view, approver) => executorFor(view, approver, policies.withoutPreApproval()),
        providerFor: (model) =>
          model === undefined || model === choice.settings.model
            ? provider
            : // A models.json name brings its provider and endpoint; else a model id on the current one.
              createProvider(
                switchedModelSettings(settingsEnv, choice.settings, model, named.models),
                providerOptions,
              ),
        root: permissions.root,
        isReadOnlyMcp: (name) => readOnlyMcpTool(mcp, name),
        beforeRequestFor: (provider) => extensions.subAgentBeforeRequest({ provider }),
        beforeStopFor: (agent) => extensions.subAgentBeforeStop(agent),
        transcriptFor: (runId) => sessions.childTranscript(runId),
        transcripts: {
          list: () => sessions.childRuns(),
          show: (runId) => sessions.childTranscriptText(runId),
        },
      },
      await loadAgents({
        // A cloned repository's agents choose tools and instructions: only in a trusted folder.
        project: trusted ? path.join(projectDir, '.geekagent', 'agents') : undefined,
        user: path.join(userDir, 'agents'),
      }),
      agentLimits(env),
    ),
    compactionExtension(
      new Compactor({
        provider,
        // Read at each check: a switch brings its model's window.
        get contextWindow() {
          return provider.contextWindow;
        },
        settings: compaction,
        before: (trigger, focus, signal) => hooks.preCompact(trigger, focus, signal),
      }),
      conversation,
    ),
    // Last: a skill's `/<name>` command takes only a name no other extension's command has.
    skillsExtension({
      cwd: projectDir,
      projectDir,
      userDir,
      homeDir,
      projectTrusted: trusted,
      contextWindow: provider.contextWindow,
      conversation,
      session: sessions,
      policies,
      startServers: async (skill) => {
        // Strict means these servers and no others, as Claude Code's flag: a skill's own too.
        if (options.mcpConfig?.strict)
          throw new Error(
            `the servers of its mcp.json are not started: --strict-mcp-config uses only --mcp-config servers`,
          );
        return startSkillServers({
          file: skill.mcpFile,
          skillDir: skill.dir,
          source: skill.source,
          projectDir,
          userDir,
          env,
          tracker: options.tracker,
          registry,
          policies,
          acceptsMedia: provider.acceptsMedia,
          redact,
          sandbox: serverSandbox,
          homeDir,
        });
      },
      initial: options.skills,
    }),
    // After skills: a custom command never takes a name a built-in or skill command has.
    customCommandsExtension({
      projectDir,
      userDir,
      homeDir,
      projectTrusted: trusted,
      root: permissions.root,
      policies,
      models: choice,
      executor,
    }),
  );
  extensions.seal();
  const agent = new Agent({
    provider,
    registry,
    executor,
    conversation,
    root: permissions.root,
    hooks: extensions.hooks,
    // The session id: one prompt cache per session (a sub-agent run has its own key).
    cacheKey: () => sessions.currentId,
  });

  let shutdown: Promise<void> | undefined;
  return {
    projectDir,
    homeDir,
    userDir,
    trust,
    notices,
    get settings() {
      return choice.settings;
    },
    permissions,
    policies,
    approvalMode,
    sandbox,
    undo,
    redact,
    registry,
    executor,
    provider,
    conversation,
    agent,
    mcp,
    extensions,
    sessions,
    opened,
    shutdown: () => {
      shutdown ??= Promise.all([extensions.dispose(), policies.flush()]).then(() => undefined);
      return shutdown;
    },
  };
}

/**
 * The first mode: `--approval-mode`, else the user's `approvalMode`, else default. A refused one
 * (bypass in a folder the person has not trusted) falls back and says so; a project's is ignored.
 */
function startApprovalMode(
  mode: ApprovalMode,
  flag: string | undefined,
  permissions: PermissionConfig,
): string[] {
  const notices: string[] = [];
  if (permissions.projectApprovalMode !== undefined)
    notices.push(
      `"approvalMode" in ${permissions.projectFile} is ignored: the approval mode is the person's choice (--approval-mode, /mode, or ~/.geekagent/GeekAgent.json)`,
    );
  const refusals = new Set<string>();
  for (const wanted of [flag, permissions.userApprovalMode]) {
    if (wanted === undefined) continue;
    const refused = mode.set(wanted);
    if (!refused) break;
    refusals.add(refused);
  }
  for (const refused of refusals) notices.push(`${refused}; running in ${mode.current} mode`);
  return notices;
}

/** An MCP tool whose server marked it `readOnlyHint: true` (the default agent may use it). */
function readOnlyMcpTool(mcp: McpManager, name: string): boolean {
  for (const status of mcp.statuses()) {
    // An idle (lazy) server's cached listing counts too: its tools start the server on first use.
    if (status.state.state !== 'connected' && status.state.state !== 'idle') continue;
    const tool = status.state.tools.find((info) => info.modelName === name);
    if (tool)
      return (tool.definition.annotations as { readOnlyHint?: unknown } | undefined)?.readOnlyHint === true;
  }
  return false;
}
