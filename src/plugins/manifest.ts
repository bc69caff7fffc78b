/**
 * Reading one plugin folder into its parts, in either format: a Claude Code plugin
 * (`.claude-plugin/plugin.json`; `commands/`, `agents/`, `skills/`, `hooks/hooks.json`, `.mcp.json`,
 * each path overridable in the manifest — an override adds to the default folder, as in Claude
 * Code) or a Gemini CLI extension (`gemini-extension.json`: `mcpServers`, `contextFileName`,
 * `excludeTools`; `commands/**.toml`). Nothing is run or expanded here except the plugin's own
 * folder variables (`${CLAUDE_PLUGIN_ROOT}`, `${extensionPath}`, `${/}`); every path stays inside
 * the folder and no link is followed. A part that cannot be read is a problem, not a failure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { commandFiles } from '../config/command-paths.js';
import { type HookSetting, readHookSettings } from '../config/hook-settings.js';
import { skillFolders } from '../config/skill-paths.js';
import { errorMessage } from '../util/errors.js';
import { folderFiles, insideRoot, isPlainDir, isPlainFile, reallyInside } from './files.js';

export const CLAUDE_MANIFEST = path.join('.claude-plugin', 'plugin.json');
export const GEMINI_MANIFEST = 'gemini-extension.json';
/** A plugin's name: what `plugin remove` takes and what namespaces its commands. */
export const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export type PluginFormat = 'claude' | 'gemini';

export interface PluginCommand {
  /** Its name inside the plugin (`review`, `frontend:review`). */
  name: string;
  file: string;
  kind: 'markdown' | 'toml';
}

export interface PluginParts {
  name: string;
  version?: string;
  description?: string;
  format: PluginFormat;
  /** The folder (absolute). */
  root: string;
  commands: PluginCommand[];
  /** Agent `.md` files. */
  agents: string[];
  /** Skill folders (each with a SKILL.md). */
  skills: string[];
  /** Command hooks, `${CLAUDE_PLUGIN_ROOT}` already replaced by the folder. */
  hooks: HookSetting[];
  /** MCP server entries by name (the mcp.json entry format), folder variables replaced. */
  servers: Record<string, unknown>;
  /** The file the servers come from (for messages). */
  serversFile: string;
  /** Gemini's context files: instructions for every session. */
  contextFiles: string[];
  /** Gemini's `excludeTools`: names the model is not offered while the extension is on. */
  excludeTools: string[];
  /** Parts that could not be read (`file: why`). */
  problems: string[];
}

export type PluginRead = { ok: true; plugin: PluginParts } | { ok: false; error: string };

