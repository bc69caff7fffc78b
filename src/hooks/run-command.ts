/**
 * Runs one hook command: `/bin/sh -c <command>` in its own process group (registered with the
 * run's tracker, so a killed agent's reaper ends it too), the event's JSON on stdin, stdout and
 * stderr kept up to a cap. It always resolves: a timeout or a cancel kills the whole group, and
 * whatever the group left running when the command exited is killed too (no orphans).
 */
import { spawn } from 'node:child_process';
import { killGroup, type ProcessGroupTracker } from '../process/group-tracker.js';
import { errorMessage } from '../util/errors.js';

/** Bytes of stdout / stderr kept per hook; the rest is dropped (and said so). */
export const MAX_HOOK_OUTPUT = 64 * 1024;

export interface HookRun {
  /** The exit code; null when killed (timeout, cancel) or it never started. */
  code: number | null;
  stdout: string;
  stderr: string;
  outcome: 'exited' | 'timed_out' | 'cancelled' | 'failed';
  /** Why it could not start (outcome `failed`). */
  error?: string;
  ms: number;
}

export interface RunCommandOptions {
  command: string;
  input: unknown;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  tracker: ProcessGroupTracker;
}

export function runHookCommand(options: RunCommandOptions): Promise<HookRun> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  if (options.signal.aborted)
    return Promise.resolve({ code: null, stdout: '', stderr: '', outcome: 'cancelled', ms: 0 });
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid !== undefined) options.tracker.add(pid);
    const stdout = capped();
    const stderr = capped();
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    // A hook that does not read its stdin must not fail the run with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(options.input)}\n`);

    let ended: HookRun['outcome'] | undefined;
    const finish = (run: Omit<HookRun, 'stdout' | 'stderr' | 'ms'>) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) {
        killGroup(pid, 'SIGKILL');
        options.tracker.remove(pid);
      }
      resolve({ ...run, stdout: stdout.text(), stderr: stderr.text(), ms: ms() });
    };
    const stop = (why: 'timed_out' | 'cancelled') => {
      if (ended) return;
      ended = why;
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
      // Resolved now, not at 'close': a grandchild holding the pipes open must not keep us waiting.
      finish({ code: null, outcome: why });
    };
    const onAbort = () => stop('cancelled');
    const timer = setTimeout(() => stop('timed_out'), options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      if (ended) return;
      ended = 'failed';
      finish({ code: null, outcome: 'failed', error: errorMessage(error) });
    });
    child.once('exit', (code) => {
      if (ended) return;
      ended = 'exited';
      // The pipes close once the rest of the group is gone (killed in finish) or has closed them.
      let done = false;
      const settle = () => {
        if (done) return;
        done = true;
        finish({ code, outcome: 'exited' });
      };
      let open = 2;
      const closed = () => {
        if (--open === 0) settle();
      };
      child.stdout.once('close', closed);
      child.stderr.once('close', closed);
      if (child.stdout.closed) closed();
      if (child.stderr.closed) closed();
      // Something of the group still holds the pipes: what came so far is the output.
      setTimeout(settle, 200).unref();
    });
  });
}

function capped(): { add(chunk: Buffer): void; text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  return {
    add(chunk) {
      const room = MAX_HOOK_OUTPUT - size;
      if (room <= 0) {
        dropped += chunk.length;
        return;
      }
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
      dropped += chunk.length - kept.length;
    },
    text() {
      const text = Buffer.concat(chunks).toString('utf8');
      return dropped > 0 ? `${text}\n… (${dropped} more bytes dropped)` : text;
    },
  };
}
