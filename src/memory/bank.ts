/**
 * Long-term memory: the project's and the user's memory files, one BM25 index over their entries
 * (chunked 320/80, through the search module), and what the tools and commands do with it —
 * write (redacted; a near-duplicate updates the entry it repeats), search (best chunk per entry),
 * recall within a character budget, delete. The index is rebuilt when either file changed.
 */
import { chunkText, createIndex, MEMORY_CHUNK, type SearchIndex, tokenize } from '../search/index.js';
import type { Redactor } from '../util/redact.js';
import { type MemoryEntry, type MemoryFile, type MemoryScope, newMemoryId } from './file.js';

/** Two texts whose word sets overlap this much (Jaccard) are the same memory. */
export const NEAR_DUPLICATE = 0.7;
export const MAX_MEMORY_CHARS = 4000;
/** Recalled memories take at most this many characters of the system prompt (~600 tokens). */
export const RECALL_BUDGET_CHARS = 2400;
export const RECALL_LIMIT = 5;

export interface MemoryHit {
  entry: MemoryEntry;
  score: number;
  matches: string[];
}

export type WriteOutcome =
  | { kind: 'added'; entry: MemoryEntry }
  | { kind: 'updated'; entry: MemoryEntry; previous: string };

export class MemoryBank {
  private entries: MemoryEntry[] = [];
  /** Built by the first refresh (every search refreshes first): none at start-up. */
  private index: SearchIndex | undefined;
  private chunks = 0;
  private versions = '';

  constructor(
    private readonly files: Record<MemoryScope, MemoryFile>,
    private readonly redact: Redactor,
  ) {}

  /** Where a scope's entries are kept (the user's file is shown in approval questions). */
  fileOf(scope: MemoryScope): string {
    return this.files[scope].file;
  }

  get size(): { entries: number; chunks: number } {
    return { entries: this.entries.length, chunks: this.chunks };
  }

  /** Re-reads the files when either changed (another agent, an edit) and rebuilds the index. */
  async refresh(): Promise<void> {
    const versions = `${await this.files.project.version()}/${await this.files.user.version()}`;
    if (versions === this.versions) return;
    const entries = [...(await this.files.project.read()), ...(await this.files.user.read())];
    const index = createIndex({ fields: { text: {} } });
    let chunks = 0;
    for (const entry of entries) {
      for (const [n, chunk] of chunkText(entry.content, MEMORY_CHUNK.size, MEMORY_CHUNK.overlap).entries()) {
        index.add(`${entry.scope}:${entry.id}#${n}`, { text: chunk.text });
        chunks++;
      }
    }
    this.entries = entries;
    this.index = index;
    this.chunks = chunks;
    this.versions = versions;
  }

  async list(): Promise<MemoryEntry[]> {
    await this.refresh();
    return [...this.entries];
  }

  async search(query: string, limit = RECALL_LIMIT): Promise<MemoryHit[]> {
    await this.refresh();
    // Nothing saved (most runs): no query to analyse, no synonyms to compile before the first request.
    if (this.entries.length === 0) return [];
    const byKey = new Map(this.entries.map((entry) => [`${entry.scope}:${entry.id}`, entry]));
    const best = new Map<string, MemoryHit>();
    for (const hit of this.index?.search(query, { limit: limit * 4 }) ?? []) {
      const key = hit.id.slice(0, hit.id.lastIndexOf('#'));
      const entry = byKey.get(key);
      if (entry === undefined || best.has(key)) continue;
      best.set(key, { entry, score: hit.score, matches: hit.matches });
    }
    return [...best.values()].slice(0, limit);
  }

  /** The top hits for `query` that fit the budget, best first. */
  async recall(query: string): Promise<MemoryHit[]> {
    const chosen: MemoryHit[] = [];
    let used = 0;
    for (const hit of await this.search(query, RECALL_LIMIT)) {
      const cost = hit.entry.content.length + 24;
      if (used + cost > RECALL_BUDGET_CHARS) continue;
      chosen.push(hit);
      used += cost;
    }
    return chosen;
  }

  async write(content: string, scope: MemoryScope = 'project'): Promise<WriteOutcome> {
    const text = this.redact(content.trim());
    if (text === '') throw new Error('memory_write: content is empty');
    if (text.length > MAX_MEMORY_CHARS)
      throw new Error(
        `memory_write: content is ${text.length} characters; keep a memory under ${MAX_MEMORY_CHARS}`,
      );
    const outcome = await this.files[scope].update<WriteOutcome>((entries) => {
      const words = new Set(tokenize(text));
      const now = new Date().toISOString();
      const twin = entries.find(
        (entry) => similarity(words, new Set(tokenize(entry.content))) >= NEAR_DUPLICATE,
      );
      if (twin) {
        const entry = { ...twin, content: text, updated: now };
        return {
          entries: entries.map((e) => (e === twin ? entry : e)),
          result: { kind: 'updated', entry, previous: twin.content },
        };
      }
      const entry: MemoryEntry = { id: newMemoryId(), content: text, created: now, scope };
      return { entries: [...entries, entry], result: { kind: 'added', entry } };
    });
    this.versions = '';
    return outcome;
  }

  /** Deletes the entry with `id` from whichever file holds it; undefined when none does. */
  async delete(id: string): Promise<MemoryEntry | undefined> {
    await this.refresh();
    const entry = this.entries.find((e) => e.id === id);
    if (entry === undefined) return undefined;
    const removed = await this.files[entry.scope].update((entries) => {
      const found = entries.find((e) => e.id === id);
      return { entries: entries.filter((e) => e.id !== id), result: found };
    });
    this.versions = '';
    return removed;
  }
}

function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}
