/**
 * Folder trust's share of custom commands: a project's command files (`.geekagent/commands/**.md`,
 * `.claude/commands/**.md`): each file by its path and the hash of its content, so a new or edited
 * command asks again. A command's text becomes the turn it runs, its `!` lines run shell commands,
 * its `allowed-tools` pre-approve tools and its `model` picks the model: nothing of it loads before
 * the person trusts the folder. Read raw with the same walker the commands use.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { commandFiles, projectCommandLocations } from '../config/command-paths.js';
import type { Declaration, TrustContributor } from '../trust/declarations.js';

/** Larger files do not load (custom-commands/parse.ts): hashed by their size alone. */
const HASH_LIMIT = 1024 * 1024;

export const commandTrust: TrustContributor = {
  name: 'commands',
  kinds: ['command'],
  read: ({ projectDir }) => commandDeclarations(projectDir),
  was: (item) => `${item.text} (a different text)`,
};

export function commandDeclarations(projectDir: string): Declaration[] {
  return projectCommandLocations(projectDir).flatMap((location) =>
    commandFiles(location, false).flatMap((found): Declaration[] => {
      const relative = path.relative(projectDir, found.file);
      let value: string;
      try {
        const stats = lstatSync(found.file);
        // A link or special file never loads as a command: nothing to trust.
        if (!stats.isFile()) return [];
        value =
          stats.size > HASH_LIMIT
            ? `size:${stats.size}`
            : `sha256:${createHash('sha256').update(readFileSync(found.file)).digest('hex')}`;
      } catch {
        return [];
      }
      return [
        {
          key: `command:${relative}`,
          kind: 'command',
          name: found.name,
          file: found.file,
          value,
          text: commandText(found.name, relative),
        },
      ];
    }),
  );
}

export function commandText(name: string, relative: string): string {
  return `custom command /${name} (${relative}: its prompt, !\`shell\` lines, allowed-tools, model)`;
}
