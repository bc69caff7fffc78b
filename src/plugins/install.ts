/**
 * Installing a plugin: the source (a folder, a git URL, or `<plugin>@<marketplace>` of an added
 * marketplace) is read and hashed first (`preparePlugin`: the caller shows what it brings and
 * asks), then copied into `<userDir>/plugins/cache/<name>/<hash>/` and recorded with that hash
 * (`commitInstall`). The copy is what runs: the source can change afterwards without effect, and
 * a change to the copy keeps it from loading (load.ts).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { copyFolder, folderHash, isPlainDir, removeStoreFolder } from './files.js';
import { type PluginParts, readPlugin } from './manifest.js';
import { cloneToTemp, isGitUrl, readMarketplace } from './marketplace.js';
import {
  ensurePluginsFolder,
  type InstalledPlugin,
  pluginsDir,
  readInstalled,
  readMarketplaces,
  writeInstalled,
} from './store.js';

export interface PreparedPlugin {
  /** What the record keeps as the source (`./dir` resolved, the URL, `name@marketplace`). */
  source: string;
  dir: string;
  parts: PluginParts;
  hash: string;
  /** The installed record of that name, if any (`hash` equal: nothing changed). */
  previous?: InstalledPlugin;
  /** Removes a temporary clone. */
  cleanup(): Promise<void>;
}

const MARKETPLACE_SPEC = /^([^@/\\\s]+)@([^@/\\\s]+)$/;

export async function preparePlugin(userDir: string, spec: string): Promise<PreparedPlugin> {
  let temp: string | undefined;
  let dir: string;
  let source = spec;
  const market = MARKETPLACE_SPEC.exec(spec);
  if (market && !isPlainDir(spec)) {
    const [, plugin, marketplaceName] = market as unknown as [string, string, string];
    const record = (await readMarketplaces(userDir))[marketplaceName];
    if (!record)
      throw new Error(
        `no marketplace ${marketplaceName}: add it with geekagent plugin marketplace add <folder|git-url|npm:package>`,
      );
    const marketplace = readMarketplace(record.dir);
    const entry = marketplace.plugins.find((item) => item.name === plugin);
    if (!entry)
      throw new Error(
        `marketplace ${marketplaceName} has no plugin ${plugin} (it has: ${marketplace.plugins.map((p) => p.name).join(', ') || 'none'})`,
      );
    if (entry.source.kind === 'invalid') throw new Error(`${spec}: ${entry.source.reason}`);
    if (entry.source.kind === 'git') dir = temp = await cloneToTemp(entry.source.url);
    else dir = entry.source.dir;
  } else if (isGitUrl(spec) && !isPlainDir(spec)) {
    dir = temp = await cloneToTemp(spec);
  } else {
    dir = path.resolve(spec);
    source = dir;
  }
  const cleanup = async () => {
    if (temp) await rm(path.dirname(temp), { recursive: true, force: true });
  };
  try {
    const read = await readPlugin(dir);
    if (!read.ok) throw new Error(read.error);
    const hash = folderHash(dir);
    const previous = (await readInstalled(userDir))[read.plugin.name];
    return { source, dir, parts: read.plugin, hash, ...(previous ? { previous } : {}), cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** Copies the prepared plugin into the store and records it (enabled); the old copy goes. */
export async function commitInstall(
  userDir: string,
  prepared: PreparedPlugin,
  options: { projectOnly?: boolean } = {},
): Promise<InstalledPlugin> {
  const name = prepared.parts.name;
  const parent = ensurePluginsFolder(userDir, 'cache', name);
  const target = path.join(parent, prepared.hash.replace(/^sha256:/, '').slice(0, 16));
  // A copy already there is kept only if it is exactly this content (an edited one is replaced).
  if (!intact(target, prepared.hash)) {
    await removeStoreFolder(target);
    await copyFolder(prepared.dir, target);
  }
  // The copy is what gets pinned: hash it as written (a link left out of the copy changes nothing).
  const hash = folderHash(target);
  const records = await readInstalled(userDir);
  const previous = records[name];
  records[name] = {
    source: prepared.source,
    format: prepared.parts.format,
    ...(prepared.parts.version ? { version: prepared.parts.version } : {}),
    hash,
    dir: target,
    enabled: true,
    // Once the person's own, always theirs: a project install does not take it back.
    ...(options.projectOnly && (previous === undefined || previous.projectOnly) ? { projectOnly: true } : {}),
  };
  await writeInstalled(userDir, records);
  if (previous && previous.dir !== target && isInStore(userDir, previous.dir))
    await removeStoreFolder(previous.dir);
  return records[name]!;
}

export async function uninstall(userDir: string, name: string): Promise<boolean> {
  const records = await readInstalled(userDir);
  const record = records[name];
  if (!record) return false;
  delete records[name];
  await writeInstalled(userDir, records);
  if (isInStore(userDir, record.dir)) await removeStoreFolder(record.dir);
  return true;
}

export async function setEnabled(userDir: string, name: string, enabled: boolean): Promise<boolean> {
  const records = await readInstalled(userDir);
  const record = records[name];
  if (!record) return false;
  record.enabled = enabled;
  await writeInstalled(userDir, records);
  return true;
}

/** Whether an installed copy still has the content it was pinned with. */
export function copyIntact(record: InstalledPlugin): boolean {
  return intact(record.dir, record.hash);
}

function intact(dir: string, hash: string): boolean {
  try {
    return isPlainDir(dir) && folderHash(dir) === hash;
  } catch {
    return false;
  }
}

function isInStore(userDir: string, dir: string): boolean {
  const relative = path.relative(path.join(pluginsDir(userDir), 'cache'), path.resolve(dir));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