export async function readPlugin(dir: string): Promise<PluginRead> {
  const root = path.resolve(dir);
  if (!isPlainDir(root)) return { ok: false, error: `${root} is not a folder` };
  try {
    // Checks the caps before anything is read.
    folderFiles(root);
    if (isPlainFile(path.join(root, CLAUDE_MANIFEST))) return { ok: true, plugin: await readClaude(root) };
    if (isPlainFile(path.join(root, GEMINI_MANIFEST))) return { ok: true, plugin: readGemini(root) };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
  return {
    ok: false,
    error: `${root}: no ${CLAUDE_MANIFEST} (a Claude Code plugin) or ${GEMINI_MANIFEST} (a Gemini CLI extension)`,
  };
}

function readObject(file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${errorMessage(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${file}: expected a JSON object`);
  return value as Record<string, unknown>;
}

function nameOf(file: string, manifest: Record<string, unknown>): string {
  const name = manifest.name;
  if (typeof name !== 'string' || !PLUGIN_NAME.test(name))
    throw new Error(`${file}: "name" must be 1-64 letters, digits, . _ or - (got ${JSON.stringify(name)})`);
  return name;
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A manifest path field: a string or a list of strings, each inside the folder. */
function manifestPaths(root: string, value: unknown, field: string, problems: string[]): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (!list || list.some((item) => typeof item !== 'string')) {
    problems.push(`${CLAUDE_MANIFEST}: "${field}" must be a path or a list of paths`);
    return [];
  }
  return (list as string[]).flatMap((item) => {
    const full = insideRoot(root, item);
    if (!full) {
      problems.push(`${CLAUDE_MANIFEST}: "${field}": ${item} is outside the plugin folder`);
      return [];
    }
    return [full];
  });
}

async function readClaude(root: string): Promise<PluginParts> {
  const manifestFile = path.join(root, CLAUDE_MANIFEST);
  const manifest = readObject(manifestFile);
  const problems: string[] = [];
  const name = nameOf(manifestFile, manifest);
  const vars = folderVariables(root);

  const commands: PluginCommand[] = [];
  const commandPlaces = [
    path.join(root, 'commands'),
    ...manifestPaths(root, manifest.commands, 'commands', problems),
  ];
  for (const place of places(root, commandPlaces)) {
    if (isPlainFile(place) && place.toLowerCase().endsWith('.md'))
      commands.push({ name: path.basename(place, path.extname(place)), file: place, kind: 'markdown' });
    else
      for (const found of commandFiles(place, false))
        commands.push({ name: found.name, file: found.file, kind: 'markdown' });
  }

  const agentPlaces = [
    path.join(root, 'agents'),
    ...manifestPaths(root, manifest.agents, 'agents', problems),
  ];
  const agents = places(root, agentPlaces).flatMap((place) =>
    isPlainFile(place) ? [place] : markdownFilesIn(place),
  );

  const skillPlaces = [
    path.join(root, 'skills'),
    ...manifestPaths(root, manifest.skills, 'skills', problems),
  ];
  const skills = unique(places(root, skillPlaces).flatMap((place) => skillFolders(place)));

  const hooks: HookSetting[] = [];
  const hookFiles = [path.join(root, 'hooks', 'hooks.json')];
  if (typeof manifest.hooks === 'object' && manifest.hooks !== null)
    problems.push(
      `${CLAUDE_MANIFEST}: inline "hooks" are not read: put them in a hooks file and name its path`,
    );
  else hookFiles.push(...manifestPaths(root, manifest.hooks, 'hooks', problems));
  for (const file of places(root, hookFiles)) {
    if (!isPlainFile(file)) continue;
    const read = await readHookSettings(file);
    if (read.problem) problems.push(read.problem);
    for (const hook of read.hooks) hooks.push({ ...hook, command: substitute(hook.command, vars) });
  }

  let servers: Record<string, unknown> = {};
  let serversFile = path.join(root, '.mcp.json');
  const inline = manifest.mcpServers;
  if (typeof inline === 'object' && inline !== null && !Array.isArray(inline)) {
    servers = inline as Record<string, unknown>;
    serversFile = manifestFile;
  } else {
    const named = manifestPaths(root, inline, 'mcpServers', problems)[0];
    if (named) serversFile = named;
    if (isPlainFile(serversFile) && reallyInside(root, serversFile)) {
      try {
        const document = readObject(serversFile);
        const inner = document.mcpServers;
        servers = (typeof inner === 'object' && inner !== null ? inner : document) as Record<string, unknown>;
      } catch (error) {
        problems.push(errorMessage(error));
      }
    }
  }

  return {
    name,
    version: optionalString(manifest.version),
    description: optionalString(manifest.description),
    format: 'claude',
    root,
    commands,
    agents,
    skills,
    hooks,
    servers: substituteAll(servers, vars) as Record<string, unknown>,
    serversFile,
    contextFiles: [],
    excludeTools: [],
    problems,
  };
}

function readGemini(root: string): PluginParts {
  const manifestFile = path.join(root, GEMINI_MANIFEST);
  const manifest = readObject(manifestFile);
  const problems: string[] = [];
  const name = nameOf(manifestFile, manifest);
  const vars = folderVariables(root);
  const commandsDir = path.join(root, 'commands');
  const commands: PluginCommand[] =
    isPlainDir(commandsDir) && reallyInside(root, commandsDir)
      ? folderFiles(commandsDir)
          .filter((file) => file.relative.toLowerCase().endsWith('.toml'))
          .map((file) => ({
            name: file.relative
              .replace(/\.toml$/i, '')
              .split('/')
              .join(':'),
            file: path.join(commandsDir, ...file.relative.split('/')),
            kind: 'toml' as const,
          }))
      : [];
  const named = manifest.contextFileName;
  const contextNames =
    typeof named === 'string'
      ? [named]
      : Array.isArray(named)
        ? named.filter((n) => typeof n === 'string')
        : ['GEMINI.md'];
  const contextFiles = contextNames.flatMap((item) => {
    const full = insideRoot(root, item);
    if (!full) {
      problems.push(`${GEMINI_MANIFEST}: contextFileName ${item} is outside the extension folder`);
      return [];
    }
    return isPlainFile(full) && reallyInside(root, full) ? [full] : [];
  });
  const exclude = manifest.excludeTools;
  const servers = manifest.mcpServers;
  return {
    name,
    version: optionalString(manifest.version),
    description: optionalString(manifest.description),
    format: 'gemini',
    root,
    commands,
    agents: [],
    skills: [],
    hooks: [],
    servers:
      typeof servers === 'object' && servers !== null && !Array.isArray(servers)
        ? (substituteAll(servers, vars) as Record<string, unknown>)
        : {},
    serversFile: manifestFile,
    contextFiles,
    excludeTools: Array.isArray(exclude)
      ? exclude.filter((item): item is string => typeof item === 'string')
      : [],
    problems,
  };
}

function markdownFilesIn(dir: string): string[] {
  if (!isPlainDir(dir)) return [];
  return folderFiles(dir)
    .filter((file) => !file.relative.includes('/') && file.relative.toLowerCase().endsWith('.md'))
    .map((file) => path.join(dir, file.relative));
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/** Places that exist inside the plugin folder once links are resolved (a link out is not read). */
function places(root: string, items: string[]): string[] {
  return unique(items).filter((place) => reallyInside(root, place));
}

/** The variables a plugin may use for its own folder: Claude Code's and Gemini CLI's spellings. */
function folderVariables(root: string): Record<string, string> {
  return { CLAUDE_PLUGIN_ROOT: root, extensionPath: root, '/': path.sep, pathSeparator: path.sep };
}

function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\$\{(CLAUDE_PLUGIN_ROOT|extensionPath|\/|pathSeparator)\}/g,
    (_all, name: string) => vars[name]!,
  );
}

function substituteAll(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return substitute(value, vars);
  if (Array.isArray(value)) return value.map((item) => substituteAll(item, vars));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteAll(item, vars)]));
  return value;
}
