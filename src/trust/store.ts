/**
 * The trust record, `<userStateDir>/trusted.json`: per folder (real path) the declarations the
 * person trusted — server entries, rules and root as written, `.env` values only as salted hashes —
 * and a hash of the whole set. A folder is trusted while everything it declares now was trusted;
 * anything new or changed is reported as a change to ask about again. Written under a lock,
 * atomically, mode 0600.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { userStateDir } from '../config/paths.js';
import { withFileLock } from '../util/file-lock.js';
import { ConfigError, describeSchemaError, readJsonFile } from '../util/json-file.js';
import { writeFileAtomic } from '../util/safe-write.js';
import * as z from '../util/schema.js';
import {
  canonicalJson,
  type Declaration,
  type FolderDeclarations,
  type TrustContributor,
  wasText,
} from './declarations.js';

export const TRUST_FILE = 'trusted.json';

const buildFolderRecordSchema = () =>
  z.object({
    trustedAt: z.string(),
    hash: z.string(),
    items: z.record(z.string(), z.string()),
    // Set when the record was started by `approve` (an agent-written file, an "always" answer) in a
    // folder that declared nothing, not by the person's yes to the question or `geekagent trust`.
    unconfirmed: z.optional(z.boolean()),
  });

const buildTrustFileSchema = () =>
  z.object({
    version: z.literal(1),
    salt: z.string(),
    folders: z.record(z.string(), buildFolderRecordSchema()),
  });

// Built when trusted.json exists and is read, not at every start.
const trustFileSchema = z.lazySchema(buildTrustFileSchema);

type TrustFile = z.infer<ReturnType<typeof buildTrustFileSchema>>;
type FolderRecord = z.infer<ReturnType<typeof buildFolderRecordSchema>>;

/** Something the folder declares that the record does not hold as it is now. */
export interface TrustChange {
  change: 'new' | 'changed';
  item: Declaration;
  /** What was trusted before, for a person (changed items only). */
  was?: string;
}

export type TrustCheck =
  | { state: 'trusted'; confirmed: boolean }
  | { state: 'never' }
  | { state: 'changed'; changes: TrustChange[] };

export class TrustStore {
  /** `contributors`: the features that word a changed item as it was (`TrustChange.was`). */
  constructor(
    readonly file: string,
    private readonly contributors: readonly TrustContributor[] = [],
  ) {}

  /** The record under `$GEEKAGENT_HOME` (or `~/.geekagent`), read from the real environment. */
  static forUser(
    env: NodeJS.ProcessEnv,
    homeDir?: string,
    contributors: readonly TrustContributor[] = [],
  ): TrustStore {
    return new TrustStore(path.join(userStateDir(env, homeDir), TRUST_FILE), contributors);
  }

  async check(declarations: FolderDeclarations): Promise<TrustCheck> {
    const document = await this.read();
    const record = document?.folders[declarations.folder];
    if (!document || !record) return { state: 'never' };
    const confirmed = record.unconfirmed !== true;
    if (record.hash === hashItems(storedItems(declarations.items, document.salt)))
      return { state: 'trusted', confirmed };
    const changes = diffItems(declarations.items, record, document.salt, this.contributors);
    return changes.length === 0 ? { state: 'trusted', confirmed } : { state: 'changed', changes };
  }

  /** Records `declarations` as what the person trusts for their folder (replacing the old record). */
  async trust(declarations: FolderDeclarations): Promise<void> {
    await this.update((document) => {
      const items = storedItems(declarations.items, document.salt);
      document.folders[declarations.folder] = {
        trustedAt: new Date().toISOString(),
        hash: hashItems(items),
        items,
      };
    });
  }

  /**
   * Adds items the person made themselves (an "always" answer, `mcp add`) to the folder's record,
   * creating it when there is none — only for a folder this run treats as trusted.
   */
  async approve(folder: string, items: readonly Declaration[]): Promise<void> {
    await this.update((document) => {
      const record = document.folders[folder];
      const merged = { ...record?.items, ...storedItems(items, document.salt) };
      document.folders[folder] = {
        trustedAt: record?.trustedAt ?? new Date().toISOString(),
        hash: hashItems(merged),
        items: merged,
        // A record this starts is the agent's bookkeeping, never the person's yes.
        ...(!record || record.unconfirmed ? { unconfirmed: true } : {}),
      };
    });
  }

  /** Forgets a folder; false when it was not recorded. */
  async revoke(folder: string): Promise<boolean> {
    let removed = false;
    await this.update((document) => {
      removed = Object.hasOwn(document.folders, folder);
      delete document.folders[folder];
    });
    return removed;
  }

  private async read(): Promise<TrustFile | undefined> {
    const read = await readJsonFile(this.file);
    if (read.kind === 'missing') return undefined;
    const parsed = trustFileSchema().safeParse(read.value);
    if (!parsed.success) {
      throw new ConfigError(
        `${describeSchemaError(this.file, parsed.error)}\n(delete ${this.file} to forget every trusted folder and start over)`,
        this.file,
      );
    }
    return parsed.data;
  }

  private async update(change: (document: TrustFile) => void): Promise<void> {
    await withFileLock(
      this.file,
      async () => {
        const document = (await this.read()) ?? {
          version: 1 as const,
          salt: randomBytes(16).toString('hex'),
          folders: {},
        };
        change(document);
        await writeFileAtomic(this.file, `${JSON.stringify(document, null, 2)}\n`, {
          mode: 0o600,
          dirMode: 0o700,
        });
      },
      { mode: 0o600 },
    );
  }
}

/** Item values as stored: `.env` values as salted hashes (the record must not hold secrets). */
export function storedItems(items: readonly Declaration[], salt: string): Record<string, string> {
  const stored: Record<string, string> = {};
  for (const item of items) stored[item.key] = storedValue(item, salt);
  return stored;
}

function storedValue(item: Declaration, salt: string): string {
  if (item.kind !== 'env') return item.value;
  return `hmac-sha256:${createHmac('sha256', salt).update(`${item.name}\0${item.value}`).digest('hex')}`;
}

export function hashItems(items: Record<string, string>): string {
  return `sha256:${createHash('sha256').update(canonicalJson(items)).digest('hex')}`;
}

/** What is new or changed in `items` against the record (removed declarations need no trust). */
export function diffItems(
  items: readonly Declaration[],
  record: FolderRecord,
  salt: string,
  contributors: readonly TrustContributor[] = [],
): TrustChange[] {
  const changes: TrustChange[] = [];
  for (const item of items) {
    const before = record.items[item.key];
    if (before === undefined) changes.push({ change: 'new', item });
    else if (before !== storedValue(item, salt))
      changes.push({ change: 'changed', item, was: wasText(contributors, item, before) });
  }
  return changes;
}
