/**
 * Per-server OAuth state on disk: `~/.geekagent/auth/<server>-<hash of url>.json`, mode 0600 in a
 * 0700 folder, written atomically. A lock file serialises refreshes, so two agents sharing the
 * store never both spend one refresh token.
 */
import { createHash, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { withFileLock } from '../../util/file-lock.js';

export interface StoredAuth {
  serverUrl: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since epoch): with `expires_in` it says when they expire. */
  tokensSavedAt?: number;
  codeVerifier?: string;
  discoveryState?: OAuthDiscoveryState;
  /** The redirect URI the client was registered with (its port must stay the same). */
  redirectUrl?: string;
}

const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

export class TokenStore {
  readonly file: string;

  constructor(
    readonly authDir: string,
    readonly server: string,
    readonly serverUrl: string,
  ) {
    const hash = createHash('sha256').update(serverUrl).digest('hex').slice(0, 12);
    this.file = path.join(authDir, `${server.replace(/[^a-zA-Z0-9_-]/g, '_')}-${hash}.json`);
  }

  async read(): Promise<StoredAuth> {
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as StoredAuth;
      return parsed.serverUrl === this.serverUrl ? parsed : { serverUrl: this.serverUrl };
    } catch {
      return { serverUrl: this.serverUrl };
    }
  }

  async update(change: (current: StoredAuth) => StoredAuth): Promise<StoredAuth> {
    const next = change(await this.read());
    await mkdir(this.authDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${randomUUID()}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, this.file);
    return next;
  }

  async clear(): Promise<boolean> {
    try {
      await rm(this.file);
      return true;
    } catch {
      return false;
    }
  }

  /** Runs `body` holding the store's lock (a file created exclusively; stale locks are broken). */
  async withLock<T>(body: () => Promise<T>): Promise<T> {
    await mkdir(this.authDir, { recursive: true, mode: 0o700 });
    return withFileLock(this.file, body, { waitMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS });
  }
}

/** Whether tokens saved at `savedAt` expire within `marginMs`. */
export function expiresSoon(
  tokens: OAuthTokens,
  savedAt: number | undefined,
  marginMs: number,
  now = Date.now(),
): boolean {
  if (tokens.expires_in === undefined || savedAt === undefined) return false;
  return savedAt + tokens.expires_in * 1000 - now <= marginMs;
}
