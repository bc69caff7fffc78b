/**
 * The composition root: from the shared bootstrap (boot/bootstrap.ts: folder, permissions,
 * policies, redaction, tool runtime, host), builds the rest of the object graph for one project
 * folder (model settings, approval mode, provider, MCP, conversation, sessions, agent) and lists
 * the extensions every feature plugs in through; they declare their own order. Faces (print mode,
 * TUI, ACP) receive the finished App; nothing here talks to the terminal.
 */
import os from 'node:os';
import path from 'node:path';
import { Agent } from '../agent/agent.js';
import { Compactor } from '../agent/compaction.js';
import { resolveCompactionSettings } from '../agent/compaction-settings.js';
import { Conversation } from '../agent/conversation.js';
import { compactionExtension } from '../agent/feature/compaction.js';
import { bootTools, openFolder } from '../boot/bootstrap.js';
import { TRUST_CONTRIBUTORS } from '../boot/trust-contributors.js';
import { resolveModelSettings, switchedModelSettings } from '../config/model-settings.js';
import { loadNamedModels } from '../config/named-models.js';
import { customCommandsExtension } from '../custom-commands/extension.js';
import { loadHooks, withCodeHooks } from '../hooks/config.js';
import { hooksExtension } from '../hooks/extension.js';
import { mcpExtension } from '../mcp/feature/extension.js';
import { readOnlyMcpTool } from '../mcp/read-only.js';
import { StartGrace, startGraceMs } from '../mcp/start-grace.js';
import { mentionsExtension } from '../mentions/extension.js';
import { ModelChoice, modelChoiceExtension } from '../model-choice/extension.js';
import { ApprovalMode, CLAUDE_MODE_NAMES } from '../permissions/approval-mode.js';
import { approvalModeExtension, startApprovalMode } from '../permissions/feature/approval-mode.js';
import { pluginsExtension } from '../plugins/feature/extension.js';
import {
  loadPlugins,
  pluginAgentFiles,
  pluginCommands,
  pluginHooks,
  pluginServers,
  pluginSkillFolders,
} from '../plugins/load.js';
import { projectInstructionsExtension } from '../project-instructions/extension.js';
import { promptCacheKeyMode } from '../providers/prompt-cache-key.js';
import { createProvider } from '../providers/registry.js';
import { sandboxExtension } from '../sandbox/feature/extension.js';
import { sessionsExtension } from '../sessions/extension.js';
import { Sessions } from '../sessions/manager.js';
import { Rewinder } from '../sessions/rewind.js';
import { rewindExtension } from '../sessions/rewind-extension.js';
import { skillsExtension } from '../skills/extension.js';
import { loadAgents } from '../subagents/definitions.js';
import { agentLimits, agentsExtension } from '../subagents/extension.js';
import { todoExtension } from '../todos/extension.js';
import { DeferredTools } from '../tool-search/deferred-tools.js';
import { describeDeferral, toolSearchExtension, toolSearchMode } from '../tool-search/feature/extension.js';
import { ShellLog, shellLogDir } from '../tools/background/log-file.js';
import { BackgroundShells } from '../tools/background/shells.js';
import { backgroundShellsExtension } from '../tools/feature/background-shells.js';
import { trustedByPerson } from '../trust/decide.js';
import { trustExtension } from '../trust/feature/extension.js';
import { ReloadTrust } from '../trust/reload.js';
import { extraRootsExtension } from '../workspace/feature/extra-roots.js';
import type { App, AppOptions } from './app.js';
import { createMcpManager, nonInteractiveFeatures, startSkillServers } from './create-mcp.js';
import { mcpServerSkills } from './server-skills.js';

export type { App, AppOptions } from './app.js';

