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
import { explainStderr } from './explain.js';
import { denyReadPaths, expandHome, protectedWritePaths } from './paths.js';
import { bwrapOverride, probeSandbox } from './probe.js';
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
  private readonly running = new Set<string>();
  private hosts: string[];
  private readonly denyRead: string[];

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
    const added = (options.allowHosts ?? []).filter((host) => !this.hosts.includes(host));
    if (added.length > 0) {
      this.hosts = [...this.hosts, ...added];
      this.backend.setHosts(this.hosts);
    }
    const resolve = (entry: string) => path.resolve(options.cwd, entry);
    const filesystem = this.filesystem(
      status.mode,
      (options.allowWrite ?? []).map(resolve),
      (options.denyRead ?? []).map(resolve),
    );
    if (options.allowRead?.length) filesystem.allowRead = options.allowRead.map(resolve);
    // The library points TMPDIR at a folder shared by every sandbox; ours is private to this run.
    const line = this.tempDir
      ? `TMPDIR=${shellQuote(this.tempDir)}; export TMPDIR\n${commandLine}`
      : commandLine;
    this.running.add(options.id);
    try {
      return await this.backend.wrap(line, filesystem, options.id, commandLine);
    } catch (error) {
      this.running.delete(options.id);
      throw error;
    }
  }

  release(id: string): void {
    if (!this.running.delete(id)) return;
    // The library's mount points are shared: removed only when no confined command runs.
    if (this.running.size === 0) this.backend?.cleanupMounts();
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
    if (backend) {
      backend.cleanupMounts();
      await backend.reset().catch(() => undefined);
    }
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }
}

async function defaultBackend(): Promise<Backend> {
  const { createBackend } = await import('./srt-backend.js');
  return createBackend();
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
