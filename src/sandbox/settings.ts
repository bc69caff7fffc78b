/**
 * The `sandbox` section of GeekAgent.json and how a run's policy is made from it: the user's
 * file sets it, a trusted project's file may only narrow it (a stricter mode, more hidden paths,
 * fewer hosts, `autoAllow: false`), and `--sandbox MODE` picks the mode for one run.
 */
import * as z from '../util/schema.js';
import { DEFAULT_SANDBOX_POLICY, type SandboxMode, type SandboxPolicy } from './types.js';

export const SANDBOX_MODES = ['workspace-write', 'read-only', 'off'] as const;

const nonEmpty = z.string().check(z.minLength(1));

export const sandboxSectionSchema = z.strictObject({
  mode: z.optional(z.enum(SANDBOX_MODES)),
  network: z.optional(z.strictObject({ allow: z.optional(z.array(nonEmpty)) })),
  denyRead: z.optional(z.array(nonEmpty)),
  allowWrite: z.optional(z.array(nonEmpty)),
  autoAllow: z.optional(z.boolean()),
  /** User file only: command lines that `sandbox: false` runs without a question (command-line.ts). */
  allowUnconfined: z.optional(z.array(nonEmpty)),
});

export type SandboxSection = z.infer<typeof sandboxSectionSchema>;

/** Strictest first: a project may move a run down this list, never up. */
const STRICTNESS: Record<SandboxMode, number> = { 'read-only': 2, 'workspace-write': 1, off: 0 };

export interface PolicyNarrowing {
  /** What the project asked for that it may not have (shown as a notice). */
  ignored: string[];
}

/**
 * The run's policy. `project` is a trusted project's section (an untrusted one is never passed):
 * narrowing only. `flag` (`--sandbox`) is the person's own choice for this run and wins.
 */
export function resolveSandboxPolicy(
  user: SandboxSection | undefined,
  project: SandboxSection | undefined,
  flag: SandboxMode | undefined,
): { policy: SandboxPolicy; ignored: string[] } {
  const ignored: string[] = [];
  const policy: SandboxPolicy = {
    mode: user?.mode ?? DEFAULT_SANDBOX_POLICY.mode,
    allowHosts: [...(user?.network?.allow ?? [])],
    denyRead: [...(user?.denyRead ?? [])],
    allowWrite: [...(user?.allowWrite ?? [])],
    autoAllow: user?.autoAllow ?? DEFAULT_SANDBOX_POLICY.autoAllow,
    allowUnconfined: [...(user?.allowUnconfined ?? [])],
  };
  if (project) {
    if (project.mode !== undefined) {
      if (STRICTNESS[project.mode] >= STRICTNESS[policy.mode]) policy.mode = project.mode;
      else ignored.push(`mode "${project.mode}" (looser than "${policy.mode}")`);
    }
    if (project.network?.allow !== undefined) {
      const allowed = new Set(project.network.allow);
      const dropped = policy.allowHosts.filter((host) => !allowed.has(host));
      const added = project.network.allow.filter((host) => !policy.allowHosts.includes(host));
      if (added.length > 0) ignored.push(`network.allow ${added.join(', ')} (not in the user's list)`);
      policy.allowHosts = policy.allowHosts.filter((host) => !dropped.includes(host));
    }
    policy.denyRead.push(...(project.denyRead ?? []));
    if (project.allowWrite?.length) ignored.push('allowWrite (only the user file may widen)');
    if (project.allowUnconfined?.length) ignored.push('allowUnconfined (only the user file may widen)');
    if (project.autoAllow === false) policy.autoAllow = false;
    else if (project.autoAllow === true && !policy.autoAllow) ignored.push('autoAllow: true');
  }
  if (flag !== undefined) policy.mode = flag;
  return { policy, ignored };
}

export function parseSandboxMode(value: string): SandboxMode | undefined {
  return (SANDBOX_MODES as readonly string[]).includes(value) ? (value as SandboxMode) : undefined;
}

/**
 * The mode the person picked for this run: `--sandbox`, else GEEKAGENT_SANDBOX (their own
 * environment, never a project's `.env`); `ignored` names a GEEKAGENT_SANDBOX that is no mode.
 */
export function runSandboxMode(
  flag: SandboxMode | undefined,
  env: NodeJS.ProcessEnv,
): { mode: SandboxMode | undefined; ignored?: string } {
  const fromEnv = env.GEEKAGENT_SANDBOX ? parseSandboxMode(env.GEEKAGENT_SANDBOX) : undefined;
  const ignored =
    env.GEEKAGENT_SANDBOX && !fromEnv
      ? `GEEKAGENT_SANDBOX="${env.GEEKAGENT_SANDBOX}" (not workspace-write, read-only or off)`
      : undefined;
  return { mode: flag ?? fromEnv, ...(ignored ? { ignored } : {}) };
}
