/**
 * The per-server tool-list cache (`<userStateDir>/cache/mcp-<server>-<hash>.json`): what a server
 * listed last time (its raw tools, whether it offers resources, its prompts), so the next run can
 * register its tools at once and start the server only when one is used. The file is keyed by a
 * hash of the server's resolved launch config (env and header values SHA-256'd first, never
 * stored); it is written atomically and read leniently — a missing, broken or foreign file is
 * simply no cache.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Prompt } from '@modelcontextprotocol/client';
import { joinName } from '../util/join-name.js';
import { writeJsonFileAtomic } from '../util/json-file.js';
import { quickHashHex } from '../util/quick-hash.js';
import { sha256Hex } from '../util/sha256.js';
import { readStateFileSync } from '../util/state-dir.js';
import { CACHE_VERSION, cachedEra, cachedHint, cacheFileContent } from './cache-file.js';
import type { ListedTool } from './catalog.js';
import type { McpServerDefinition, RemoteDefinition, StdioDefinition } from './config.js';
import type { EraVerdict } from './era.js';
import type { ListHint } from './list-hints.js';

/** What one successful listing of a server leaves for the next run. */
export interface CachedListing {
  tools: ListedTool[];
  /** The server offered resources (its list/read tools are registered too). */
  resources: boolean;
  prompts: Prompt[];
  /** The protocol era the server spoke (its `server/discover` result, or `initialize` and when). */
  era?: EraVerdict;
  /** The tool list's cache hints (`ttlMs`, `cacheScope`, when listed): a 2026 server's only. */
  toolsHint?: ListHint;
}

/** The servers that have a cache: those with a launch config (an in-process server has none). */
export type CachedDefinition = StdioDefinition | RemoteDefinition;

export function hasToolCache(definition: McpServerDefinition): definition is CachedDefinition {
  return definition.transport !== 'sdk';
}

export function cacheDirectory(userDir: string): string {
  return path.join(userDir, 'cache');
}

/**
 * Launch config → hash: a change of command, args, env, cwd, url or headers means a new file. The
 * name only has to tell configs apart (a file holds what the server itself listed, and only a
 * trusted folder's started server writes one), so a quick hash names it; env and header values,
 * which may be secrets, go through SHA-256 first (sha256Hex, not node:crypto: a start computes these
 * before its first request, and loading crypto costs ~4.5 ms).
 */
export function cacheKey(definition: CachedDefinition): string {
  const secret = (value: string) => sha256Hex(value);
  const hidden = (record: Record<string, string>) =>
    Object.entries(record)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, value]) => [name, secret(value)]);
  const material =
    definition.transport === 'stdio'
      ? {
          name: definition.name,
          transport: 'stdio',
          command: definition.command,
          args: definition.args,
          env: hidden(definition.env),
          cwd: definition.cwd,
        }
      : {
          name: definition.name,
          transport: definition.transport,
          url: definition.url,
          headers: hidden(definition.headers),
        };
  return quickHashHex(JSON.stringify(material));
}

export function cacheFile(dir: string, definition: CachedDefinition): string {
  const safe = definition.name.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 60);
  return joinName(dir, `mcp-${safe}-${cacheKey(definition)}.json`);
}

/** The cached listing, or undefined (missing, unreadable, malformed, another server's). */
export async function readCachedListing(
  dir: string,
  definition: CachedDefinition,
): Promise<CachedListing | undefined> {
  try {
    const text = readStateFileSync(cacheFile(dir, definition));
    if (text === undefined) return undefined;
    // Checked by hand (cache-file.ts), as strictly as a schema would.
    const content = cacheFileContent(JSON.parse(text));
    if (!content || content.server !== definition.name) return undefined;
    const { tools, resources, prompts } = content;
    const listing: CachedListing = { tools, resources, prompts };
    // A verdict this version cannot read is no verdict (the next connect probes), not no cache.
    const era = cachedEra(content.era);
    if (era) listing.era = era;
    // Hints this version cannot read are none: the list is simply not fresh.
    const hint = cachedHint(content.toolsHint);
    if (hint) listing.toolsHint = hint;
    return listing;
  } catch {
    return undefined;
  }
}

export async function writeCachedListing(
  dir: string,
  definition: CachedDefinition,
  listing: CachedListing,
): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeJsonFileAtomic(cacheFile(dir, definition), {
    version: CACHE_VERSION,
    server: definition.name,
    ...listing,
  });
}

/** Whether a fresh listing differs from the cached one (then the cache is rewritten). */
export function sameListing(a: CachedListing | undefined, b: CachedListing): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
