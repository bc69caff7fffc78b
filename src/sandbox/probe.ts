/**
 * The cheap look at whether the sandbox can run here, without loading the library: the platform,
 * the programs it needs on PATH (bubblewrap, socat, ripgrep on Linux; ripgrep on macOS) and user
 * namespaces. Used for the start-up line, `/sandbox` and `geekagent sandbox check`.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Program {
  name: string;
  /** The Debian package that provides it. */
  pkg: string;
  /** Where it was found; undefined when missing. */
  path: string | undefined;
}

export interface SandboxProbe {
  platform: NodeJS.Platform;
  supported: boolean;
  programs: Program[];
  /** Why user namespaces cannot be used (Linux), or undefined. */
  userNamespaces: string | undefined;
  /** One line: why the sandbox cannot run, or undefined when it can. */
  problem: string | undefined;
  /** How to fix `problem`. */
  fix: string;
}

/**
 * GEEKAGENT_SANDBOX_BWRAP names the bubblewrap to use (a path; tests point it at nothing to see
 * the unavailable case).
 */
export function bwrapOverride(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.GEEKAGENT_SANDBOX_BWRAP;
  return value === undefined || value === '' ? undefined : value;
}

export function probeSandbox(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): SandboxProbe {
  const supported = platform === 'linux' || platform === 'darwin';
  const programs: Program[] = [];
  if (platform === 'linux') {
    const bwrap = bwrapOverride(env);
    programs.push({
      name: 'bwrap',
      pkg: 'bubblewrap',
      path: bwrap ? executable(bwrap) : which('bwrap', env),
    });
    programs.push({ name: 'socat', pkg: 'socat', path: which('socat', env) });
  }
  if (supported) programs.push({ name: 'rg', pkg: 'ripgrep', path: which('rg', env) });
  const userNamespaces = platform === 'linux' ? userNamespaceProblem() : undefined;
  const missing = programs.filter((program) => program.path === undefined);
  let problem: string | undefined;
  let fix = '';
  if (!supported) {
    problem = `the sandbox needs Linux (bubblewrap) or macOS (Seatbelt); this is ${platform}`;
    fix = 'commands are asked before they run';
  } else if (missing.length > 0) {
    problem = `missing ${missing.map((program) => `${program.name} (${program.pkg})`).join(', ')}`;
    fix =
      platform === 'linux'
        ? `install it: apt-get install ${missing.map((program) => program.pkg).join(' ')} (Debian/Ubuntu)`
        : `install it: brew install ${missing.map((program) => program.pkg).join(' ')}`;
  } else if (userNamespaces) {
    problem = userNamespaces;
    fix =
      'allow unprivileged user namespaces: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04+) or kernel.unprivileged_userns_clone=1';
  }
  return { platform, supported, programs, userNamespaces, problem, fix };
}

function which(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const found = executable(path.join(dir, name));
    if (found) return found;
  }
  return undefined;
}

function executable(file: string): string | undefined {
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

/** Kernel switches that leave bubblewrap without a usable user namespace. */
function userNamespaceProblem(): string | undefined {
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  if (read('/proc/sys/user/max_user_namespaces') === '0')
    return 'user namespaces are disabled (user.max_user_namespaces = 0)';
  // root keeps its capabilities in the namespace; the two switches below restrict others only.
  if (process.getuid?.() === 0) return undefined;
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0')
    return 'unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)';
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1')
    return 'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)';
  return undefined;
}
