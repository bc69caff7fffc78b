/**
 * run_shell: runs one `/bin/sh -c` command in the permission root, in its own process group so a
 * timeout or cancel kills everything it started, and reports merged, bounded output.
 */
import { spawn } from 'node:child_process';
import * as z from '../../util/schema.js';
import { BoundedText } from '../../util/text.js';
import { toolArguments } from '../arguments.js';
import { type BackgroundShells, FIRST_OUTPUT_WAIT_MS } from '../background/shells.js';
import { runInBackground } from '../background/tools.js';
import { type CommandRunner, type Tool, type ToolContext, ToolError } from '../types.js';
import { confine, reasonOf, runsUnasked, unconfinedReview, wantsUnconfined } from './shell-sandbox.js';

export const SHELL_TIMEOUT_MS = 10_000;
export const SHELL_OUTPUT_LIMIT = 2000;

export interface ShellToolOptions {
  /** Defaults to SHELL_TIMEOUT_MS; tests shorten it. */
  timeoutMs?: number;
  /** The session's background shells: `background: true` is offered only with them. */
  background?: BackgroundShells;
  /** The run's process groups: a command's group is listed while it runs (the reaper's, if the agent is killed). */
  groups?: ProcessGroups;
}

/** Where a command's process group is listed while it runs (the run's ProcessGroupTracker). */
export interface ProcessGroups {
  /** Called before the spawn (the tracker starts its reaper then, not after). */
  prepare?(): void;
  add(pgid: number): void;
  remove(pgid: number): void;
}

export interface ShellResult {
  output: BoundedText;
  code: number | null;
  signal: NodeJS.Signals | null;
  stopped: 'timeout' | 'abort' | null;
}

export function createShellTool(options: ShellToolOptions = {}): Tool {
  const timeoutMs = options.timeoutMs ?? SHELL_TIMEOUT_MS;
  const { background } = options;
  const shellArgs = toolArguments('run_shell', () =>
    z.object({
      command: z
        .string()
        .check(
          z.describe(
            `The command line, run as \`/bin/sh -c <command>\`. Must finish within ${formatSeconds(timeoutMs)}${background ? ' unless in the background' : ''}.`,
          ),
        ),
      // Offered only where a session keeps background shells (not `mcp serve`); unknown keys are dropped.
      ...(background ? { background: backgroundArg() } : {}),
      sandbox: z.optional(
        z
          .boolean()
          .check(z.describe('false: run outside the sandbox (always asks the person). Default: confined.')),
      ),
      reason: z.optional(
        z
          .string()
          .check(
            z.describe(
              'With "sandbox": false: why the command needs to run unconfined (shown to the person).',
            ),
          ),
      ),
    }),
  );
  return {
    name: 'run_shell',
    description:
      `Runs a shell command with /bin/sh in the project root and returns its stdout and stderr merged. ` +
      `Stdin is closed. The command is killed (with everything it started) after ${formatSeconds(timeoutMs)}. ` +
      `Output is cut to ${SHELL_OUTPUT_LIMIT} chars; a non-zero exit code is reported at the end. ` +
      `When the sandbox is on, the command runs confined (writes only in the project and a temp folder, ` +
      `credentials hidden, network only to allowed hosts); a refusal is reported as [sandbox]. ` +
      `Set "sandbox": false with a "reason" only when confinement stops the task: the person is asked.` +
      (background
        ? ` With "background": true the command keeps running after the call returns (its id and first output, ` +
          `waiting at most ${formatSeconds(FIRST_OUTPUT_WAIT_MS)}); read it later with shell_output, stop it with ` +
          `shell_kill; every background shell is stopped when the session ends.`
        : ''),
    get parameters() {
      return shellArgs.parameters;
    },
    // A command naming .geekagent, mcp.json, .env… is always asked (a hint, not a barrier: shell
    // text can spell a name in ways no check sees).
    protectedTargets: async (args, ctx) =>
      typeof args.command === 'string' ? (ctx.protectedPaths?.mentionedIn(args.command) ?? []) : [],
    // Arguments that fail the schema are asked (a check that throws asks), then refused with its message.
    runsUnasked: (args, ctx) => runsUnasked(shellArgs.parse(args), ctx),
    askReason: (args, ctx) => unconfinedReview(shellArgs.parse(args), ctx),
    async describeApproval(raw, ctx) {
      const args = shellArgs.parse(raw);
      const { command } = args;
      const where = inBackground(background, args) ? ' in the background' : '';
      if (wantsUnconfined(args) && ctx.commandSandbox?.status.kind === 'confined')
        return {
          title: `About to run a shell command${where} OUTSIDE the sandbox`,
          detail: `${command}\n\nwhy: ${reasonOf(args)}`,
          kind: 'command',
        };
      return { title: `About to run a shell command${where}`, detail: command, kind: 'command' };
    },
    async run(raw, ctx) {
      const args = shellArgs.parse(raw);
      const { command } = args;
      if (command.trim() === '') throw new ToolError('run_shell: "command" must not be empty');
      if (ctx.signal.aborted) throw new ToolError('run_shell: cancelled');
      // In the background it runs here even under an editor's terminal runner (that one waits for the end).
      if (inBackground(background, args)) return runInBackground(background, args, ctx);
      const confined = await confine(command, args, ctx);
      const output = new BoundedText(SHELL_OUTPUT_LIMIT, ctx.redact);
      const stderr = confined ? new TailText(STDERR_KEPT) : undefined;
      let result: ShellResult;
      let note: string | undefined;
      try {
        result = ctx.commandRunner
          ? await runElsewhere(ctx.commandRunner, confined?.line ?? command, ctx, timeoutMs, output, stderr)
          : await runProcess(
              '/bin/sh',
              ['-c', confined?.line ?? command],
              ctx.sandbox.root,
              ctx.env,
              ctx.signal,
              timeoutMs,
              output,
              stderr,
              options.groups,
            );
      } finally {
        // Released however the run ended; the note is only wanted from a finished command.
        note = confined?.finish(stderr?.text ?? '');
      }
      if (result.stopped === 'abort') throw new ToolError('run_shell: cancelled');
      const text = formatResult(result, timeoutMs);
      return note ? `${note}\n${text}` : text;
    },
  };
}

