/**
 * The background shells' side of the tools: `run_shell` with `background: true` (started through
 * the same confinement as any run_shell), `shell_output` (what a shell printed since the last
 * read, and whether it runs) and `shell_kill`; and how a read is worded for the model.
 */

import type { Redactor } from '../../util/redact.js';
import * as z from '../../util/schema.js';
import { visibleLine } from '../../util/terminal-text.js';
import { toolArguments } from '../arguments.js';
import { confine, type ShellArgs } from '../builtin/shell-sandbox.js';
import type { Tool, ToolContext } from '../types.js';
import { type BackgroundShells, FIRST_OUTPUT_WAIT_MS, type ShellInfo, type ShellRead } from './shells.js';

/** Characters of new output one read returns (its end: the latest output matters most). */
export const READ_LIMIT = 8000;
/** The longest `wait_seconds` shell_output accepts. */
export const MAX_WAIT_SECONDS = 60;

/** Starts `args.command` in the background, confined as a run_shell would be. */
export async function runInBackground(
  shells: BackgroundShells,
  args: ShellArgs,
  ctx: ToolContext,
): Promise<string> {
  const confined = await confine(args.command, args, ctx);
  // Released once: by the shell's end, or here when it never started.
  let released = false;
  const release = (stderr: string): string | undefined => {
    if (released || !confined) return undefined;
    released = true;
    return confined.finish(stderr);
  };
  let read: ShellRead;
  try {
    read = await shells.start(
      {
        command: args.command,
        line: confined?.line ?? args.command,
        cwd: ctx.sandbox.root,
        env: ctx.env,
        ...(confined ? { finish: release } : {}),
        ...(ctx.callId !== undefined ? { callId: ctx.callId } : {}),
      },
      ctx.signal,
    );
  } catch (error) {
    // Not started (or stopped at once): the sandbox's hold on the line goes now.
    release('');
    throw error;
  }
  const { info } = read;
  const lines = [`started background shell ${info.id}${info.pid !== undefined ? ` (pid ${info.pid})` : ''}`];
  lines.push(formatRead(read, ctx.redact, 'first output'));
  if (info.state.kind === 'running')
    lines.push(
      `Read what it prints next with shell_output {"id":"${info.id}"}; stop it with shell_kill {"id":"${info.id}"}. It is stopped when the session ends.`,
    );
  return lines.join('\n');
}

const outputArgs = toolArguments('shell_output', () =>
  z.object({
    id: z.optional(
      z.string().check(z.describe('The shell\'s id ("shell-1"). Left out: every background shell.')),
    ),
    wait_seconds: z.optional(
      z
        .number()
        .check(
          z.describe(
            `Wait up to this many seconds (at most ${MAX_WAIT_SECONDS}) for new output or the end, when there is none yet. Default 0.`,
          ),
        ),
    ),
  }),
);

export function shellOutputTool(shells: BackgroundShells): Tool {
  return {
    name: 'shell_output',
    description:
      'Reads what background shells (run_shell with "background": true) printed since the last read, ' +
      'and whether each still runs (with its exit code once done). With "id": that shell; without: every ' +
      `background shell of this session. Returns at most the last ${READ_LIMIT} chars of new output per shell.`,
    get parameters() {
      return outputArgs.parameters;
    },
    async run(raw, ctx) {
      const args = outputArgs.parse(raw);
      const wait = Math.min(Math.max(args.wait_seconds ?? 0, 0), MAX_WAIT_SECONDS);
      const reads = await shells.read(args.id, wait * 1000, ctx.signal);
      if (reads.length === 0) return '(no background shells in this session)';
      if (args.id !== undefined) return formatRead(reads[0]!, ctx.redact, 'new output');
      return reads
        .map(
          (read) =>
            `== ${read.info.id}: ${shortCommand(read.info.command, 80)} ==\n${formatRead(read, ctx.redact, 'new output')}`,
        )
        .join('\n\n');
    },
  };
}

const killArgs = toolArguments('shell_kill', () =>
  z.object({ id: z.string().check(z.describe('The shell\'s id ("shell-1").')) }),
);

export function shellKillTool(shells: BackgroundShells): Tool {
  return {
    name: 'shell_kill',
    description:
      'Stops a background shell started by run_shell with "background": true: SIGTERM to it and every ' +
      'process it started, SIGKILL a second later if any is left. Returns what it printed since the last read.',
    get parameters() {
      return killArgs.parameters;
    },
    async run(raw, ctx) {
      const { id } = killArgs.parse(raw);
      const before = shells.list().find((info) => info.id === id);
      const wasRunning = before?.state.kind === 'running' || before?.lingering === true;
      const read = await shells.stop(id);
      const head = wasRunning ? `stopped ${id}` : `${id} had already ended`;
      return `${head}\n${formatRead(read, ctx.redact, 'new output')}`;
    },
  };
}

/** New output (its end, redacted) and the shell's state, as the model reads it. */
export function formatRead(read: ShellRead, redact: Redactor | undefined, what: string): string {
  const { info } = read;
  const lines: string[] = [];
  const text = redact ? redact(read.text) : read.text;
  let dropped = read.dropped;
  let shown = text;
  if (shown.length > READ_LIMIT) {
    dropped += shown.length - READ_LIMIT;
    shown = shown.slice(-READ_LIMIT);
    // Start at a line: a cut mid-line (mid-secret) helps nobody.
    const newline = shown.indexOf('\n');
    if (newline >= 0 && newline < 200) {
      dropped += newline + 1;
      shown = shown.slice(newline + 1);
    }
  }
  if (dropped > 0)
    lines.push(
      `(${dropped} earlier chars left out${info.log ? `; the whole output is in ${info.log}` : ''})`,
    );
  if (shown === '')
    lines.push(
      `(no ${what}${info.state.kind === 'running' && what === 'first output' ? ` within ${FIRST_OUTPUT_WAIT_MS / 1000} s` : ''})`,
    );
  else lines.push(shown.endsWith('\n') ? shown.slice(0, -1) : shown);
  lines.push(`[${info.id} ${describeState(info)}]`);
  return lines.join('\n');
}

export function describeState(info: Pick<ShellInfo, 'state' | 'lingering'>): string {
  const { state } = info;
  switch (state.kind) {
    case 'running':
      return 'still running';
    case 'killed':
      return 'stopped';
    case 'exited': {
      const ended = state.signal ? `ended by ${state.signal}` : `exited with code ${state.code ?? '?'}`;
      return info.lingering ? `${ended}; processes it started still run (shell_kill stops them)` : ended;
    }
  }
}

/** A command for a list: control characters made visible, whitespace folded, cut to `width`. */
export function shortCommand(command: string, width: number): string {
  const line = visibleLine(command.replace(/\s+/g, ' ').trim());
  return line.length > width ? `${line.slice(0, Math.max(1, width - 1))}…` : line;
}
