/**
 * The sandbox vocabulary the rest of GeekAgent codes against: the modes, what a run's sandbox
 * turned out to be (its status), and `CommandSandbox`, the one object that confines a command
 * line. The library behind it (@anthropic-ai/sandbox-runtime) never leaks past this folder.
 */

export type SandboxMode = 'workspace-write' | 'read-only' | 'off';

/** The modes that confine: what a `confined` status carries. */
export type ConfiningMode = Exclude<SandboxMode, 'off'>;

/**
 * What commands of this run get. `unavailable` is a sandbox that was wanted and cannot run here
 * (no bubblewrap, user namespaces off, an unsupported platform, a library that would not start):
 * its commands run as before, asked, and nothing says they are confined.
 */
export type SandboxStatus =
  | { kind: 'confined'; mode: ConfiningMode }
  | { kind: 'off' }
  | { kind: 'unavailable'; reason: string; fix: string };

export interface SandboxWrapOptions {
  /** Unique per invocation (a tool-call id): violations are attributed by it. */
  id: string;
  /** The folder the command runs in (relative paths below are resolved against it). */
  cwd: string;
  /** Writable besides the sandbox's own (workspace-write: the root and the private temp folder). */
  allowWrite?: readonly string[];
  /**
   * Hosts to let through. The library has one proxy per process that filters by name: a host one
   * wrap adds stays reachable for later wraps of the same sandbox.
   */
  allowHosts?: readonly string[];
  /** Hidden besides the sandbox's own deny list. */
  denyRead?: readonly string[];
  /**
   * Readable although under a hidden folder (a user skill's own folder in the user state folder);
   * never writable through this.
   */
  allowRead?: readonly string[];
  /**
   * Look at what the command leaves behind in the root (git settings and hooks that run later,
   * new `.env` files): call `leftovers(id)` once it ended. Off for long-running servers.
   */
  checkLeftovers?: boolean;
}

export interface CommandSandbox {
  /** Final once `ready()` has resolved; before that, what the cheap probe found. */
  readonly status: SandboxStatus;
  /** Starts the library (proxies) if the status is `confined`; resolves to the final status. */
  ready(): Promise<SandboxStatus>;
  /**
   * A shell command line (run it with `bash -c`, in `options.cwd`) that runs `commandLine`
   * confined. Throws when the status is not `confined`: nothing is ever run unconfined by mistake.
   * Call `release(id)` when the command has ended.
   */
  wrap(commandLine: string, options: SandboxWrapOptions): Promise<string>;
  /** The command `id` ended: its mount points go once no other confined command is running. */
  release(id: string): void;
  /**
   * When stderr of command `id` shows the sandbox stopped it: a note naming what was refused
   * (paths, hosts), to put in front of the output the model sees. Undefined otherwise.
   */
  explainFailure(id: string, stderr: string): string | undefined;
  /**
   * After `release(id)` of a command wrapped with `checkLeftovers`: what it left behind that would
   * run or be read outside the sandbox later, undone (leftovers.ts), as a note for the model and
   * the person; undefined when nothing was.
   */
  leftovers(id: string): string | undefined;
  /** Stops the proxies and removes the private temp folder. */
  dispose(): Promise<void>;
}

/** The resolved `sandbox` settings of one run (user file, narrowed by a trusted project, flag). */
export interface SandboxPolicy {
  mode: SandboxMode;
  /** Hosts commands may reach (through the library's proxy); loopback only if listed. */
  allowHosts: string[];
  /** Extra paths hidden from commands (absolute or `~/…`). */
  denyRead: string[];
  /** Extra writable paths (workspace-write only). */
  allowWrite: string[];
  /** A confined command needs no question. */
  autoAllow: boolean;
  /** Command lines the user lets run unconfined without a question (`*`: plain words only; command-line.ts). */
  allowUnconfined: string[];
}

export const DEFAULT_SANDBOX_POLICY: SandboxPolicy = {
  mode: 'workspace-write',
  allowHosts: [],
  denyRead: [],
  allowWrite: [],
  autoAllow: true,
  allowUnconfined: [],
};
