/**
 * Per-server OAuth state on disk: `~/.geekagent/auth/<server>-<hash of url>.json`, mode 0600 in a
 * 0700 folder (a looser folder or file is tightened when used, never through a symlink), written
 * atomically. Client registrations are kept per authorization server issuer (a client id is only
 * good at the server that issued it); tokens carry the issuer that issued them (the SDK's stamp).
 * A lock file serialises refreshes, so two agents sharing the store never both spend one refresh
 * token.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type {
  OAuthDiscoveryState,
  OAuthTokens,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { withFileLock } from '../../util/file-lock.js';
import { ensurePrivateFolder, tightenPrivateFile } from '../../util/private-folder.js';
import { writeFileAtomic } from '../../util/safe-write.js';
import { readStateFile } from '../../util/state-dir.js';

/** A client registration at one authorization server. */
export interface StoredClient {
  information: StoredOAuthClientInformation;
  /** The redirect URI the client was registered with (its port must stay the same). */
  redirectUrl: string;
}

export interface StoredAuth {
  serverUrl: string;
  /** Registrations by authorization server issuer. */
  clients?: Record<string, StoredClient>;
  /** A registration from before issuers were recorded: adopted (and stamped) by its next use. */
  clientInformation?: StoredOAuthClientInformation;
  /** Stamped by the SDK with the issuer that issued them. */
  tokens?: StoredOAuthTokens;
  /** When `tokens` were saved (ms since epoch): with `expires_in` it says when they expire. */
  tokensSavedAt?: number;
  codeVerifier?: string;
  discoveryState?: OAuthDiscoveryState;
  /** The redirect URI `clientInformation` was registered with. */
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

  /** A folder or file that is a link is refused (thrown); unreadable or unparsable: no login. */
  async read(): Promise<StoredAuth> {
    if (!(await this.private(false))) return { serverUrl: this.serverUrl };
    let text: string | undefined;
    try {
      text = await readStateFile(this.file);
    } catch {
      return { serverUrl: this.serverUrl };
    }
    try {
      const parsed = JSON.parse(text ?? '') as StoredAuth;
      return parsed.serverUrl === this.serverUrl ? parsed : { serverUrl: this.serverUrl };
    } catch {
      return { serverUrl: this.serverUrl };
    }
  }

  async update(change: (current: StoredAuth) => StoredAuth): Promise<StoredAuth> {
    const next = change(await this.read());
    await this.private(true);
    await writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600, noMkdir: true });
    return next;
  }

  /** The folder (created when `create`) and this server's file, tightened; false: no folder yet. */
  private async private(create: boolean): Promise<boolean> {
    if (!(await ensurePrivateFolder(this.authDir, create))) return false;
    await tightenPrivateFile(this.file);
    return true;
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
    await this.private(true);
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