function backgroundArg() {
  return z.optional(
    z
      .boolean()
      .check(
        z.describe(
          'true: start it in the background (dev servers, watchers, long builds) and return at once with its id ' +
            'and first output; no time limit. Read it with shell_output, stop it with shell_kill.',
        ),
      ),
  );
}

/** Whether this call asks for a background shell (and the session keeps them). */
function inBackground(
  background: BackgroundShells | undefined,
  args: object,
): background is BackgroundShells {
  return background !== undefined && (args as { background?: unknown }).background === true;
}

/** Runs `file args` in its own process group, output merged into `output`, killed at `timeoutMs`. */
export function runProcess(
  file: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
  timeoutMs: number,
  output: BoundedText,
  /** Also gets stderr alone (the sandbox reads its refusals there). */
  stderrTap?: TailText,
  groups?: ProcessGroups,
): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    groups?.prepare?.();
    const child = spawn(file, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid;
    if (pid !== undefined) groups?.add(pid);
    let stopped: ShellResult['stopped'] = null;

    const stop = (reason: 'timeout' | 'abort'): void => {
      if (stopped) return;
      stopped = reason;
      killGroup(child.pid);
      // A process that left the group (setsid) may still hold the pipes open; do not wait for it.
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = (): void => stop('abort');
    signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) groups?.remove(pid);
    };

    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => output.push(chunk));
    }
    if (stderrTap) child.stderr.on('data', (chunk: string) => stderrTap.push(chunk));
    child.on('error', (error) => {
      cleanup();
      reject(new ToolError(`cannot start ${file}: ${error.message}`));
    });
    // 'close' waits for the pipes too, so output written by background children is not lost.
    child.on('close', (code, exitSignal) => {
      cleanup();
      resolve({ output, code, signal: exitSignal, stopped });
    });
  });
}

/** The same run through the face's runner (an editor's terminal): its output arrives whole at the end. */
async function runElsewhere(
  runner: CommandRunner,
  line: string,
  ctx: ToolContext,
  timeoutMs: number,
  output: BoundedText,
  stderrTap?: TailText,
): Promise<ShellResult> {
  const ran = await runner.run({
    line,
    cwd: ctx.sandbox.root,
    timeoutMs,
    signal: ctx.signal,
    ...(ctx.callId ? { callId: ctx.callId } : {}),
  });
  output.push(ran.output);
  // A terminal merges the streams: the sandbox looks for its refusals in all of it.
  stderrTap?.push(ran.output);
  return {
    output,
    code: ran.code,
    signal: ran.signal as NodeJS.Signals | null,
    stopped: ran.stopped,
  };
}

/** SIGKILL to the whole process group; the group may already be gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Stderr kept for the sandbox's look at it: the last STDERR_KEPT characters. */
const STDERR_KEPT = 16_384;

export class TailText {
  text = '';
  constructor(private readonly limit: number) {}
  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit);
  }
}

export function formatResult(result: ShellResult, timeoutMs: number): string {
  const lines: string[] = [];
  const text = result.output.toString();
  if (result.output.total === 0) lines.push('(no output)');
  else lines.push(text.endsWith('\n') ? text.slice(0, -1) : text);
  if (result.stopped === 'timeout') lines.push(`(command timed out after ${formatSeconds(timeoutMs)})`);
  else if (result.signal) lines.push(`(killed by ${result.signal})`);
  else if (result.code !== 0 && result.code !== null) lines.push(`(exit code ${result.code})`);
  return lines.join('\n');
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
