/**
 * Lifecycle hooks as an extension: PreToolUse / PostToolUse around every tool call (sub-agents'
 * too) through the seam's `toolCall`, UserPromptSubmit and SessionStart's context as a turn prompt
 * section (a block ends the turn before anything is sent), Stop / SubagentStop through the seam's
 * `stop`, Notification when a question waits and when a turn ends, SessionEnd on dispose,
 * PreCompact through the seam's `beforeCompact`. `/hooks` lists them with their last
 * result. The engine (engine.ts) runs the commands.
 */
import type { SlashCommand } from '../commands/types.js';
import type { HookEvent } from '../config/hook-settings.js';
import { type Extension, PROMPT_ORDER } from '../extensions/types.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import type { ToolCallInterceptor } from '../tools/call-interceptors.js';
import { outputToText } from '../tools/types.js';
import { visible, visibleLine } from '../util/terminal-text.js';
import type { LoadedHooks } from './config.js';
import { HookEngine } from './engine.js';
import { toolNames } from './matching.js';

export interface HooksExtensionOptions {
  loaded: LoadedHooks;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  tracker: ProcessGroupTracker;
  /** The current session: its id and file, for every hook's stdin. */
  session(): { id: string; file: string };
  /** The run continues a saved session (SessionStart's `source: "resume"`). */
  resumed: boolean;
  /** The approval mode now, in Claude Code's words (`default`, `acceptEdits`, `plan`, `bypassPermissions`). */
  permissionMode?: () => string;
}

const BLOCKED_PROMPT = 'prompt blocked by a UserPromptSubmit hook';

/** Every other extension with a prompt section: the hooks' section runs before theirs. */
const HOOKS_BEFORE = [
  'project-instructions',
  'memory',
  'tool-search',
  'todos',
  'approval-mode',
  'skills',
  'custom-commands',
] as const;

export function hooksExtension(options: HooksExtensionOptions): Extension {
  // Hooks outside a turn (Notification, SessionStart) end with the run.
  const background = new AbortController();
  let engine: HookEngine | undefined;
  let sessionStart: Promise<string[]> | undefined;
  let firstTurn = true;

  const startSession = (): Promise<string[]> => {
    sessionStart ??= engine?.has('SessionStart')
      ? engine
          .run(
            'SessionStart',
            { source: options.resumed ? 'resume' : 'startup' },
            { signal: background.signal, targets: [options.resumed ? 'resume' : 'startup'] },
          )
          .then((outcome) => outcome.context)
      : Promise.resolve([]);
    return sessionStart;
  };
  const notify = (message: string, type: string) => {
    if (!engine?.has('Notification')) return;
    void engine.run(
      'Notification',
      { message, notification_type: type },
      { signal: background.signal, targets: [type] },
    );
  };

  return {
    name: 'hooks',
    // A UserPromptSubmit hook's block comes before any other work of the turn (every other prompt section).
    before: HOOKS_BEFORE,
    setup(host) {
      if (options.loaded.hooks.length === 0) {
        for (const problem of options.loaded.problems) host.notice(problem, 'error');
        host.commands.add(hooksCommand(undefined));
        return;
      }
      const run = new HookEngine(options.loaded.hooks, {
        cwd: options.projectDir,
        env: options.env,
        tracker: options.tracker,
        notice: (message) => host.notice(message, 'error'),
        common: () => {
          const session = options.session();
          return {
            session_id: session.id,
            transcript_path: session.file,
            permission_mode: options.permissionMode?.() ?? 'default',
          };
        },
      });
      engine = run;
      for (const problem of options.loaded.problems) host.notice(problem, 'error');
      host.commands.add(hooksCommand(run));
      host.on.toolCall(toolCallHook(run, notify));
      host.on.beforeCompact(async (trigger, focus, signal) => {
        if (!run.has('PreCompact')) return;
        const kind = trigger === 'manual' ? 'manual' : 'auto';
        await run.run(
          'PreCompact',
          { trigger: kind, custom_instructions: focus ?? '' },
          { signal, targets: [kind] },
        );
      });
      host.on.prompt(async (turn) => {
        const context = firstTurn ? [...(await startSession())] : [];
        firstTurn = false;
        if (run.has('UserPromptSubmit')) {
          const outcome = await run.run('UserPromptSubmit', { prompt: turn.input }, { signal: turn.signal });
          const blocked = outcome.block ?? outcome.halt;
          if (blocked !== undefined)
            throw new Error(blocked === '' ? BLOCKED_PROMPT : `${BLOCKED_PROMPT}: ${visibleLine(blocked)}`);
          context.push(...outcome.context);
        }
        if (context.length === 0) return undefined;
        return { order: PROMPT_ORDER.hooks, placement: 'turn', text: context.join('\n\n') };
      });
      host.on.stop(
        async (stop) => {
          const event: HookEvent = stop.subAgent === undefined ? 'Stop' : 'SubagentStop';
          let more: string | undefined;
          if (run.has(event)) {
            const outcome = await run.run(
              event,
              {
                stop_hook_active: stop.continued,
                last_assistant_message: stop.answer,
                ...(stop.subAgent !== undefined ? { agent_type: stop.subAgent } : {}),
              },
              { signal: stop.signal },
            );
            // `continue: false` lets the turn end whatever a block says.
            if (outcome.block !== undefined && outcome.halt === undefined)
              more = outcome.block === '' ? `(a ${event} hook asks you to go on)` : outcome.block;
          }
          if (more === undefined && stop.subAgent === undefined)
            notify('GeekAgent is waiting for your input', 'idle_prompt');
          return more;
        },
        { subAgents: true },
      );
    },
    start() {
      void startSession();
    },
    async dispose() {
      const run = engine;
      if (run?.has('SessionEnd')) {
        await run.run('SessionEnd', { reason: 'exit' }, { signal: background.signal });
      }
      background.abort();
    },
  };
}