export async function createApp(options: AppOptions): Promise<App> {
  const folder = await openFolder({ ...options, homeDir: options.homeDir ?? os.homedir() });
  const { projectDir, homeDir, userDir, env, trust, trusted } = folder;
  const settingsEnv = folder.envSettings.env;
  // The person's own file only (user state folder), never the project's.
  const named = await loadNamedModels(userDir, folder.settingsFiles);
  const notices: string[] = [];
  if (named.problem) notices.push(named.problem);
  const settings = resolveModelSettings(
    settingsEnv,
    { model: options.model, baseURL: options.baseURL, provider: options.provider },
    named.models,
    named.file,
  );
  const compaction = resolveCompactionSettings(settingsEnv);
  // The session's background shells: tracked like servers (the reaper covers a killed agent).
  const shells = new BackgroundShells({
    tracker: options.tracker,
    openLog: (id) => ShellLog.create(userDir, shellLogDir(userDir, projectDir), id),
  });

  const approvalMode = new ApprovalMode({
    trustedByPerson: trustedByPerson(trust),
    // `mcp` is built below; this runs only when a tool is called.
    isReadOnlyMcp: (name) => readOnlyMcpTool(mcp, name),
  });
  const {
    permissions,
    policies,
    redact,
    runtime,
    host: extensions,
    toolExtensions,
  } = await bootTools(folder, {
    ...options,
    remember: true,
    mode: approvalMode,
    onHelperProcess: (pid) => options.tracker.addProcess(pid),
    backgroundShells: shells,
    processGroups: options.tracker,
  });
  notices.push(...startApprovalMode(approvalMode, options.approvalMode, permissions));
  const { undo, registry, executor, executorFor } = runtime;

  const cacheKeyMode = promptCacheKeyMode(settingsEnv);
  if (cacheKeyMode.problem) notices.push(cacheKeyMode.problem);
  const providerOptions = { redact, promptCacheKey: cacheKeyMode.mode };
  // Everything gets the switchable provider: a `/model` switch reaches the agent, compaction,
  // sub-agents' default model and MCP sampling alike.
  const choice = new ModelChoice({
    env: settingsEnv,
    named,
    reload: () => loadNamedModels(userDir),
    initial: settings,
    make: (chosen) => createProvider(chosen, providerOptions),
  });
  const provider = choice.provider;
  // The run's one command sandbox (the library is one per process): confined MCP servers run in it.
  const serverSandbox = runtime.commandSandbox;
  // The person's installed plugins, and a trusted project's plugins.json: their parts join the features.
  const plugins = await loadPlugins({ userDir, projectDir, projectTrusted: trusted });
  // Reads mcp.json now (a broken file stops start-up); servers connect when the face calls start().
  const mcp = await createMcpManager({
    pluginServers: pluginServers(plugins),
    sandbox: serverSandbox,
    projectDir,
    homeDir,
    userDir,
    projectTrusted: trusted,
    files: folder.settingsFiles,
    lazy: true,
    mcpConfig: options.mcpConfig,
    inProcess: options.inProcessMcp,
    notice: (message) => notices.push(message),
    env,
    tracker: options.tracker,
    acceptsMedia: provider.acceptsMedia,
    redact,
    features: (options.features ?? (({ root }) => nonInteractiveFeatures(root, false)))({
      provider,
      root: permissions.root,
    }),
  });
  const conversation = new Conversation();
  // A reload's new or changed project commands and skills wait for the person's trust, as at start.
  const reloadTrust = new ReloadTrust({
    trust,
    env,
    homeDir,
    ask: options.askTrust,
    contributors: TRUST_CONTRIBUTORS,
  });
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
  const graceMs = startGraceMs(settingsEnv);
  if (graceMs.problem) notices.push(graceMs.problem);
  const grace = new StartGrace(mcp, graceMs.ms);
  deferred.lateServers(() => grace.late());
  const hooks = hooksExtension({
    loaded: withCodeHooks(
      await loadHooks({
        userDir,
        projectDir,
        projectTrusted: trusted,
        pluginHooks: pluginHooks(plugins),
        files: folder.settingsFiles,
      }),
      options.hooks,
    ),
    projectDir,
    env,
    tracker: options.tracker,
    session: () => ({ id: sessions.currentId, file: sessions.currentFile }),
    resumed: opened !== undefined,
    permissionMode: () => CLAUDE_MODE_NAMES[approvalMode.current],
  });
  // Hooks run in setup order, which each extension declares (`after` / `before`: hooks first, tool
  // search and compaction after MCP, skills then custom commands last), not this list's order.
  await extensions.add(
    hooks,
    toolExtensions.builtinTools,
    projectInstructionsExtension({ cwd: projectDir, root: permissions.root, userDir, env }),
    toolExtensions.memory,
    toolExtensions.rag,
    mcpExtension(mcp, {
      acceptsMedia: provider.acceptsMedia,
      trust,
      describeMore: () => describeDeferral(deferred),
      grace,
    }),
    mentionsExtension(permissions.root, { projectDir, userDir, provider, redact, mcp }, options.images),
    toolSearchExtension({
      deferred,
      whenToolsReady: (signal) => grace.wait(signal),
      whenAllStarted: (signal) => grace.all(signal),
    }),
    sessionsExtension(sessions),
    rewindExtension(new Rewinder({ conversation, sessions, undo })),
    modelChoiceExtension(choice, {
      conversation,
      explicit: options.model !== undefined || options.provider !== undefined,
    }),
    todoExtension(conversation),
    backgroundShellsExtension(shells),
    approvalModeExtension(approvalMode, options.approver),
    pluginsExtension(plugins),
    trustExtension({
      trust,
      projectDir,
      env,
      homeDir,
      ask: options.askTrust,
      onTrusted: options.onTrusted,
      contributors: TRUST_CONTRIBUTORS,
    }),
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
                switchedModelSettings(settingsEnv, choice.settings, model, named.models, named.file),
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
        plugins: pluginAgentFiles(plugins),
      }),
      agentLimits(env),
    ),
    compactionExtension(
      (before) =>
        new Compactor({
          provider,
          // Read at each check: a switch brings its model's window.
          get contextWindow() {
            return provider.contextWindow;
          },
          settings: compaction,
          before,
        }),
      conversation,
    ),
    skillsExtension({
      cwd: projectDir,
      projectDir,
      userDir,
      homeDir,
      projectTrusted: trusted,
      pluginSkills: pluginSkillFolders(plugins),
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
        // The run's one manager: `/mcp`, the panel and the read-only check see the skill's servers.
        return startSkillServers({
          manager: mcp,
          skill: skill.name,
          file: skill.mcpFile,
          skillDir: skill.dir,
          source: skill.source,
          projectDir,
          userDir,
          env,
          homeDir,
          files: folder.settingsFiles,
        });
      },
      initial: options.skills,
      reloadTrust,
      serverSkills: mcpServerSkills(mcp, trusted, grace),
      grace,
    }),
    customCommandsExtension({
      projectDir,
      userDir,
      homeDir,
      projectTrusted: trusted,
      plugins: pluginCommands(plugins),
      root: permissions.root,
      policies,
      models: choice,
      executor,
      reloadTrust,
    }),
  );
  if (options.extraRoots && options.extraRoots.length > 0)
    await extensions.add(extraRootsExtension(options.extraRoots));
  extensions.seal();
  const agent = new Agent({
    provider,
    registry,
    executor,
    conversation,
    root: permissions.root,
    turnPoints: extensions.turnPoints,
    // The session id: one prompt cache per session (a sub-agent run has its own key).
    cacheKey: () => sessions.currentId,
  });

  let shutdown: Promise<void> | undefined;
  return {
    projectDir,
    userDir,
    notices,
    get settings() {
      return choice.settings;
    },
    root: permissions.root,
    approvalMode,
    sandbox: runtime.sandbox,
    registry,
    provider,
    conversation,
    agent,
    mcp,
    extensions,
    sessions,
    backgroundShells: shells,
    opened,
    shutdown: () => {
      shutdown ??= Promise.all([extensions.dispose(), policies.flush()]).then(() => undefined);
      return shutdown;
    },
  };
}
