/**
 * The permission config files: the optional `<project>/.geekagent/GeekAgent.json` (the project's
 * declarations; never created: a folder nobody configured gets nothing written into it), its
 * git-ignored `GeekAgent.local.json` (narrowing only: `ask`/`deny` rules and sandbox narrowing),
 * the person's "always" answers for the folder in their own state (answers-file.ts) and the
 * optional `<home>/.geekagent/GeekAgent.json` (rules only). Read through the run's settings model
 * (settings/): this file declares the permission section.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { narrowerSection, type SandboxSection, sandboxSectionSchema } from '../sandbox/index.js';
import { type SettingsFiles, type SettingsScope, settingsFilePath } from '../settings/files.js';
import { readSectionFile, type SettingsSection } from '../settings/section.js';
import { ConfigError } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { type AnnotationRules, annotationRulesSchema, POLICY_STRICTNESS } from './annotations.js';
import { answersFilePath, readAnswers } from './answers-file.js';
import { APPROVAL_MODES, type ApprovalModeName } from './approval-mode.js';
import { BUILTIN_POLICIES } from './defaults.js';
import { parseAllowEntry } from './network.js';
import type { Policy } from './types.js';

export interface PermissionConfig {
  /** Absolute permission root. */
  root: string;
  projectFile: string;
  projectRules: Record<string, Policy>;
  /** The person's "always" answers for this folder (`<userDir>/projects/<key>/permissions.json`). */
  answersFile: string;
  answerRules: Record<string, Policy>;
  userFile: string;
  userRules: Record<string, Policy>;
  /** Policies by MCP annotation (`annotations`) of each file. */
  projectAnnotations: AnnotationRules;
  userAnnotations: AnnotationRules;
  /** `fetch.allowHosts` of each file: hosts `fetch` may reach although private (permissions/network.ts). */
  projectFetchAllow: string[];
  userFetchAllow: string[];
  /** `sandbox` of each file: the user's sets the run's sandbox, a trusted project's only narrows it. */
  projectSandbox: SandboxSection | undefined;
  userSandbox: SandboxSection | undefined;
  /** `approvalMode` of each file: the user's is the run's default; a project's is never used. */
  userApprovalMode: ApprovalModeName | undefined;
  projectApprovalMode: ApprovalModeName | undefined;
}

function buildPermissionFileSchema() {
  return z.looseObject({
    root: z.optional(z.string()),
    tools: z.optional(z.record(z.string(), z.enum(['allow', 'ask', 'deny']))),
    annotations: z.optional(annotationRulesSchema()),
    fetch: z.optional(
      z.looseObject({
        allowHosts: z.optional(
          z.array(
            z.string().check(
              z.superRefine((entry, ctx) => {
                const parsed = parseAllowEntry(entry);
                if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
              }),
            ),
          ),
        ),
      }),
    ),
    sandbox: z.optional(sandboxSectionSchema()),
    approvalMode: z.optional(z.enum(APPROVAL_MODES)),
  });
}

/**
 * Loose at the top level: later features add their own keys to the same file. Built on first use:
 * a start with no GeekAgent.json never needs it.
 */
export const permissionFileSchema = z.lazySchema(buildPermissionFileSchema);

type PermissionFile = z.infer<ReturnType<typeof buildPermissionFileSchema>>;

/**
 * The whole GeekAgent.json as permissions read it (other features read their own keys of the
 * same file). User and project rules are layers the policy store ranks; project-local only narrows.
 */
export const permissionSettingsSection: SettingsSection<PermissionFile> = {
  key: '',
  file: 'GeekAgent.json',
  get schema() {
    return permissionFileSchema();
  },
  scopes: { user: 'listed', project: 'listed', 'project-local': 'narrow' },
  invalid: 'throw',
};

const CONFIG_DIR = '.geekagent';

interface PermissionOptions {
  projectDir: string;
  homeDir: string;
  /** Where user-level state lives (`userStateDir`); default `<homeDir>/.geekagent`. */
  userDir?: string;
  /** The run's settings reads (each file read once); left out, the files are read now. */
  files?: SettingsFiles;
}

/** The three files, by scope (absolute). */
function permissionFiles(options: PermissionOptions): Record<SettingsScope, string> & { userDir: string } {
  const projectDir = path.resolve(options.projectDir);
  const userDir = path.resolve(options.userDir ?? path.join(options.homeDir, CONFIG_DIR));
  const places = { projectDir, userDir };
  const at = (scope: SettingsScope) => settingsFilePath('GeekAgent.json', scope, places) as string;
  return { user: at('user'), project: at('project'), 'project-local': at('project-local'), userDir };
}