function toolCallHook(run: HookEngine, notify: (message: string, type: string) => void): ToolCallInterceptor {
  return {
    before: async ({ tool, args, callId }, signal) => {
      if (!run.has('PreToolUse')) return undefined;
      const outcome = await run.run(
        'PreToolUse',
        { tool_name: tool.name, tool_input: args, tool_use_id: callId },
        { signal, targets: toolNames(tool) },
      );
      const blocked = outcome.block ?? outcome.halt;
      if (blocked !== undefined)
        return {
          decision: 'deny',
          reason: `blocked by a PreToolUse hook: ${blocked === '' ? 'no reason given' : blocked}`,
        };
      if (outcome.permission === 'deny')
        return {
          decision: 'deny',
          reason: `denied by a PreToolUse hook: ${outcome.permissionReason ?? 'no reason given'}`,
        };
      if (outcome.permission) return { decision: outcome.permission, reason: outcome.permissionReason };
      return undefined;
    },
    after: async ({ tool, args, callId }, done, signal) => {
      if (!run.has('PostToolUse')) return undefined;
      const outcome = await run.run(
        'PostToolUse',
        {
          tool_name: tool.name,
          tool_input: args,
          tool_use_id: callId,
          tool_response: outputToText(done.output),
          is_error: done.isError,
        },
        { signal, targets: toolNames(tool) },
      );
      const notes = [
        ...(outcome.block !== undefined ? [`PostToolUse hook: ${outcome.block || 'blocked'}`] : []),
        ...outcome.context,
      ];
      return notes.length > 0 ? notes.join('\n') : undefined;
    },
    asking: ({ tool }) => notify(`GeekAgent needs your permission to use ${tool.name}`, 'permission_prompt'),
  };
}

function hooksCommand(run: HookEngine | undefined): SlashCommand {
  return {
    name: 'hooks',
    usage: '/hooks',
    description: 'list the lifecycle hooks (event, matcher, command, user/project) with their last result',
    run: async (_args, ctx) => {
      const hooks = run?.hooks ?? [];
      if (hooks.length === 0)
        return ctx.print(
          '(no hooks: add "hooks" to GeekAgent.json, see docs/skills-commands-hooks.md, Hooks)',
        );
      const lines = hooks.map((hook) =>
        [
          hook.event,
          hook.matcher === '' ? '*' : visibleLine(hook.matcher),
          visibleLine(hook.command),
          `(${hook.source}, ${hook.timeoutSeconds} s)`,
          `last: ${hook.last ?? 'not run yet'}`,
        ].join('  '),
      );
      ctx.print(visible(lines.join('\n')));
    },
  };
}
