/**
 * Sessions an earlier version kept in the project folder (`.geekagent/sessions/<id>.jsonl` with
 * their sub-agent transcripts, and the described system's `.geekagent/sessions.json`): imported
 * once into the user's state folder, at the first run in a folder the person trusts (the record,
 * their answer, `--trust`), and never read again; the old files are left in place. Anywhere else
 * they are not read at all — a cloned repository could plant a conversation (and its session
 * state, such as active skills) for `--continue` to pick up — and the person is told once a run.
 */
import { lstat, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { TRUST_HINT } from '../trust/describe.js';
import { errorMessage } from '../util/errors.js';
import { withFileLock } from '../util/file-lock.js';
import { writeFileAtomic } from '../util/safe-write.js';
import { readRegularFile } from '../util/state-dir.js';
import { ensureSessionsDir, ID_PATTERN, projectSessionsDir } from './files.js';
import { importLegacySessions } from './legacy.js';
import type { SessionStore } from './store.js';

const SESSIONS_JSON = path.join('.geekagent', 'sessions.json');

/** What an earlier version left in the folder. */
interface Found {
  /** Ids of `.geekagent/sessions/<id>.jsonl` files (regular files only). */
  ids: string[];
  /** `.geekagent/sessions.json` is there and was not imported into those files already. */
  sessionsJson: boolean;
}

/**
 * Imports the folder's old sessions when `trusted` and not done before; returns a line saying
 * they were not loaded when the folder holds some and is not trusted (undefined otherwise).
 */
export async function adoptProjectSessions(
  store: SessionStore,
  trusted: boolean,
  notice: (message: string, kind?: 'system' | 'error') => void,
): Promise<string | undefined> {
  const found = await findProjectSessions(store.projectDir);
  if (!found || (await store.projectImported())) return undefined;
  if (!trusted) {
    const where = [
      found.ids.length > 0 ? `${plural(found.ids.length)} in .geekagent/sessions` : '',
      found.sessionsJson ? SESSIONS_JSON : '',
    ].filter((part) => part !== '');
    const line = `this folder holds sessions an earlier version saved in it (${where.join(', ')}): they are not loaded until you trust the folder — ${TRUST_HINT}`;
    notice(line);
    return line;
  }
  ensureSessionsDir(store.userDir, store.dir);
  // Two agents starting in the folder at once import it once.
  await withFileLock(path.join(store.dir, 'project-import'), async () => {
    if (await store.projectImported()) return;
    const copied = await copySessions(store, found.ids);
    if (copied.imported > 0 || copied.refused.length > 0) {
      const refused =
        copied.refused.length > 0
          ? `; skipped (not regular files): ${copied.refused.map((id) => `${id}.jsonl`).join(', ')}`
          : '';
      notice(
        `imported ${plural(copied.imported)} an earlier version kept in .geekagent/sessions into ${store.dir} (/sessions lists them; the old files are left in place)${refused}`,
      );
    }
    if (found.sessionsJson) {
      const legacy = await importLegacySessions(store).catch((error: unknown) => {
        notice(`could not import ${SESSIONS_JSON}: ${errorMessage(error)}`, 'error');
        return undefined;
      });
      if (legacy && legacy.imported.length > 0)
        notice(`imported ${plural(legacy.imported.length)} from ${SESSIONS_JSON} (/sessions lists them)`);
    }
    await store.markProjectImported();
  });
  return undefined;
}

async function findProjectSessions(projectDir: string): Promise<Found | undefined> {
  const dir = projectSessionsDir(projectDir);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const ids = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => entry.name.slice(0, -'.jsonl'.length))
    .filter((id) => ID_PATTERN.test(id))
    .sort();
  const json = await lstat(path.join(projectDir, SESSIONS_JSON)).catch(() => undefined);
  // The earlier version's own import of sessions.json is recorded in its index: done then.
  const sessionsJson = json?.isFile() === true && !(await oldIndexImported(dir));
  return ids.length > 0 || sessionsJson ? { ids, sessionsJson } : undefined;
}

async function oldIndexImported(dir: string): Promise<boolean> {
  try {
    const text = (await readRegularFile(path.join(dir, 'index.json')))?.toString('utf8');
    return text !== undefined && (JSON.parse(text) as { legacyImported?: unknown }).legacyImported === true;
  } catch {
    return false;
  }
}

/**
 * Copies each session file (and its `<id>.agents/` transcripts) that the user's store does not
 * have yet, keeping its time so `--continue` still picks the latest. Opened without following
 * links: a planted link to another file is skipped and named.
 */
async function copySessions(
  store: SessionStore,
  ids: readonly string[],
): Promise<{ imported: number; refused: string[] }> {
  const from = projectSessionsDir(store.projectDir);
  let imported = 0;
  const refused: string[] = [];
  for (const id of ids) {
    if (await store.exists(id)) continue;
    if (!(await copyFile(path.join(from, `${id}.jsonl`), store.file(id)))) {
      refused.push(id);
      continue;
    }
    imported++;
    const agents = path.join(from, `${id}.agents`);
    const info = await lstat(agents).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    const target = path.join(store.dir, `${id}.agents`);
    ensureSessionsDir(store.userDir, target);
    for (const entry of await readdir(agents, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl') || !ID_PATTERN.test(entry.name.slice(0, -6)))
        continue;
      await copyFile(path.join(agents, entry.name), path.join(target, entry.name));
    }
  }
  return { imported, refused };
}

/** False when `source` is not a regular file (a link, a FIFO) or is gone. */
async function copyFile(source: string, target: string): Promise<boolean> {
  const info = await lstat(source).catch(() => undefined);
  if (!info?.isFile()) return false;
  const data = await readRegularFile(source).catch(() => undefined);
  if (data === undefined) return false;
  await writeFileAtomic(target, data, { mode: 0o600, noMkdir: true });
  await utimes(target, info.atime, info.mtime);
  return true;
}

function plural(n: number): string {
  return `${n} session${n === 1 ? '' : 's'}`;
}