export async function loadPermissionConfig(options: PermissionOptions): Promise<PermissionConfig> {
  const projectDir = path.resolve(options.projectDir);
  const files = permissionFiles(options);
  const { userDir, project: projectFile, user: userFile } = files;
  const answersFile = answersFilePath(userDir, projectDir);

  // Missing: nothing is created (the root is the folder itself; see resolveRoot).
  const project: PermissionFile = (await readPermissionFile(options.files, projectFile)) ?? {};
  const root = await resolveRoot(projectFile, project.root, projectDir);
  const local = narrowingOnly(await readPermissionFile(options.files, files['project-local']));

  // Home may be the project itself (agent started in ~): then there is one file, not two layers.
  const user = userFile === projectFile ? undefined : await readPermissionFile(options.files, userFile);

  return {
    root,
    projectFile,
    projectRules: tighter(withoutRepeatedDefaults(project.tools ?? {}), local.tools),
    answersFile,
    answerRules: await readAnswers(answersFile),
    userFile,
    userRules: { ...user?.tools },
    projectAnnotations: tighterAnnotations({ ...project.annotations }, local.annotations),
    userAnnotations: { ...user?.annotations },
    projectFetchAllow: [...(project.fetch?.allowHosts ?? [])],
    userFetchAllow: [...(user?.fetch?.allowHosts ?? [])],
    projectSandbox: narrowerSection(project.sandbox, local.sandbox),
    userSandbox: user?.sandbox,
    userApprovalMode: user?.approvalMode,
    projectApprovalMode: project.approvalMode,
  };
}

/**
 * Files created by older versions list every built-in default (recognised by two or more repeated
 * `allow` defaults). Such an entry is not a decision anybody made, and as a project rule it would
 * outrank the user's file: it stays a default. In any other file a repeated `ask` is a decision
 * (it only asks more: `"run_shell": "ask"` asks even for a confined command); a repeated `allow`
 * changes nothing and stays a default.
 */
function withoutRepeatedDefaults(rules: Record<string, Policy>): Record<string, Policy> {
  const repeats = (name: string) =>
    Object.hasOwn(BUILTIN_POLICIES, name) && BUILTIN_POLICIES[name] === rules[name];
  const copied = Object.keys(rules).filter((name) => repeats(name) && rules[name] === 'allow').length >= 2;
  return Object.fromEntries(
    Object.entries(rules).filter(([name, policy]) => !repeats(name) || (!copied && policy === 'ask')),
  );
}

/** Missing: undefined; broken (syntax or schema): a ConfigError naming the file and the place. */
async function readPermissionFile(
  files: SettingsFiles | undefined,
  file: string,
): Promise<PermissionFile | undefined> {
  const read = await readSectionFile(files, permissionSettingsSection, file);
  return read.found ? read.value : undefined;
}

/**
 * What a project-local file may do: tighten. Its `ask`/`deny` rules (tools and annotations) join
 * the project's and its sandbox section narrows; its allows, hosts, root and approval mode are
 * not used (a file in the folder is not the person's own file, whoever wrote it).
 */
function narrowingOnly(file: PermissionFile | undefined): {
  tools: Record<string, Policy>;
  annotations: AnnotationRules;
  sandbox: SandboxSection | undefined;
} {
  const tools = Object.fromEntries(
    Object.entries(file?.tools ?? {}).filter(([, policy]) => policy !== 'allow'),
  );
  const annotations: AnnotationRules = {};
  for (const [pattern, hints] of Object.entries(file?.annotations ?? {})) {
    const tight = Object.fromEntries(Object.entries(hints).filter(([, policy]) => policy !== 'allow'));
    if (Object.keys(tight).length > 0) annotations[pattern] = tight;
  }
  return { tools, annotations, sandbox: file?.sandbox };
}

/** `base` with each of `narrowing`'s rules where it is stricter: a narrowing file never loosens. */
function tighter(base: Record<string, Policy>, narrowing: Record<string, Policy>): Record<string, Policy> {
  const merged = { ...base };
  for (const [pattern, policy] of Object.entries(narrowing)) {
    const current = merged[pattern];
    if (current === undefined || POLICY_STRICTNESS[policy] > POLICY_STRICTNESS[current])
      merged[pattern] = policy;
  }
  return merged;
}

function tighterAnnotations(base: AnnotationRules, narrowing: AnnotationRules): AnnotationRules {
  const merged: AnnotationRules = { ...base };
  for (const [pattern, hints] of Object.entries(narrowing)) {
    merged[pattern] = tighter(
      (merged[pattern] ?? {}) as Record<string, Policy>,
      hints as Record<string, Policy>,
    ) as AnnotationRules[string];
  }
  return merged;
}

/** `root` is relative to the config file's folder, so ".." is the project folder. */
async function resolveRoot(file: string, root: string | undefined, projectDir: string): Promise<string> {
  if (root === undefined) return projectDir;
  const resolved = path.resolve(path.dirname(file), root);
  const where = `${file}: at root: "${root}" is ${resolved}`;
  let info: Stats;
  try {
    info = await stat(resolved);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'which does not exist'
        : `which cannot be checked: ${(error as Error).message}`;
    throw new ConfigError(`${where}, ${why}`, file);
  }
  if (!info.isDirectory()) throw new ConfigError(`${where}, which is not a directory`, file);
  return resolved;
}

/**
 * The `sandbox` section of each file, read without creating anything: for a run that builds no
 * tool runtime (`geekagent mcp …`) but starts confined servers. A broken file throws.
 */
export async function readSandboxSections(
  options: PermissionOptions,
): Promise<{ user: SandboxSection | undefined; project: SandboxSection | undefined }> {
  const files = permissionFiles(options);
  const project = await readPermissionFile(options.files, files.project);
  const local = await readPermissionFile(options.files, files['project-local']);
  const user = files.user === files.project ? undefined : await readPermissionFile(options.files, files.user);
  return { user: user?.sandbox, project: narrowerSection(project?.sandbox, local?.sandbox) };
}
