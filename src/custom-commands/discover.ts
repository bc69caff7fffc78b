/**
 * Finding the custom commands (config/command-paths.ts): project ones first (`.geekagent/commands`,
 * then `.claude/commands`), then the person's (`<userStateDir>/commands`, then
 * `~/.claude/commands`); the first of a name wins, as in Claude Code (project over user). A project
 * folder's commands load only when the folder is trusted (they are trust declarations); untrusted,
 * they are listed by name and never read — as are the files a reload holds back (`held`: new or
 * changed since the person trusted the folder, trust/reload.ts). Plugins' commands (plugins/load.ts)
 * come last: one whose name is taken is named `<plugin>:<name>`.
 */
import { realpathSync } from 'node:fs';
import {
  type CommandFile,
  commandFiles,
  projectCommandLocations,
  userCommandLocations,
} from '../config/command-paths.js';
import type { PluginCommandSource } from '../plugins/load.js';
import { type CustomCommand, readCommand } from './parse.js';

export interface DiscoverOptions {
  projectDir: string;
  userDir: string;
  homeDir: string;
  projectTrusted: boolean;
  /** Commands of the run's plugins (already trusted: installed by the person or trusted with the folder). */
  plugins?: readonly PluginCommandSource[];
}

export interface DiscoverState {
  /** Project command files a reload holds back until the person trusts them. */
  held?: ReadonlySet<string>;
}

export async function discoverCommands(
  options: DiscoverOptions,
  state: DiscoverState = {},
): Promise<CustomCommand[]> {
  const seenLocations = new Set<string>();
  const located: Array<[CommandFile, 'project' | 'user']> = [];
  const add = (locations: string[], source: 'project' | 'user') => {
    for (const location of locations) {
      const real = realOrSelf(location);
      // The project's `.geekagent` may be the user state folder itself: read once, as the person's.
      if (seenLocations.has(real)) continue;
      seenLocations.add(real);
      for (const file of commandFiles(location, source === 'user')) located.push([file, source]);
    }
  };
  add(userCommandLocations(options.userDir, options.homeDir), 'user');
  const userFiles = located.splice(0);
  add(projectCommandLocations(options.projectDir), 'project');
  located.push(...userFiles);

  const byName = new Map<string, CustomCommand>();
  const out: CustomCommand[] = [];
  for (const [found, source] of located) {
    const held = source === 'project' && state.held?.has(found.file) === true;
    const command =
      source === 'project' && (!options.projectTrusted || held)
        ? untrusted(found, held)
        : await readCommand(found.file, found.name, source, source === 'user');
    const first = byName.get(command.name);
    if (command.status.kind === 'ok') {
      if (first) command.status = { kind: 'shadowed', by: first.file };
      else byName.set(command.name, command);
    }
    out.push(command);
  }
  for (const source of options.plugins ?? []) {
    const command =
      source.kind === 'toml'
        ? // The TOML parser loads only for a Gemini extension's commands.
          await (await import('./toml.js')).readTomlCommand(source.file, source.name)
        : await readCommand(source.file, source.name, 'user', false);
    command.plugin = source.plugin;
    if (command.status.kind === 'ok') {
      if (byName.has(command.name)) command.name = `${source.plugin}:${source.name}`;
      const first = byName.get(command.name);
      if (first) command.status = { kind: 'shadowed', by: first.file };
      else byName.set(command.name, command);
    }
    out.push(command);
  }
  return out;
}

function untrusted(found: CommandFile, changed: boolean): CustomCommand {
  return {
    name: found.name,
    source: 'project',
    file: found.file,
    description: '',
    allowedTools: [],
    ignoredTools: [],
    body: '',
    status: changed ? { kind: 'untrusted', changed } : { kind: 'untrusted' },
  };
}

function realOrSelf(location: string): string {
  try {
    return realpathSync(location);
  } catch {
    return location;
  }
}
