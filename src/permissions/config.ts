/**
 * The permission config files: the optional `<project>/.geekagent/GeekAgent.json` (the project's
 * declarations; never created: a folder nobody configured gets nothing written into it), the
 * person's "always" answers for the folder in their own state (answers-file.ts) and the optional
 * `<home>/.geekagent/GeekAgent.json` (rules only).
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { type SandboxSection, sandboxSectionSchema } from '../sandbox/index.js';
import { ConfigError, describeSchemaError, readJsonFile } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { type AnnotationRules, annotationRulesSchema } from './annotations.js';
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

/** Loose at the top level: later features add their own keys to the same file. */
export const permissionFileSchema = z.looseObject({
  root: z.optional(z.string()),
  tools: z.optional(z.record(z.string(), z.enum(['allow', 'ask', 'deny']))),
  annotations: z.optional(annotationRulesSchema),
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
  sandbox: z.optional(sandboxSectionSchema),
  approvalMode: z.optional(z.enum(APPROVAL_MODES)),
});

type PermissionFile = z.infer<typeof permissionFileSchema>;

const CONFIG_DIR = '.geekagent';
const CONFIG_NAME = 'GeekAgent.json';

function permissionFilePath(baseDir: string): string {
  return path.join(baseDir, CONFIG_DIR, CONFIG_NAME);
}

export async function loadPermissionConfig(options: {
  projectDir: string;
  homeDir: string;
  /** Where user-level state lives (`userStateDir`); default `<homeDir>/.geekagent`. */
  userDir?: string;
}): Promise<PermissionConfig> {
  const projectDir = path.resolve(options.projectDir);
  const projectFile = permissionFilePath(projectDir);
  const userDir = path.resolve(options.userDir ?? path.join(options.homeDir, CONFIG_DIR));
  const userFile = path.join(userDir, CONFIG_NAME);
  const answersFile = answersFilePath(userDir, projectDir);

  // Missing: nothing is created (the root is the folder itself; see resolveRoot).
  const project: PermissionFile = (await readPermissionFile(projectFile)) ?? {};
  const root = await resolveRoot(projectFile, project.root, projectDir);

  // Home may be the project itself (agent started in ~): then there is one file, not two layers.
  const user = userFile === projectFile ? undefined : await readPermissionFile(userFile);

  return {
    root,
    projectFile,
    projectRules: withoutRepeatedDefaults(project.tools ?? {}),
    answersFile,
    answerRules: await readAnswers(answersFile),
    userFile,
    userRules: { ...user?.tools },
    projectAnnotations: { ...project.annotations },
    userAnnotations: { ...user?.annotations },
    projectFetchAllow: [...(project.fetch?.allowHosts ?? [])],
    userFetchAllow: [...(user?.fetch?.allowHosts ?? [])],
    projectSandbox: project.sandbox,
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

async function readPermissionFile(file: string): Promise<PermissionFile | undefined> {
  const read = await readJsonFile(file);
  return read.kind === 'missing' ? undefined : validate(file, read.value);
}

function validate(file: string, value: unknown): PermissionFile {
  const parsed = permissionFileSchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(describeSchemaError(file, parsed.error), file);
  return parsed.data;
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
export async function readSandboxSections(options: {
  projectDir: string;
  homeDir: string;
  userDir?: string;
}): Promise<{ user: SandboxSection | undefined; project: SandboxSection | undefined }> {
  const projectFile = permissionFilePath(path.resolve(options.projectDir));
  const userFile = path.join(
    path.resolve(options.userDir ?? path.join(options.homeDir, CONFIG_DIR)),
    CONFIG_NAME,
  );
  const project = await readPermissionFile(projectFile);
  const user = userFile === projectFile ? undefined : await readPermissionFile(userFile);
  return { user: user?.sandbox, project: project?.sandbox };
}
