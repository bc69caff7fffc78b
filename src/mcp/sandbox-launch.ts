/**
 * Starting a confined stdio server: its command and arguments become one shell-quoted line that
 * the run's sandbox wraps (bubblewrap/Seatbelt through src/sandbox), run with `bash -c` in its own
 * process group like any server. A server that asked for the sandbox never starts without it.
 */
import type { StdioDefinition } from './config.js';
import type { StdioLaunch } from './stdio-transport.js';

/** What a launch needs of the run's CommandSandbox (src/sandbox): readiness, wrap, release. */
export interface ServerSandboxer {
  ready(): Promise<
    | { kind: 'confined'; mode: string }
    | { kind: 'off' }
    | { kind: 'unavailable'; reason: string; fix: string }
  >;
  wrap(
    commandLine: string,
    options: {
      id: string;
      cwd: string;
      allowWrite?: readonly string[];
      allowHosts?: readonly string[];
      denyRead?: readonly string[];
    },
  ): Promise<string>;
  release(id: string): void;
}

/**
 * The launch of `definition` inside the sandbox (`id` names this start for the sandbox's
 * bookkeeping; release it when the process is gone). Throws, naming the server and the fix, when
 * the sandbox cannot confine it.
 */
export async function confinedLaunch(
  definition: StdioDefinition,
  launch: StdioLaunch,
  sandbox: ServerSandboxer | undefined,
  id: string,
): Promise<StdioLaunch> {
  const grants = definition.sandbox;
  if (!grants) return launch;
  const asked =
    grants.from === 'default'
      ? 'your "sandbox": {"projectServers": true} confines project servers'
      : `${definition.file} gives it "sandbox"`;
  const refuse = (why: string, fix: string) =>
    new Error(
      `server "${definition.name}" must run in the sandbox (${asked}), but ${why}: not started. Fix: ${fix}`,
    );
  if (!sandbox) throw refuse('this run has no sandbox', 'run it from the agent or `geekagent mcp`');
  const status = await sandbox.ready();
  if (status.kind === 'off') {
    throw refuse(
      'the sandbox is off for this run',
      `drop --sandbox off or set "sandbox": {"mode": "workspace-write"} in your GeekAgent.json${grants.from === 'entry' ? `, or remove "sandbox" from the server in ${definition.file}` : ''}`,
    );
  }
  if (status.kind === 'unavailable')
    throw refuse(`the sandbox is unavailable (${status.reason})`, status.fix);
  const cwd = launch.cwd ?? definition.cwd;
  // exec: the server replaces the inner shell, so no extra process sits between it and the sandbox.
  const commandLine = `exec ${[launch.command, ...launch.args].map(shellWord).join(' ')}`;
  const wrapped = await sandbox.wrap(commandLine, {
    id,
    cwd,
    allowWrite: grants.allowWrite,
    allowHosts: grants.allowHosts,
    denyRead: grants.denyRead,
  });
  return { command: 'bash', args: ['-c', wrapped], env: launch.env, cwd };
}

/** Always single-quoted: nothing in a word (`$`, `;`, a newline) means anything to the shell. */
export function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
