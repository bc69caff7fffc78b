/**
 * Where custom slash commands live and how a file's path becomes a command's name: the project's
 * `.geekagent/commands/` and `.claude/commands/`, the person's `<userStateDir>/commands/` and
 * `~/.claude/commands/`. Every `*.md` below a location is a command; sub-folders namespace it
 * (`frontend/review.md` → `frontend:review`). Shared by custom-commands/ and the trust declarations,
 * so what the trust question lists is what loads.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_COMMAND_DIRS = ['.geekagent/commands', '.claude/commands'];
/** Nesting below a location that is still read (`a/b/c/x.md` is `a:b:c:x`). */
const MAX_DEPTH = 4;
/** Files read per location at most: a huge tree is cut, not walked. */
const MAX_FILES = 500;

export interface CommandFile {
  /** Absolute path of the `.md` file. */
  file: string;
  /** The name it gives (`frontend:review`), before checking. */
  name: string;
  /** Its location (the `commands` folder it is in). */
  location: string;
}

export function projectCommandLocations(projectDir: string): string[] {
  return PROJECT_COMMAND_DIRS.map((sub) => path.join(projectDir, sub));
}

export function userCommandLocations(userDir: string, homeDir: string): string[] {
  return [path.join(userDir, 'commands'), path.join(homeDir, '.claude', 'commands')];
}

/** `frontend/review.md` → `frontend:review`. */
export function commandNameOf(relative: string): string {
  return relative
    .replace(/\.md$/i, '')
    .split(/[\\/]/)
    .filter((part) => part !== '')
    .join(':');
}

/**
 * The `.md` files below `location`, sorted by path; a missing location is empty. `followLinks`:
 * the person's own folders follow symbolic links (dotfiles managers link them); a project's never
 * do, so a planted link cannot make a file elsewhere a command.
 */
export function commandFiles(location: string, followLinks: boolean): CommandFile[] {
  const out: CommandFile[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length >= MAX_FILES) return;
      const full = path.join(dir, name);
      let isDir = false;
      let isFile = false;
      try {
        const stats = followLinks ? statSync(full) : lstatSync(full);
        isDir = stats.isDirectory();
        isFile = stats.isFile();
      } catch {
        continue;
      }
      if (isDir && depth < MAX_DEPTH && !name.startsWith('.')) walk(full, depth + 1);
      else if (name.toLowerCase().endsWith('.md') && (isFile || !followLinks))
        out.push({ file: full, name: commandNameOf(path.relative(location, full)), location });
    }
  };
  walk(location, 0);
  return out;
}
