/**
 * Finding and reading skills: every SKILL.md in the project and user locations (config/
 * skill-paths.ts), in both formats — the described system's (`description:` and a `tools:`
 * whitelist) and the Agent Skills format (`name`, `description`, `allowed-tools`, `license`,
 * `compatibility`, `metadata`). A skill that cannot be read is listed with its error, never fatal;
 * the first of a name wins (project before user, nearest folder first).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FrontmatterError, parseFrontmatter } from '../config/frontmatter.js';
import {
  projectSkillLocations,
  SKILL_FILE,
  skillFolders,
  userSkillLocations,
} from '../config/skill-paths.js';
import { errorMessage } from '../util/errors.js';
import { preApprovedTools, toolList } from './manifest.js';
import { readSkillTools, type SkillTool } from './skill-tools.js';

/** The Agent Skills spec's name: 1-64 of a-z 0-9 and hyphens, no hyphen at either end or twice in a row. */
export const NAME_PATTERN = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/;
export const MAX_DESCRIPTION = 1024;
export const MAX_COMPATIBILITY = 500;

/** What is wrong with a skill's `description` (both SKILL.md sources), or undefined. */
export function descriptionProblem(description: unknown): string | undefined {
  if (typeof description !== 'string' || description.trim() === '')
    return 'description is missing (one line saying when to use the skill)';
  if (description.length > MAX_DESCRIPTION)
    return `description is ${description.length} characters (at most ${MAX_DESCRIPTION})`;
  return undefined;
}

export type SkillStatus =
  | { kind: 'ok' }
  | { kind: 'error'; message: string; line: number }
  /**
   * A project skill in a folder that is not trusted, or (`changed`) one a reload found new or
   * changed since the person trusted the folder and they have not trusted it: listed, not loaded.
   */
  | { kind: 'untrusted'; changed?: boolean }
  /** Another skill of the same name came first. */
  | { kind: 'shadowed'; by: string };

export interface Skill {
  name: string;
  description: string;
  /** `server`: offered by an MCP server (server-skills.ts), named `<server>:<skill>`. */
  source: 'project' | 'user' | 'server';
  dir: string;
  file: string;
  body: string;
  /** The visible tools while active (`tools:` or `allowed-tools`); undefined: no limit. */
  whitelist?: string[];
  /** `allowed-tools` (the spec's sense): also pre-approved in a turn the person activates it in. */
  preApproved: boolean;
  /** `mcp.json` next to SKILL.md: servers that run while the skill is active. */
  mcpFile?: string;
  /** Executables declared in `tools_exec:` (skill-tools.ts). */
  tools: SkillTool[];
  status: SkillStatus;
  /** A server's skill: the server, and the URIs of the skill's other files there. */
  server?: { name: string; files: string[] };
}

export interface DiscoverOptions {
  cwd: string;
  userDir: string;
  homeDir: string;
  projectTrusted: boolean;
  /** Skill folders of the run's plugins (plugins/load.ts): after the person's own, as theirs. */
  pluginSkills?: readonly string[];
}

/** `held`: project skill folders a reload holds back until the person trusts them (trust/reload.ts). */
export async function discoverSkills(
  options: DiscoverOptions,
  held: ReadonlySet<string> = new Set(),
): Promise<Skill[]> {
  const found: Array<[string, 'project' | 'user']> = [
    ...projectSkillLocations(options.cwd).flatMap((l) =>
      skillFolders(l).map((d) => [d, 'project'] as [string, 'project']),
    ),
    ...userSkillLocations(options.userDir, options.homeDir).flatMap((l) =>
      skillFolders(l).map((d) => [d, 'user'] as [string, 'user']),
    ),
    ...(options.pluginSkills ?? []).map((d) => [d, 'user'] as [string, 'user']),
  ];
  const seen = new Set<string>();
  const byName = new Map<string, Skill>();
  const out: Skill[] = [];
  for (const [dir, source] of found) {
    const real = path.resolve(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    const skill = await readSkill(dir, source);
    if (source === 'project' && skill.status.kind === 'ok') {
      if (!options.projectTrusted) skill.status = { kind: 'untrusted' };
      else if (held.has(dir)) skill.status = { kind: 'untrusted', changed: true };
    }
    const first = byName.get(skill.name);
    if (first && skill.status.kind !== 'error') skill.status = { kind: 'shadowed', by: first.file };
    else if (!first) byName.set(skill.name, skill);
    out.push(skill);
  }
  return out;
}

export async function readSkill(dir: string, source: 'project' | 'user'): Promise<Skill> {
  const file = path.join(dir, SKILL_FILE);
  const base: Skill = {
    name: path.basename(dir),
    description: '',
    source,
    dir,
    file,
    body: '',
    preApproved: false,
    tools: [],
    status: { kind: 'ok' },
  };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ...base, status: { kind: 'error', message: errorMessage(error), line: 1 } };
  }
  try {
    const front = parseFrontmatter(text);
    const fail = (message: string, key: string): Skill => ({
      ...base,
      status: { kind: 'error', message, line: front.lines[key] ?? 1 },
    });
    const name = front.fields.name ?? base.name;
    if (typeof name !== 'string' || !NAME_PATTERN.test(name))
      return fail(
        `name "${String(name)}" must be 1-64 lowercase letters, digits or hyphens (no hyphen at the start, the end or twice in a row)`,
        'name',
      );
    // The spec: the name is the folder's name (a skill is found, and shadowed, by its folder).
    if (name !== base.name)
      return fail(`name "${name}" differs from its folder "${base.name}" (rename one to match)`, 'name');
    const description = front.fields.description;
    const badDescription = descriptionProblem(description);
    if (badDescription !== undefined || typeof description !== 'string')
      return fail(badDescription ?? 'description is missing', 'description');
    const compatibility = front.fields.compatibility;
    if (compatibility !== undefined) {
      if (typeof compatibility !== 'string' || compatibility.trim() === '')
        return fail('compatibility must be a non-empty text (what the skill needs to run)', 'compatibility');
      if (compatibility.length > MAX_COMPATIBILITY)
        return fail(
          `compatibility is ${compatibility.length} characters (at most ${MAX_COMPATIBILITY})`,
          'compatibility',
        );
    }
    const listed = front.fields.tools;
    const allowed = front.fields['allowed-tools'];
    const whitelist =
      listed !== undefined ? toolList(listed) : allowed !== undefined ? toolList(allowed) : undefined;
    if (whitelist === null)
      return fail('tools must be a list of tool names or patterns', listed ? 'tools' : 'allowed-tools');
    const declared = front.fields.tools_exec;
    const tools = declared === undefined ? [] : readSkillTools(name, dir, declared);
    if (typeof tools === 'string') return fail(tools, 'tools_exec');
    const mcpFile = path.join(dir, 'mcp.json');
    return {
      ...base,
      name,
      tools,
      ...(existsSync(mcpFile) ? { mcpFile } : {}),
      description: description.trim(),
      body: front.body.trim(),
      ...(whitelist ? { whitelist } : {}),
      preApproved: preApprovedTools(front.fields) !== undefined,
    };
  } catch (error) {
    const line = error instanceof FrontmatterError ? error.line : 1;
    return { ...base, status: { kind: 'error', message: errorMessage(error), line } };
  }
}
