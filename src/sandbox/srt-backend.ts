/**
 * The one file that imports @anthropic-ai/sandbox-runtime (its own lazily loaded bundle,
 * `lib/sandbox.cjs`). The library keeps a process-wide singleton; `LibrarySandbox` (sandbox.ts)
 * is the only caller, through this small surface, so nothing else sees that state.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';

export interface BackendFilesystem {
  denyRead: string[];
  /** Re-allowed for reading under a denied folder. */
  allowRead?: string[];
  allowWrite: string[];
  denyWrite: string[];
}

export interface BackendConfig {
  filesystem: BackendFilesystem;
  allowHosts: string[];
  bwrapPath?: string;
}

export interface Backend {
  initialize(config: BackendConfig): Promise<void>;
  wrap(commandLine: string, filesystem: BackendFilesystem, id: string, text: string): Promise<string>;
  /**
   * A wrapped line depends on nothing but its inputs and the files (no proxy attribution by
   * command: no host is allowed), so it may run other commands (line-cache.ts).
   */
  reusable(): boolean;
  setHosts(hosts: string[]): void;
  annotate(id: string, stderr: string): string;
  cleanupMounts(): void;
  reset(): Promise<void>;
  /** Processes the library started beside us (its socat proxy bridges), by pid. */
  helperPids(): number[];
  /** The library's own dependency check: errors make the sandbox unavailable. */
  dependencyErrors(bwrapPath?: string): { errors: string[]; warnings: string[] };
}

export function createBackend(): Backend {
  return backendOver(SandboxManager);
}

/** Over a given copy of the library: the bench hands in the shipped bundle's (dist/cli/lib). */
export function backendOver(manager: typeof SandboxManager): Backend {
  let base: SandboxRuntimeConfig | undefined;
  const runtimeConfig = (config: BackendConfig): SandboxRuntimeConfig => ({
    network: { allowedDomains: [...config.allowHosts], deniedDomains: [] },
    filesystem: { ...config.filesystem },
    ...(config.bwrapPath ? { bwrapPath: config.bwrapPath } : {}),
    ...seccompConfig(),
  });
  // Linux with no host allowed: the library is handed no network rule, so it binds no proxy
  // socket and starts no socat bridges inside each command (half of a command's cost), and we
  // add `--unshare-net` to its bubblewrap line ourselves: no network at all, loopback included.
  const bridgeless = () => process.platform === 'linux' && base?.network.allowedDomains.length === 0;
  const libraryConfig = (config: SandboxRuntimeConfig): SandboxRuntimeConfig =>
    bridgeless()
      ? ({ ...config, network: { deniedDomains: [] } } as unknown as SandboxRuntimeConfig)
      : config;
  return {
    async initialize(config) {
      base = runtimeConfig(config);
      await manager.initialize(libraryConfig(base));
    },
    async wrap(commandLine, filesystem, id, text) {
      const offline = bridgeless();
      const line = await manager.wrapWithSandbox(commandLine, undefined, { filesystem }, undefined, {
        commandId: id,
        commandText: text,
      });
      return offline ? withoutNetwork(line) : line;
    },
    reusable: bridgeless,
    setHosts(hosts) {
      if (!base) return;
      base = { ...base, network: { ...base.network, allowedDomains: [...hosts] } };
      manager.updateConfig(libraryConfig(base));
    },
    annotate: (id, stderr) => manager.annotateStderrWithSandboxFailures(id, stderr),
    cleanupMounts: () => manager.cleanupAfterCommand(),
    reset: () => manager.reset(),
    helperPids: () => childrenNamed('socat'),
    dependencyErrors(bwrapPath) {
      const check = manager.checkDependencies();
      if (!bwrapPath) return check;
      // checkDependencies() looks on PATH; an explicit bubblewrap is judged by the config's path.
      const errors = check.errors.filter((error) => !/bubblewrap|bwrap/i.test(error));
      if (!existsSync(bwrapPath)) errors.push(`bubblewrap (bwrap) not found at ${bwrapPath}`);
      return { errors, warnings: check.warnings };
    },
  };
}

/**
 * `line` (the library's bubblewrap invocation, rendered with no network rule) with
 * `--unshare-net` added after the bubblewrap program. The library renders `<bwrap> --new-session
 * --die-with-parent …`, inline or behind a `/bin/sh` that feeds the mounts from a file; that
 * first occurrence precedes every path and the command. Any other shape is refused: a command is
 * never run with the network open.
 */
export function withoutNetwork(line: string): string {
  const marker = ' --new-session --die-with-parent ';
  const at = line.indexOf(marker);
  if (at < 0 || line.slice(0, at).includes(' -- ') || line.slice(0, at).includes('--unshare-net'))
    throw new Error('the sandbox library rendered an unexpected bubblewrap line; the command did not run');
  const cut = at + marker.length;
  return `${line.slice(0, cut)}--unshare-net ${line.slice(cut)}`;
}

/**
 * The library finds its seccomp helper next to its own module file; bundled, that file is
 * dist/cli/lib/sandbox.cjs, so name the installed package's copy explicitly.
 */
function seccompConfig(): Pick<SandboxRuntimeConfig, 'seccomp'> {
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : undefined;
  if (!arch || process.platform !== 'linux') return {};
  try {
    const main = createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime');
    const applyPath = path.join(path.dirname(main), '..', 'vendor', 'seccomp', arch, 'apply-seccomp');
    return existsSync(applyPath) ? { seccomp: { applyPath } } : {};
  } catch {
    return {};
  }
}

/**
 * Our children called `name`, from /proc (Linux; [] elsewhere): the library does not hand out its
 * bridge processes, and they must be killed if the agent is SIGKILLed.
 */
function childrenNamed(name: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …: comm may hold spaces or parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (comm === name && ppid === process.pid) found.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}
