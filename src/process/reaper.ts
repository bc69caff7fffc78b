/**
 * The reaper: a `/bin/sh` that outlives the agent just long enough to kill the process groups it
 * was told about. It holds a pipe from the agent; EOF on that pipe means the agent is gone.
 *
 * Why a reaper and not the alternatives: sweeping leftovers at the next start lets orphans run
 * until then (and pid reuse makes a sweep risky), and trusting servers to exit when their stdin
 * closes fails for grandchildren (`npx`, `sh -c`, browsers) that never read it. The reaper acts
 * the moment the agent dies, even by SIGKILL, when no code of ours can run. It is a shell, not a
 * node process: ~1 MB RSS and a millisecond to start, against ~40 MB and ~50 ms.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Socket } from 'node:net';

/**
 * Reads `+<pgid>` / `-<pgid>` lines on stdin, and `p<pid>` for a single process that lives in the
 * agent's own group (the sandbox library's proxy bridges); at EOF SIGKILLs every group still
 * listed and every such process, and exits.
 * Group ids must be plain decimals above 1: `kill -9 -1` (or `-01`) would kill every process we
 * may signal. INT/HUP/TERM are ignored so a Ctrl+C or a closing terminal cannot end the reaper
 * before the agent — only EOF does. `|| [ -n "$line" ]` keeps a last line without newline.
 */
export const REAPER_SCRIPT = `trap '' INT HUP TERM
groups=' '
pids=' '
while IFS= read -r line || [ -n "$line" ]; do
  id=\${line#?}
  case $id in ''|0*|1|*[!0-9]*) continue ;; esac
  case $line in
    +*) groups="$groups$id " ;;
    -*) case $groups in *" $id "*) groups="\${groups%% $id *} \${groups#* $id }" ;; esac ;;
    p*) pids="$pids$id " ;;
  esac
done
# kill -9 -PGID is the spelling dash, bash and busybox all accept for a whole group.
for id in $groups; do kill -9 "-$id" 2>/dev/null; done
for id in $pids; do kill -9 "$id" 2>/dev/null; done
exit 0`;

/** How the tracker starts the reaper; exported so a test harness can start exactly this. */
export const REAPER_COMMAND = { file: '/bin/sh', args: ['-c', REAPER_SCRIPT] } as const;

export interface ReaperHandle {
  readonly pid: number | undefined;
  /** Sends one `+pgid` / `-pgid` / `p<pid>` line; silently does nothing once the reaper is gone. */
  tell(line: string): void;
  /** Closes the pipe: the reaper kills what is still listed and exits. */
  end(): void;
}

/**
 * Starts a reaper detached in its own process group (so a terminal's SIGINT to our group does not
 * reach it) with all its handles unref'd: it must never keep the agent alive. `onGone` is called
 * once if it cannot start or exits while we still hold it.
 */
export function startReaper(onGone: (reason: 'failed' | 'exited') => void): ReaperHandle {
  let gone = false;
  const child: ChildProcess = spawn(REAPER_COMMAND.file, [...REAPER_COMMAND.args], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const lose = (reason: 'failed' | 'exited') => {
    if (gone) return;
    gone = true;
    onGone(reason);
  };
  child.once('error', () => lose('failed'));
  child.once('exit', () => lose('exited'));
  // EPIPE once the reaper is gone: `onGone` already told the tracker.
  child.stdin?.on('error', () => undefined);
  child.unref();
  if (child.stdin instanceof Socket) child.stdin.unref();
  return {
    pid: child.pid,
    tell(line) {
      if (!gone && child.stdin?.writable) child.stdin.write(`${line}\n`);
    },
    end() {
      gone = true;
      child.stdin?.end();
    },
  };
}
