/**
 * The `sandbox` section of GeekAgent.json and how a run's policy is made from it: the user's
 * file sets it, a trusted project's file may only narrow it (a stricter mode, more hidden paths,
 * fewer hosts, `autoAllow: false`), and `--sandbox MODE` picks the mode for one run.
 */
import type { Setting } from '../settings/effective.js';
import type { SectionLayer, SettingSource, SettingsSection } from '../settings/section.js';
import * as z from '../util/schema.js';
import { DEFAULT_SANDBOX_POLICY, type SandboxMode, type SandboxPolicy } from './types.js';

export const SANDBOX_MODES = ['workspace-write', 'read-only', 'off'] as const;

function buildSandboxSectionSchema() {
  const nonEmpty = z.string().check(z.minLength(1));
  return z.strictObject({
    mode: z.optional(z.enum(SANDBOX_MODES)),
    network: z.optional(z.strictObject({ allow: z.optional(z.array(nonEmpty)) })),
    denyRead: z.optional(z.array(nonEmpty)),
    allowWrite: z.optional(z.array(nonEmpty)),
    autoAllow: z.optional(z.boolean()),
    /** User file only: command lines that `sandbox: false` runs without a question (command-line.ts). */
    allowUnconfined: z.optional(z.array(nonEmpty)),
  });
}

/** Built on first use: a start whose settings files have no `sandbox` key never needs it. */
export const sandboxSectionSchema = z.lazySchema(buildSandboxSectionSchema);

export type SandboxSection = z.infer<ReturnType<typeof buildSandboxSectionSchema>>;

/**
 * The section as the settings model reads it: the user's file sets it; the project's and the
 * project-local file (both in the folder, both ignored until it is trusted) may only narrow it.
 * Part of the permission file, whose reader stops the run on a broken value.
 */
export const sandboxSettingsSection: SettingsSection<SandboxSection> = {
  key: 'sandbox',
  file: 'GeekAgent.json',
  get schema() {
    return sandboxSectionSchema();
  },
  scopes: { user: 'set', project: 'narrow', 'project-local': 'narrow' },
  invalid: 'throw',
};

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

/**
 * Two narrowing sections as one (the project's and the project-local file's): the stricter mode,
 * hosts both keep, every hidden path; `autoAllow: false` from either. What neither may widen
 * (`allowWrite`, `allowUnconfined`) is kept so that resolveSandboxPolicy names it as ignored.
 */
export function narrowerSection(
  a: SandboxSection | undefined,
  b: SandboxSection | undefined,
): SandboxSection | undefined {
  if (!a || !b) return a ?? b;
  const mode =
    a.mode === undefined || b.mode === undefined
      ? (a.mode ?? b.mode)
      : STRICTNESS[a.mode] >= STRICTNESS[b.mode]
        ? a.mode
        : b.mode;
  const aHosts = a.network?.allow;
  const bHosts = b.network?.allow;
  const hosts =
    aHosts === undefined || bHosts === undefined
      ? (aHosts ?? bHosts)
      : aHosts.filter((host) => bHosts.includes(host));
  const joined = (x?: string[], y?: string[]) => (x || y ? [...(x ?? []), ...(y ?? [])] : undefined);
  const autoAllow = a.autoAllow === false || b.autoAllow === false ? false : (a.autoAllow ?? b.autoAllow);
  return {
    ...(mode !== undefined ? { mode } : {}),
    ...(hosts !== undefined ? { network: { allow: hosts } } : {}),
    ...(a.denyRead || b.denyRead ? { denyRead: joined(a.denyRead, b.denyRead) } : {}),
    ...(a.allowWrite || b.allowWrite ? { allowWrite: joined(a.allowWrite, b.allowWrite) } : {}),
    ...(a.allowUnconfined || b.allowUnconfined
      ? { allowUnconfined: joined(a.allowUnconfined, b.allowUnconfined) }
      : {}),
    ...(autoAllow !== undefined ? { autoAllow } : {}),
  };
}

/**
 * The run's sandbox settings as `geekagent config` lists them: the resolved policy, each key with
 * the file (or flag, or variable) its value came from. `layers` are the trusted ones.
 */
export function describeSandboxSettings(
  layers: readonly SectionLayer<SandboxSection>[],
  flag: { mode: SandboxMode | undefined; source: SettingSource },
): { settings: Setting[]; ignored: string[] } {
  const user = layers.find((layer) => layer.scope === 'user');
  const narrowing = layers.filter((layer) => layer.scope !== 'user');
  const project = narrowing.reduce<SandboxSection | undefined>(
    (joined, layer) => narrowerSection(joined, layer.value),
    undefined,
  );
  const { policy, ignored } = resolveSandboxPolicy(user?.value, project, flag.mode);
  const sourceOf = (key: string, has: (section: SandboxSection) => boolean): SettingSource => {
    const from = [...layers].reverse().find((layer) => has(layer.value));
    return from
      ? { kind: 'file', scope: from.scope, file: from.file, key: `sandbox.${key}` }
      : { kind: 'default' };
  };
  // Only the user's file may widen: these come from it or from nowhere.
  const userSource = (key: string, present: boolean): SettingSource =>
    user && present
      ? { kind: 'file', scope: 'user', file: user.file, key: `sandbox.${key}` }
      : { kind: 'default' };
  const settings: Setting[] = [
    {
      key: 'sandbox.mode',
      value: policy.mode,
      source:
        flag.mode !== undefined
          ? flag.source
          : sourceOf('mode', (section) => section.mode !== undefined && section.mode === policy.mode),
    },
    {
      key: 'sandbox.network.allow',
      value: policy.allowHosts,
      source: sourceOf('network.allow', (section) => section.network?.allow !== undefined),
    },
    {
      key: 'sandbox.denyRead',
      value: policy.denyRead,
      source: sourceOf('denyRead', (section) => section.denyRead !== undefined),
    },
    {
      key: 'sandbox.allowWrite',
      value: policy.allowWrite,
      source: userSource('allowWrite', user?.value.allowWrite !== undefined),
    },
    {
      key: 'sandbox.autoAllow',
      value: policy.autoAllow,
      source: sourceOf('autoAllow', (section) => section.autoAllow === policy.autoAllow),
    },
    {
      key: 'sandbox.allowUnconfined',
      value: policy.allowUnconfined,
      source: userSource('allowUnconfined', user?.value.allowUnconfined !== undefined),
    },
  ];
  return { settings, ignored };
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
