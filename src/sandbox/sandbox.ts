/**
 * `createCommandSandbox`: the CommandSandbox of one run. The status comes from the policy and a
 * cheap probe at once; the library (its own bundle, with its proxies) loads only on `ready()` or
 * the first `wrap`. A library that will not start turns the status `unavailable` and nothing runs:
 * a command is never run unconfined under a status that says confined.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorMessage } from '../util/errors.js';
import { scanDangerous } from './dangerous.js';
import { explainStderr } from './explain.js';
import { GitlinkCache } from './gitlinks.js';
import { leftoversNote, neutralise, type Survey, survey } from './leftovers.js';
import {
  fixedCommand,
  type LineMounts,
  lineMounts,
  mountsGone,
  prepareMounts,
  removeMounts,
  type Snapshot,
  snapshot,
  unchanged,
  withCommand,
  withPosixOuterShell,
} from './line-cache.js';
import { denyReadPaths, expandHome, protectedWritePaths } from './paths.js';
import { bwrapOverride, probeSandbox } from './probe.js';
import { MountSetupGate } from './setup-gate.js';
import type { Backend, BackendFilesystem } from './srt-backend.js';
import type {
  CommandSandbox,
  ConfiningMode,
  SandboxPolicy,
  SandboxStatus,
  SandboxWrapOptions,
} from './types.js';

export interface CommandSandboxOptions {
  policy: SandboxPolicy;
  /** The permission root: writable under workspace-write. */
  root: string;
  /** HOME of this run: its credential folders are hidden. */
  home: string;
  /** `$GEEKAGENT_HOME` or `~/.geekagent`: hidden. */
  userStateDir: string;
  /** Read-only inside the root: the project's `.geekagent` folder(s). */
  stateDirs: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Tests hand in a fake library. */
  loadBackend?: () => Promise<Backend>;
  /** Told each helper process the library starts beside the agent, to be reaped if it dies. */
  onHelperProcess?: (pid: number) => void;
}

export function createCommandSandbox(options: CommandSandboxOptions): CommandSandbox {
  return new LibrarySandbox(options);
}

class LibrarySandbox implements CommandSandbox {
  status: SandboxStatus;
  private starting: Promise<SandboxStatus> | undefined;
  private backend: Backend | undefined;
  private tempDir: string | undefined;
  /** Running confined commands, by id: the mounts to remove after a reused line, if reused. */
  private readonly running = new Map<string, LineMounts | undefined>();
  /** Lines the library wrapped whose cleanup has not run (it counts them). */
  private freshPending = 0;
  /** The mounts of the lines run since the last cleanup, swept after the library's (see release). */
  private readonly toSweep = new Set<LineMounts>();
  private readonly gate = new MountSetupGate();
  private cached: CachedLine | undefined;
  private hosts: string[];
  private readonly denyRead: string[];
  /** Commands wrapped with `checkLeftovers`, by id: the root before them and what they could write. */
  private readonly surveys = new Map<string, { before: Survey; writable: string[] }>();
  private readonly gitlinks = new GitlinkCache();

  constructor(private readonly options: CommandSandboxOptions) {
    const { policy } = options;
    this.hosts = [...policy.allowHosts];
    this.denyRead = denyReadPaths(options.home, options.userStateDir, policy.denyRead);
    if (policy.mode === 'off') this.status = { kind: 'off' };
    else {
      const probe = probeSandbox(options.env);
      this.status = probe.problem
        ? { kind: 'unavailable', reason: probe.problem, fix: probe.fix }
        : { kind: 'confined', mode: policy.mode };
    }
  }

  ready(): Promise<SandboxStatus> {
    if (this.status.kind !== 'confined') return Promise.resolve(this.status);
    this.starting ??= this.start(this.status.mode);
    return this.starting;
  }

  private async start(mode: ConfiningMode): Promise<SandboxStatus> {
    try {
      const backend = await (this.options.loadBackend ?? defaultBackend)();
      const bwrapPath = bwrapOverride(this.options.env);
      const deps = backend.dependencyErrors(bwrapPath);
      if (deps.errors.length > 0) return this.unavailable(deps.errors.join('; '));
      if (mode === 'workspace-write') this.tempDir = mkdtempSync(path.join(os.tmpdir(), 'geekagent-sbx-'));
      await backend.initialize({
        filesystem: this.filesystem(mode, [], []),
        allowHosts: this.hosts,
        ...(bwrapPath ? { bwrapPath } : {}),
      });
      this.backend = backend;
      for (const pid of backend.helperPids()) this.options.onHelperProcess?.(pid);
      return this.status;
    } catch (error) {
      return this.unavailable(`the sandbox library did not start: ${errorMessage(error)}`);
    }
  }

