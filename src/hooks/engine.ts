/**
 * The run's configured hooks: which apply to an event (by matcher), running them all at once with
 * their timeouts, combining what they say, keeping each one's last result for `/hooks`, and
 * reporting problems (a failed start, a timeout, an unknown exit code) as notices. A hook never
 * throws into the agent and never holds it past its timeout or its turn's cancel.
 */
import type { HookEvent, HookSetting } from '../config/hook-settings.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import { visibleLine } from '../util/terminal-text.js';
import { compileMatcher, type Matcher } from './matching.js';
import { type HookReply, readReply } from './output.js';
import { runHookCommand } from './run-command.js';

export interface ConfiguredHook extends HookSetting {
  source: 'user' | 'project';
  match: Matcher;
  /** The last run: `exit 0 (12 ms)`, `exit 2: blocked`, `timed out after 1 s`. */
  last?: string;
}

export interface EventOutcome {
  /** A hook blocked (exit 2, `decision: "block"`): the reasons, joined. */
  block?: string;
  /** A hook said `continue: false`: its `stopReason`s, joined. */
  halt?: string;
  permission?: 'allow' | 'deny' | 'ask';
  permissionReason?: string;
  context: string[];
}

export interface EngineDeps {
  cwd: string;
  env: NodeJS.ProcessEnv;
  tracker: ProcessGroupTracker;
  notice(message: string): void;
  /** The fields every hook's stdin starts with (session id, transcript path). */
  common(): Record<string, unknown>;
}

export function configure(
  settings: readonly HookSetting[],
  source: ConfiguredHook['source'],
): ConfiguredHook[] {
  return settings.map((setting) => ({ ...setting, source, match: compileMatcher(setting.matcher) }));
}

export class HookEngine {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly hooks: readonly ConfiguredHook[],
    private readonly deps: EngineDeps,
  ) {
    // Claude Code's variable, so its scripts' `$CLAUDE_PROJECT_DIR/...` paths work unchanged.
    this.env = { ...deps.env, GEEKAGENT_PROJECT_DIR: deps.cwd, CLAUDE_PROJECT_DIR: deps.cwd };
  }

  has(event: HookEvent): boolean {
    return this.hooks.some((hook) => hook.event === event);
  }

  /**
   * Runs the event's hooks whose matcher takes one of `targets` (none given: every hook of the
   * event) with `fields` on stdin, all at once, and combines their replies: any deny or block wins.
   */
  async run(
    event: HookEvent,
    fields: Record<string, unknown>,
    options: { signal: AbortSignal; targets?: readonly string[] },
  ): Promise<EventOutcome> {
    const { targets } = options;
    const chosen = this.hooks.filter(
      (hook) => hook.event === event && (targets === undefined || hook.match(targets)),
    );
    if (chosen.length === 0) return { context: [] };
    const input = { ...this.deps.common(), cwd: this.deps.cwd, hook_event_name: event, ...fields };
    const replies = await Promise.all(chosen.map((hook) => this.runOne(hook, input, options.signal)));
    return combine(replies);
  }

  private async runOne(hook: ConfiguredHook, input: unknown, signal: AbortSignal): Promise<HookReply> {
    const run = await runHookCommand({
      command: hook.command,
      input,
      cwd: this.deps.cwd,
      env: this.env,
      timeoutMs: hook.timeoutSeconds * 1000,
      signal,
      tracker: this.deps.tracker,
    });
    const reply = readReply(hook.event, run, hook.timeoutSeconds);
    hook.last = lastText(run.outcome, run.code, run.ms, reply);
    const name = `hook ${hook.event} ${visibleLine(hook.command)} (${hook.source})`;
    if (reply.problem) this.deps.notice(`${name}: ${visibleLine(reply.problem)}`);
    if (reply.message) this.deps.notice(`${name}: ${visibleLine(reply.message)}`);
    return reply;
  }
}

function combine(replies: readonly HookReply[]): EventOutcome {
  const blocks = replies.filter((reply) => reply.block !== undefined).map((reply) => reply.block!);
  const outcome: EventOutcome = {
    context: replies.flatMap((reply) => (reply.context ? [reply.context] : [])),
  };
  if (blocks.length > 0) outcome.block = blocks.filter((text) => text !== '').join('\n');
  const halts = replies.filter((reply) => reply.halt !== undefined).map((reply) => reply.halt!);
  if (halts.length > 0) outcome.halt = halts.filter((text) => text !== '').join('\n');
  for (const decision of ['deny', 'ask', 'allow'] as const) {
    const first = replies.find((reply) => reply.permission === decision);
    if (first) {
      outcome.permission = decision;
      if (first.permissionReason) outcome.permissionReason = first.permissionReason;
      break;
    }
  }
  return outcome;
}

function lastText(outcome: string, code: number | null, ms: number, reply: HookReply): string {
  if (outcome === 'timed_out' || outcome === 'failed') return reply.problem ?? outcome;
  if (outcome === 'cancelled') return `cancelled (${ms} ms)`;
  const said = [
    reply.block !== undefined ? 'blocked' : undefined,
    reply.halt !== undefined ? 'continue: false' : undefined,
    reply.permission ? `permission ${reply.permission}` : undefined,
    reply.context ? 'added context' : undefined,
  ].filter(Boolean);
  return `exit ${code} (${ms} ms)${said.length > 0 ? `: ${said.join(', ')}` : ''}`;
}
