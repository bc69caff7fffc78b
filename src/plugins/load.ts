/**
 * The plugins a run uses, and what each feature reads from them: the person's installed and
 * enabled plugins (each copy checked against the hash it was installed with — a copy changed
 * since is left out until installed again, which shows it and asks), then a trusted project's
 * `.geekagent/plugins.json` (an untrusted folder's are never read; the trust question listed
 * them). A plugin's parts join the features through the lists below (commands, agents, skills,
 * hooks, MCP servers, context files); a name clash with a user plugin leaves the project's out.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { HookSetting } from '../config/hook-settings.js';
import { errorMessage } from '../util/errors.js';
import { folderHash, isPlainDir } from './files.js';
import { type PluginParts, readPlugin } from './manifest.js';
import { projectSource, readProjectPlugins } from './project.js';
import { type InstalledPlugin, pluginsDir, readInstalled } from './store.js';

export type PluginScope = 'user' | 'project';

export interface ActivePlugin {
  scope: PluginScope;
  source: string;
  parts: PluginParts;
}

/** A plugin found but not used this run, and why. */
export interface PluginLeftOut {
  name: string;
  scope: PluginScope;
  reason: string;
}

export interface LoadedPlugins {
  active: ActivePlugin[];
  leftOut: PluginLeftOut[];
}

export const NO_PLUGINS: LoadedPlugins = { active: [], leftOut: [] };

export interface LoadOptions {
  userDir: string;
  projectDir: string;
  projectTrusted: boolean;
}

export async function loadPlugins(options: LoadOptions): Promise<LoadedPlugins> {
  const active: ActivePlugin[] = [];
  const leftOut: PluginLeftOut[] = [];
  let installed: Record<string, InstalledPlugin> = {};
  try {
    installed = await readInstalled(options.userDir);
  } catch (error) {
    leftOut.push({ name: 'installed.json', scope: 'user', reason: errorMessage(error) });
  }
  for (const [name, record] of Object.entries(installed)) {
    if (record.projectOnly) continue;
    if (!record.enabled) {
      leftOut.push({ name, scope: 'user', reason: 'disabled' });
      continue;
    }
    const checked = await checkedCopy(options.userDir, name, record);
    if ('reason' in checked) leftOut.push({ name, scope: 'user', reason: checked.reason });
    else active.push({ scope: 'user', source: record.source, parts: checked.parts });
  }
  if (options.projectTrusted) {
    let entries: Awaited<ReturnType<typeof readProjectPlugins>> = [];
    try {
      entries = await readProjectPlugins(options.projectDir);
    } catch (error) {
      leftOut.push({ name: 'plugins.json', scope: 'project', reason: errorMessage(error) });
    }
    for (const entry of entries) {
      const out = (reason: string) => leftOut.push({ name: entry.name, scope: 'project', reason });
      if (!entry.enabled) {
        out('disabled in .geekagent/plugins.json');
        continue;
      }
      if (active.some((plugin) => plugin.parts.name === entry.name)) {
        out('a plugin of yours has this name');
        continue;
      }
      const read = await projectPlugin(options, installed, entry.source);
      if ('reason' in read) out(read.reason);
      else if (read.parts.name !== entry.name)
        out(`its manifest names it ${read.parts.name}, not ${entry.name}`);
      else active.push({ scope: 'project', source: entry.source, parts: read.parts });
    }
  }
  return { active, leftOut };
}

type Checked = { parts: PluginParts } | { reason: string };

/** An installed copy: inside the store, not a link, unchanged since it was installed. */
async function checkedCopy(userDir: string, name: string, record: InstalledPlugin): Promise<Checked> {
  const cache = path.join(pluginsDir(userDir), 'cache');
  const dir = path.resolve(record.dir);
  if (path.relative(cache, dir).startsWith('..') || !isPlainDir(dir))
    return { reason: `its copy ${dir} is missing or not in ${cache}: install it again` };
  let hash: string;
  try {
    hash = folderHash(dir);
  } catch (error) {
    return { reason: errorMessage(error) };
  }
  if (hash !== record.hash)
    return {
      reason: `its files changed since you installed it: not loaded; run geekagent plugin install ${record.source} to review it again`,
    };
  const read = await readPlugin(dir);
  if (!read.ok) return { reason: read.error };
  if (read.plugin.name !== name) return { reason: `its manifest now names it ${read.plugin.name}` };
  return { parts: read.plugin };
}

async function projectPlugin(
  options: LoadOptions,
  installed: Record<string, InstalledPlugin>,
  source: string,
): Promise<Checked> {
  const where = projectSource(options.projectDir, source);
  if (where.kind === 'invalid') return { reason: where.reason };
  if (where.kind === 'marketplace') {
    const record = installed[where.plugin];
    if (!record || record.source !== source)
      return { reason: `not installed: run geekagent plugin install ${source}` };
    return checkedCopy(options.userDir, where.plugin, record);
  }
  // A link anywhere on the way could point out of the project: compare real paths.
  try {
    const real = realpathSync(where.dir);
    const project = realpathSync(options.projectDir);
    if (path.relative(project, real).startsWith('..'))
      return { reason: `${source} leads outside the project` };
  } catch {
    return { reason: `${source}: no such folder` };
  }
  const read = await readPlugin(where.dir);
  return read.ok ? { parts: read.plugin } : { reason: read.error };
}

/** A plugin command as the custom commands feature reads it. */
export interface PluginCommandSource {
  plugin: string;
  name: string;
  file: string;
  kind: 'markdown' | 'toml';
}

export function pluginCommands(loaded: LoadedPlugins): PluginCommandSource[] {
  return loaded.active.flatMap((plugin) =>
    plugin.parts.commands.map((command) => ({ plugin: plugin.parts.name, ...command })),
  );
}

export function pluginAgentFiles(loaded: LoadedPlugins): string[] {
  return loaded.active.flatMap((plugin) => plugin.parts.agents);
}

export function pluginSkillFolders(loaded: LoadedPlugins): string[] {
  return loaded.active.flatMap((plugin) => plugin.parts.skills);
}

export function pluginHooks(loaded: LoadedPlugins): HookSetting[] {
  return loaded.active.flatMap((plugin) => plugin.parts.hooks);
}

export interface PluginServers {
  plugin: string;
  root: string;
  file: string;
  servers: Record<string, unknown>;
}

export function pluginServers(loaded: LoadedPlugins): PluginServers[] {
  return loaded.active
    .filter((plugin) => Object.keys(plugin.parts.servers).length > 0)
    .map((plugin) => ({
      plugin: plugin.parts.name,
      root: plugin.parts.root,
      file: plugin.parts.serversFile,
      servers: plugin.parts.servers,
    }));
}

export function pluginContextFiles(loaded: LoadedPlugins): Array<{ plugin: string; file: string }> {
  return loaded.active.flatMap((plugin) =>
    plugin.parts.contextFiles.map((file) => ({ plugin: plugin.parts.name, file })),
  );
}