  private unavailable(reason: string): SandboxStatus {
    this.status = {
      kind: 'unavailable',
      reason,
      fix: 'run `geekagent sandbox check`; commands are asked before they run',
    };
    return this.status;
  }

  private filesystem(
    mode: ConfiningMode,
    allowWrite: readonly string[],
    denyRead: readonly string[],
  ): BackendFilesystem {
    const { root, stateDirs, policy } = this.options;
    const writable =
      mode === 'workspace-write'
        ? [
            root,
            ...(this.tempDir ? [this.tempDir] : []),
            ...policy.allowWrite.map((p) =>
              p.startsWith('~') ? expandHome(p, this.options.home) : path.resolve(root, p),
            ),
            ...allowWrite,
          ]
        : [];
    return {
      denyRead: [...this.denyRead, ...denyRead.map((p) => path.resolve(root, p))],
      allowWrite: [...new Set(writable)],
      denyWrite: mode === 'workspace-write' ? protectedWritePaths(root, stateDirs) : [],
    };
  }

  async wrap(commandLine: string, options: SandboxWrapOptions): Promise<string> {
    const status = await this.ready();
    if (status.kind !== 'confined' || !this.backend) {
      throw new Error(
        status.kind === 'unavailable'
          ? `the sandbox is unavailable (${status.reason}); the command did not run`
          : 'the sandbox is off; the command did not run',
      );
    }
    const backend = this.backend;
    const added = (options.allowHosts ?? []).filter((host) => !this.hosts.includes(host));
    if (added.length > 0) {
      this.hosts = [...this.hosts, ...added];
      backend.setHosts(this.hosts);
    }
    const resolve = (entry: string) => path.resolve(options.cwd, entry);
    const filesystem = this.filesystem(
      status.mode,
      (options.allowWrite ?? []).map(resolve),
      (options.denyRead ?? []).map(resolve),
    );
    if (options.allowRead?.length) filesystem.allowRead = options.allowRead.map(resolve);
    // The library points TMPDIR at a folder shared by every sandbox; ours is private to this run.
    const prelude = this.tempDir ? `TMPDIR=${shellQuote(this.tempDir)}; export TMPDIR\n` : '';
    // Wraps take turns, each after the commands before it have made their mount points (setup-gate.ts).
    return this.gate.wrap(options.id, () =>
      this.wrapNow(backend, filesystem, prelude, commandLine, options.id, options.checkLeftovers === true),
    );
  }

  /** The line for one command, with the mount points bubblewrap will create for it. */
  private async wrapNow(
    backend: Backend,
    filesystem: BackendFilesystem,
    prelude: string,
    commandLine: string,
    id: string,
    checkLeftovers: boolean,
  ): Promise<{ line: string; mountPoints: readonly string[] | undefined }> {
    // The library protects .git/hooks, rc files… found from the process's cwd; the root's and
    // those in every writable folder are added here (dangerous.ts), and their trees watched for a
    // reused line: the library's count only inside writable folders, where the cwd is scanned too.
    const cwd = process.cwd();
    const writable = [...filesystem.allowWrite, ...libraryPaths()];
    const projects = [this.options.root, ...(writable.some((w) => isAtOrUnder(cwd, w)) ? [cwd] : [])];
    const bases = [...new Set([...projects, ...writable])];
    const scans = bases.map((base) => scanDangerous(base, projects.includes(base)));
    const rootScan = scans[bases.indexOf(this.options.root)];
    if (checkLeftovers && rootScan && filesystem.allowWrite.length > 0)
      this.surveys.set(id, {
        before: survey(this.options.root, rootScan.repos, this.gitlinks),
        writable: filesystem.allowWrite,
      });
    filesystem.denyWrite = [...new Set([...filesystem.denyWrite, ...scans.flatMap((scan) => scan.denies)])];
    const key = JSON.stringify([filesystem, this.hosts, bases, cwd, process.env]);
    const reusable = backend.reusable() && this.running.size === 0;
    const cached = this.cached;
    if (reusable && cached?.usable && cached.key === key && unchanged(cached.snapshot)) {
      if (prepareMounts(cached.mounts)) {
        this.running.set(id, cached.mounts);
        return { line: withCommand(cached.line, commandLine), mountPoints: cached.mounts.placeholders };
      }
    }
    const watch = reusable && scans.every((scan) => scan.complete) && !hasGlob(filesystem);
    // Before the library looks: a change after this shows at the next command.
    const before = watch ? snapshot([...namedPaths(filesystem), ...libraryPaths()]) : undefined;
    if (before) this.cached = undefined;
    this.running.set(id, undefined);
    try {
      const line = before
        ? withPosixOuterShell(await backend.wrap(fixedCommand(prelude), filesystem, id, commandLine))
        : await backend.wrap(`${prelude}${commandLine}`, filesystem, id, commandLine);
      this.freshPending++;
      const mounts = lineMounts(line);
      if (mounts) this.toSweep.add(mounts);
      if (before && mounts) this.cached = { key, line, snapshot: before, mounts, usable: false };
      return { line: before ? withCommand(line, commandLine) : line, mountPoints: mounts?.placeholders };
    } catch (error) {
      this.running.delete(id);
      this.surveys.delete(id);
      throw error;
    }
  }

