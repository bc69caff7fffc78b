/**
 * Where skills live: the project's `skills/`, `.geekagent/skills/`, `.agents/skills/` and
 * `.claude/skills/` in every folder from the working folder up to the git root (nearest first), and
 * the person's `<userStateDir>/skills/` and `~/.agents/skills/`. Also lists the skill folders of one
 * location (a sub-folder holding a SKILL.md). Shared by skills/ and the trust declarations.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_SKILL_DIRS = ['skills', '.geekagent/skills', '.agents/skills', '.claude/skills'];
export const SKILL_FILE = 'SKILL.md';

/** Folders from `cwd` up to the git root (only `cwd` outside a git repository), nearest first. */
export function foldersToGitRoot(cwd: string): string[] {
  const out: string[] = [];
  let dir = path.resolve(cwd);
  for (;;) {
    out.push(dir);
    if (existsSync(path.join(dir, '.git'))) return out;
    const parent = path.dirname(dir);
    if (parent === dir) return [path.resolve(cwd)];
    dir = parent;
  }
}

export function projectSkillLocations(cwd: string): string[] {
  return foldersToGitRoot(cwd).flatMap((folder) => PROJECT_SKILL_DIRS.map((sub) => path.join(folder, sub)));
}

export function userSkillLocations(userDir: string, homeDir: string): string[] {
  return [path.join(userDir, 'skills'), path.join(homeDir, '.agents', 'skills')];
}

/** Sub-folders of `location` with a SKILL.md, sorted by name; a missing location is empty. */
export function skillFolders(location: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(location).sort();
  } catch {
    return [];
  }
  return entries
    .map((name) => path.join(location, name))
    .filter((dir) => {
      try {
        return lstatSync(dir).isDirectory() && lstatSync(path.join(dir, SKILL_FILE)).isFile();
      } catch {
        return false;
      }
    });
}
