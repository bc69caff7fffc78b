/**
 * The person's plugin records, in their state folder (`<userDir>/plugins/`): `installed.json`
 * (each installed plugin: where it came from, its copy under `cache/<name>/<hash>/`, the content
 * hash it was installed with, whether it is on) and `marketplaces.json` (each added marketplace
 * and its copy under `marketplaces/<name>/`). Written atomically, never through a link; read
 * without following one.
 */
import path from 'node:path';
import { writeJsonFileAtomic } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { ensureUserStateFolder, readStateFile } from '../util/state-dir.js';

const buildInstalledSchema = () =>
  z.object({
    source: z.string(),
    format: z.enum(['claude', 'gemini']),
    version: z.optional(z.string()),
    hash: z.string(),
    dir: z.string(),
    enabled: z.boolean(),
    /** Installed for a project's plugins.json (`name@marketplace`): not one of the person's own. */
    projectOnly: z.optional(z.boolean()),
  });
const buildMarketplaceSchema = () => z.object({ source: z.string(), dir: z.string() });

// Built when a record file exists: most starts have none to read.
const installedFileSchema = z.lazySchema(() =>
  z.object({ plugins: z.record(z.string(), buildInstalledSchema()) }),
);
const marketplacesFileSchema = z.lazySchema(() =>
  z.object({ marketplaces: z.record(z.string(), buildMarketplaceSchema()) }),
);

export type InstalledPlugin = z.infer<ReturnType<typeof buildInstalledSchema>>;
export type MarketplaceRecord = z.infer<ReturnType<typeof buildMarketplaceSchema>>;

export function pluginsDir(userDir: string): string {
  return path.join(userDir, 'plugins');
}

/** Makes `<userDir>/plugins/<sub…>` (0700), refusing links on the way. */
export function ensurePluginsFolder(userDir: string, ...sub: string[]): string {
  const dir = path.join(pluginsDir(userDir), ...sub);
  ensureUserStateFolder(userDir, dir, 'plugins');
  return dir;
}

async function readRecords<T>(file: string, schema: () => z.ZodMiniType<T>, empty: T): Promise<T> {
  const text = await readStateFile(file);
  if (text === undefined) return empty;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message}); fix or delete it`);
  }
  const parsed = schema().safeParse(value);
  if (!parsed.success)
    throw new Error(
      `${file}: not a plugin record file (${parsed.error.issues[0]?.message}); fix or delete it`,
    );
  return parsed.data;
}

export async function readInstalled(userDir: string): Promise<Record<string, InstalledPlugin>> {
  const file = path.join(pluginsDir(userDir), 'installed.json');
  return (await readRecords(file, installedFileSchema, { plugins: {} })).plugins;
}

export async function writeInstalled(
  userDir: string,
  plugins: Record<string, InstalledPlugin>,
): Promise<void> {
  ensurePluginsFolder(userDir);
  await writeJsonFileAtomic(path.join(pluginsDir(userDir), 'installed.json'), { plugins });
}

export async function readMarketplaces(userDir: string): Promise<Record<string, MarketplaceRecord>> {
  const file = path.join(pluginsDir(userDir), 'marketplaces.json');
  return (await readRecords(file, marketplacesFileSchema, { marketplaces: {} })).marketplaces;
}

export async function writeMarketplaces(
  userDir: string,
  marketplaces: Record<string, MarketplaceRecord>,
): Promise<void> {
  ensurePluginsFolder(userDir);
  await writeJsonFileAtomic(path.join(pluginsDir(userDir), 'marketplaces.json'), { marketplaces });
}