  release(id: string): void {
    this.gate.ended(id);
    if (!this.running.has(id)) return;
    const reused = this.running.get(id);
    this.running.delete(id);
    if (reused) this.toSweep.add(reused);
    // Mount points are shared: removed only when no confined command runs (a mount point removed
    // under a running bubblewrap detaches its bind there).
    if (this.running.size > 0) return;
    // The library counts its wraps and cleans up on the last call.
    for (; this.freshPending > 0; this.freshPending--) this.backend?.cleanupMounts();
    // The library leaves a mount point folder that a later line's mount points went into (it
    // removes in the order it made them): the deepest go first here.
    removeMounts([...this.toSweep]);
    this.toSweep.clear();
    // A fresh line becomes reusable once its first run's mounts are all gone again.
    if (this.cached && !this.cached.usable) this.cached.usable = mountsGone(this.cached.mounts);
    if (this.cached && !this.cached.usable) this.cached = undefined;
  }

  leftovers(id: string): string | undefined {
    const taken = this.surveys.get(id);
    this.surveys.delete(id);
    if (!taken) return undefined;
    const { root } = this.options;
    const after = survey(root, scanDangerous(root, true).repos, this.gitlinks);
    return leftoversNote(neutralise(root, taken.before, after, taken.writable));
  }

  explainFailure(id: string, stderr: string): string | undefined {
    if (this.status.kind !== 'confined') return undefined;
    const annotated = this.backend?.annotate(id, stderr) ?? stderr;
    return explainStderr(stderr, annotated, {
      mode: this.status.mode,
      root: this.options.root,
      denyRead: this.denyRead,
      allowHosts: this.hosts,
    });
  }

  async dispose(): Promise<void> {
    const backend = this.backend;
    this.backend = undefined;
    this.running.clear();
    this.surveys.clear();
    this.cached = undefined;
    this.freshPending = 0;
    if (backend) {
      backend.cleanupMounts();
      await backend.reset().catch(() => undefined);
    }
    removeMounts([...this.toSweep]);
    this.toSweep.clear();
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }
}

interface CachedLine {
  /** The inputs the line was built from. */
  key: string;
  /** The line around `fixedCommand`. */
  line: string;
  /** The files it was built from. */
  snapshot: Snapshot;
  mounts: LineMounts;
  /** Its first run's mounts were cleaned up: it may run again. */
  usable: boolean;
}

/** Every path the filesystem lists: what the library stats, resolves and binds. */
function namedPaths(filesystem: BackendFilesystem): string[] {
  return [
    ...filesystem.denyRead,
    ...(filesystem.allowRead ?? []),
    ...filesystem.allowWrite,
    ...filesystem.denyWrite,
  ];
}

/** The library's own writable paths (getDefaultWritePaths), looked at on every wrap. */
function libraryPaths(): string[] {
  const home = os.homedir();
  return ['/tmp/claude', path.join(home, '.npm', '_logs'), path.join(home, '.claude', 'debug')];
}

function isAtOrUnder(p: string, dir: string): boolean {
  const relative = path.relative(dir, p);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** A glob in a path is expanded against the file tree by the library: not watched, not reused. */
function hasGlob(filesystem: BackendFilesystem): boolean {
  return namedPaths(filesystem).some((p) => /[*?[\]]/.test(p));
}

async function defaultBackend(): Promise<Backend> {
  const { createBackend } = await import('./srt-backend.js');
  return createBackend();
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
