/**
 * The run's configured hooks: which apply to an event (by matcher), running them all at once with
 * their timeouts, combining what they say, keeping each one's last result for `/hooks`, and
 * reporting problems (a failed start, a timeout, an unknown exit code) as notices. A hook never
 * throws into the agent and never holds it past its timeout or its turn's cancel. A hook is a
 * command, or (the library's `hooks` option) a callback whose return value is read as its JSON output.
 */
import { DEFAULT_HOOK_TIMEOUT_SECONDS, type HookEvent, type HookSetting } from '../config/hook-settings.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import { errorMessage } from '../util/errors.js';
import { visibleLine } from '../util/terminal-text.js';
import { compileMatcher, type Matcher } from './matching.js';
import { type HookReply, readReply } from './output.js';
import { type HookRun, runHookCommand } from './run-command.js';

/** A hook given in code: gets the hook's input (what a command reads on stdin), returns its JSON output. */
export type HookCallback = (
  input: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<unknown> | unknown;

export interface ConfiguredHook extends HookSetting {
  source: 'user' | 'project' | 'code';
  match: Matcher;
  /** Set for a hook given in code (`command` then only names it for `/hooks` and notices). */
  callback?: HookCallback;
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

/** A hook given in code (the library's `hooks` option). */
export interface CodeHook {
  event: HookEvent;
  /** As a configured hook's matcher ('' or '*': everything). */
  matcher: string;
  callback: HookCallback;
  timeoutSeconds?: number;
}

export function configureCode(hooks: readonly CodeHook[]): ConfiguredHook[] {
  return hooks.map((hook, index) => ({
    event: hook.event,
    matcher: hook.matcher,
    command: `callback #${index + 1}`,
    timeoutSeconds: hook.timeoutSeconds ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
    file: '(code)',
    raw: { matcher: hook.matcher },
    source: 'code',
    match: compileMatcher(hook.matcher),
    callback: hook.callback,
  }));
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

  private async runOne(
    hook: ConfiguredHook,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<HookReply> {
    const timeoutMs = hook.timeoutSeconds * 1000;
    const run = hook.callback
      ? await runCallback(hook.callback, input, signal, timeoutMs)
      : await runHookCommand({
          command: hook.command,
          input,
          cwd: this.deps.cwd,
          env: this.env,
          timeoutMs,
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

/** A callback hook as a command's run: its return value is the JSON output, a throw a failed start. */
async function runCallback(
  callback: HookCallback,
  input: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<HookRun> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<HookRun>((resolve) => {
    timer = setTimeout(() => {
      stop.abort();
      resolve({ code: null, stdout: '', stderr: '', outcome: 'timed_out', ms: ms() });
    }, timeoutMs);
    stop.signal.addEventListener('abort', () =>
      resolve({ code: null, stdout: '', stderr: '', outcome: 'cancelled', ms: ms() }),
    );
  });
  try {
    const called = (async (): Promise<HookRun> => {
      try {
        const output = await callback(input, stop.signal);
        return { code: 0, stdout: JSON.stringify(output ?? {}), stderr: '', outcome: 'exited', ms: ms() };
      } catch (error) {
        return {
          code: null,
          stdout: '',
          stderr: '',
          outcome: 'failed',
          error: errorMessage(error),
          ms: ms(),
        };
      }
    })();
    return await Promise.race([called, ended]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
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
