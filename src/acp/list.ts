/**
 * `session/list`: the saved sessions an editor can load or resume — one folder's (`cwd` given) or
 * every folder's the person has sessions in (each project folder in the user state names its
 * folder in its sessions' headers) — newest first, in pages behind an opaque cursor.
 */
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ListSessionsResponse, SessionInfo } from '@agentclientprotocol/sdk/unstable';
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { userProjectDir } from '../config/project-state.js';
import { SessionStore } from '../sessions/store.js';

const PAGE = 100;
/** Enough of a session file's first line for its header (the folder path is in it). */
const HEADER_BYTES = 8192;

export async function listSessions(
  userDir: string,
  cwd: string | null | undefined,
  cursor: string | null | undefined,
): Promise<ListSessionsResponse> {
  const start = cursor ? Number(cursor) : 0;
  if (!Number.isSafeInteger(start) || start < 0)
    throw RequestError.invalidParams({ cursor }, 'cursor: pass the nextCursor of an earlier answer');
  const folders = cwd ? [cwd] : await projectFolders(userDir);
  const all: SessionInfo[] = [];
  for (const folder of folders) {
    for (const session of await new SessionStore(folder, userDir).list().catch(() => []))
      all.push({
        sessionId: session.id,
        cwd: folder,
        ...(session.title ? { title: session.title } : {}),
        updatedAt: session.updated,
      });
  }
  all.sort((a, b) => ((a.updatedAt ?? '') < (b.updatedAt ?? '') ? 1 : -1));
  const page = all.slice(start, start + PAGE);
  return { sessions: page, ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}) };
}

/** The folders with sessions: each project state folder's sessions name it (same key again). */
async function projectFolders(userDir: string): Promise<string[]> {
  const projects = path.join(userDir, 'projects');
  const keys = await readdir(projects).catch(() => [] as string[]);
  const folders: string[] = [];
  for (const key of keys) {
    const dir = path.join(projects, key, 'sessions');
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl'));
    for (const name of names) {
      const cwd = await headerCwd(path.join(dir, name));
      // A folder moved or renamed since has another key now: its sessions are not reachable by it.
      if (cwd && path.join(userProjectDir(userDir, cwd), 'sessions') === dir) {
        folders.push(cwd);
        break;
      }
    }
  }
  return folders;
}

async function headerCwd(file: string): Promise<string | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(HEADER_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
      const line = buffer.subarray(0, bytesRead).toString('utf8').split('\n', 1)[0] ?? '';
      const header = JSON.parse(line) as { type?: unknown; cwd?: unknown };
      return header.type === 'session' && typeof header.cwd === 'string' && path.isAbsolute(header.cwd)
        ? header.cwd
        : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
