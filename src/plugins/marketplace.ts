/**
 * Marketplaces: a folder or git repository with `.claude-plugin/marketplace.json` (`name`,
 * `plugins: [{name, source, description}]`; a source is a path inside the marketplace — under
 * `metadata.pluginRoot` when it is a bare name —, `{"source": "github", "repo": "o/r"}` or
 * `{"source": "url"|"git", "url": …}`). Adding one copies it (a folder), clones it (a git URL) or
 * unpacks it (`npm:<package>`, through `npm pack`) into `<userDir>/plugins/marketplaces/<name>`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../util/errors.js';
import { copyFolder, insideRoot, isPlainDir, isPlainFile, removeStoreFolder } from './files.js';
import { PLUGIN_NAME } from './manifest.js';
import { ensurePluginsFolder, readMarketplaces, writeMarketplaces } from './store.js';

const run = promisify(execFile);
export const MARKETPLACE_MANIFEST = path.join('.claude-plugin', 'marketplace.json');

export interface MarketplaceEntry {
  name: string;
  description?: string;
  source:
    | { kind: 'folder'; dir: string }
    | { kind: 'git'; url: string }
    | { kind: 'invalid'; reason: string };
}

export interface Marketplace {
  name: string;
  root: string;
  plugins: MarketplaceEntry[];
}

export function readMarketplace(root: string): Marketplace {
  const file = path.join(root, MARKETPLACE_MANIFEST);
  if (!isPlainFile(file)) throw new Error(`${root}: no ${MARKETPLACE_MANIFEST}: not a plugin marketplace`);
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${file}: ${errorMessage(error)}`);
  }
  const name = value?.name;
  if (typeof name !== 'string' || !PLUGIN_NAME.test(name))
    throw new Error(`${file}: "name" must be 1-64 letters, digits, . _ or -`);
  if (!Array.isArray(value.plugins)) throw new Error(`${file}: "plugins" must be a list`);
  const metadata = (value.metadata ?? {}) as Record<string, unknown>;
  const pluginRoot = typeof metadata.pluginRoot === 'string' ? metadata.pluginRoot : '.';
  const plugins = (value.plugins as unknown[]).flatMap((raw): MarketplaceEntry[] => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    if (typeof entry.name !== 'string') return [];
    return [
      {
        name: entry.name,
        ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
        source: entrySource(root, pluginRoot, entry.source),
      },
    ];
  });
  return { name, root, plugins };
}

function entrySource(root: string, pluginRoot: string, source: unknown): MarketplaceEntry['source'] {
  if (typeof source === 'string') {
    const relative =
      source.startsWith('./') || source.startsWith('../') ? source : path.join(pluginRoot, source);
    const dir = insideRoot(root, relative);
    return dir
      ? { kind: 'folder', dir }
      : { kind: 'invalid', reason: `${source} is outside the marketplace` };
  }
  const object = (source ?? {}) as Record<string, unknown>;
  if (object.source === 'github' && typeof object.repo === 'string')
    return { kind: 'git', url: `https://github.com/${object.repo}.git` };
  if ((object.source === 'url' || object.source === 'git') && typeof object.url === 'string')
    return { kind: 'git', url: object.url };
  return { kind: 'invalid', reason: `a source GeekAgent cannot fetch: ${JSON.stringify(source)}` };
}

export function isGitUrl(spec: string): boolean {
  return /^(https?:\/\/|git@|ssh:\/\/|git:\/\/|file:\/\/)/.test(spec) || spec.endsWith('.git');
}

/** Clones `url` (shallow, no hooks of ours) into a new temp folder; the caller removes it. */
export async function cloneToTemp(url: string): Promise<string> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-plugin-'));
  const dir = path.join(base, 'repo');
  try {
    // `--` ends the options: a URL cannot be read as one.
    await run('git', ['clone', '--quiet', '--depth', '1', '--', url, dir], {
      timeout: 120_000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw new Error(`git clone ${url} failed: ${errorMessage(error).split('\n').slice(-2).join(' ').trim()}`);
  }
  return dir;
}

/** `npm pack <package>` into a temp folder, unpacked; returns the package folder. */
async function npmToTemp(pkg: string): Promise<string> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-plugin-'));
  try {
    await run('npm', ['pack', '--silent', '--pack-destination', base, '--', pkg], { timeout: 120_000 });
    const tarball = (await readdir(base)).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack made no tarball');
    await run('tar', ['-xzf', path.join(base, tarball), '-C', base, '--no-same-owner']);
    return path.join(base, 'package');
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw new Error(`npm pack ${pkg} failed: ${errorMessage(error).split('\n')[0]}`);
  }
}

/** Adds (or refreshes) a marketplace from a folder, git URL or `npm:<package>`; returns it. */
export async function addMarketplace(userDir: string, spec: string): Promise<Marketplace> {
  let fetched: string | undefined;
  let dir: string;
  if (spec.startsWith('npm:')) dir = fetched = await npmToTemp(spec.slice(4));
  else if (isGitUrl(spec) && !isPlainDir(spec)) dir = fetched = await cloneToTemp(spec);
  else dir = path.resolve(spec);
  try {
    const found = readMarketplace(dir);
    const target = path.join(ensurePluginsFolder(userDir, 'marketplaces'), found.name);
    const records = await readMarketplaces(userDir);
    await removeStoreFolder(target);
    await copyFolder(dir, target);
    records[found.name] = { source: fetched ? spec : dir, dir: target };
    await writeMarketplaces(userDir, records);
    return readMarketplace(target);
  } finally {
    if (fetched) await rm(path.dirname(fetched), { recursive: true, force: true });
  }
}

export async function removeMarketplace(userDir: string, name: string): Promise<boolean> {
  const records = await readMarketplaces(userDir);
  const record = records[name];
  if (!record) return false;
  delete records[name];
  await writeMarketplaces(userDir, records);
  await removeStoreFolder(path.join(ensurePluginsFolder(userDir, 'marketplaces'), name));
  return true;
}
