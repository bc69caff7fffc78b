/**
 * A project's `.geekagent/plugins.json`, which a repository may ship: `{"plugins": {"<name>":
 * {"source": "./path/in/repo" | "<plugin>@<marketplace>", "enabled": true}}}`. A trust declaration
 * (feature/declarations.ts lists each plugin with every part): nothing of it loads before
 * the person trusts the folder. A source path stays inside the project; `name@marketplace` is
 * the person's own installed copy of that plugin.
 */
import path from 'node:path';
import { writeJsonFileAtomic } from '../util/json-file.js';
import { readStateFile } from '../util/state-dir.js';
import { insideRoot } from './files.js';

export interface ProjectPluginEntry {
  name: string;
  source: string;
  enabled: boolean;
}

export type ProjectSource =
  | { kind: 'folder'; dir: string }
  | { kind: 'marketplace'; plugin: string; marketplace: string }
  | { kind: 'invalid'; reason: string };

export function projectPluginsFile(projectDir: string): string {
  return path.join(projectDir, '.geekagent', 'plugins.json');
}

/** The entries (missing file: none); a broken file throws naming it. */
export async function readProjectPlugins(projectDir: string): Promise<ProjectPluginEntry[]> {
  const file = projectPluginsFile(projectDir);
  const text = await readStateFile(file);
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`);
  }
  const plugins = (value as { plugins?: unknown } | null)?.plugins;
  if (typeof plugins !== 'object' || plugins === null || Array.isArray(plugins))
    throw new Error(`${file}: expected {"plugins": {"<name>": {"source": "…"}}}`);
  return Object.entries(plugins as Record<string, unknown>).map(([name, raw]) => {
    const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    return {
      name,
      source: typeof entry.source === 'string' ? entry.source : '',
      enabled: entry.enabled !== false,
    };
  });
}

export async function writeProjectPlugins(projectDir: string, entries: ProjectPluginEntry[]): Promise<void> {
  const plugins = Object.fromEntries(
    entries.map((entry) => [
      entry.name,
      { source: entry.source, ...(entry.enabled ? {} : { enabled: false }) },
    ]),
  );
  await writeJsonFileAtomic(projectPluginsFile(projectDir), { plugins });
}

export function projectSource(projectDir: string, source: string): ProjectSource {
  const at = /^([^@/\\]+)@([^@/\\]+)$/.exec(source);
  if (at) return { kind: 'marketplace', plugin: at[1]!, marketplace: at[2]! };
  if (source === '') return { kind: 'invalid', reason: 'no "source"' };
  const dir = insideRoot(projectDir, source);
  if (!dir) return { kind: 'invalid', reason: `${source} is outside the project folder` };
  return { kind: 'folder', dir };
}
