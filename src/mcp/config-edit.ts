/**
 * Adding and removing servers in an mcp.json file (`geekagent mcp add/remove/add-json/import`):
 * entries are checked with the schema and stored unexpanded, every other key of the file kept,
 * each change one locked, atomic read-modify-write.
 */
import { withFileLock } from '../util/file-lock.js';
import { ConfigError, readJsonFile, writeJsonFileAtomic } from '../util/json-file.js';
import { documentOf, serversOf } from './config.js';
import { checkServerEntry } from './config-schema.js';

/** Adds or replaces one server, keeping everything else in the file; the entry is stored unexpanded. */
export async function addServerToConfig(
  file: string,
  name: string,
  entry: Record<string, unknown>,
): Promise<void> {
  await addServersToConfig(file, [[name, entry]], { replace: true });
}

/**
 * Adds several servers in one locked read-modify-write (a concurrent `mcp add` must not lose
 * them); without `replace`, a name already in the file is kept as it is. Returns the names
 * written and the names kept.
 */
export async function addServersToConfig(
  file: string,
  entries: ReadonlyArray<readonly [string, Record<string, unknown>]>,
  options: { replace: boolean },
): Promise<{ written: string[]; kept: string[] }> {
  for (const [name, entry] of entries) {
    const check = checkServerEntry(file, name, entry);
    if (!check.ok) throw new ConfigError(check.error, file);
  }
  return withFileLock(file, async () => {
    const document = await readDocument(file);
    const servers = { ...serversOf(file, document) };
    const result = { written: [] as string[], kept: [] as string[] };
    for (const [name, entry] of entries) {
      if (Object.hasOwn(servers, name) && !options.replace) result.kept.push(name);
      else {
        servers[name] = entry;
        result.written.push(name);
      }
    }
    if (result.written.length > 0) await writeJsonFileAtomic(file, { ...document, mcpServers: servers });
    return result;
  });
}

/** False (and the file untouched) when there is no such server. */
export async function removeServerFromConfig(file: string, name: string): Promise<boolean> {
  const read = await readJsonFile(file);
  if (read.kind === 'missing') return false;
  return withFileLock(file, async () => {
    // Read again under the lock: the first read only spares a missing file a lock file.
    const locked = await readJsonFile(file);
    if (locked.kind === 'missing') return false;
    const document = documentOf(file, locked.value);
    const servers = serversOf(file, document);
    if (!Object.hasOwn(servers, name)) return false;
    const remaining = Object.fromEntries(Object.entries(servers).filter(([key]) => key !== name));
    await writeJsonFileAtomic(file, { ...document, mcpServers: remaining });
    return true;
  });
}

async function readDocument(file: string): Promise<Record<string, unknown>> {
  const read = await readJsonFile(file);
  return read.kind === 'missing' ? {} : documentOf(file, read.value);
}
