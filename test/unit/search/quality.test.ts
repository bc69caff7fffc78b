// Retrieval quality floors on the labelled sets of test/fixtures/search/ (the numbers themselves:
// `node bench/search-quality.mjs`). Floors sit just below what the module achieves, and the
// ablations show each part is needed: without the synonym table or without stemming the held-out
// tool queries fall under the floor.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chunkText,
  createIndex,
  evaluateQueries,
  hitAt,
  type IndexOptions,
  type LabelledQuery,
  RAG_CHUNK,
  TOOL_FIELDS,
  toolDocument,
} from '../../../src/search/index.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'search');
const NM = path.join(ROOT, 'node_modules');
const json = <T>(file: string): T => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as T;

interface Tool {
  server: string;
  name: string;
  description: string;
  params: string[];
}
const tools = [...json<Tool[]>('tools-popular.json'), ...json<Tool[]>('tools-real.json')];
const toolQueries = json<{ dev: LabelledQuery[]; heldout: LabelledQuery[] }>('tool-queries.json');
const docQueries = json<{ queries: LabelledQuery[] }>('doc-queries.json').queries;

type Variant = Pick<IndexOptions, 'synonyms' | 'stem'>;

function toolHits(queries: LabelledQuery[], variant: Variant = {}) {
  const index = createIndex({ fields: TOOL_FIELDS, ...variant });
  for (const t of tools) index.add(`${t.server}/${t.name}`, toolDocument(t));
  const outcomes = evaluateQueries(queries, (q) => index.search(q, { limit: 5 }).map((h) => h.id));
  return { at1: hitAt(outcomes, 1), at5: hitAt(outcomes, 5) };
}

/** Every README at a package root (MiniSearch left out: measured, not a dependency). */
function readmes(): { source: string; text: string }[] {
  const packages = readdirSync(NM)
    .filter((n) => !n.startsWith('.') && n !== 'minisearch')
    .flatMap((n) => (n.startsWith('@') ? readdirSync(path.join(NM, n)).map((s) => `${n}/${s}`) : [n]));
  return packages.flatMap((pkg) => {
    let files: string[];
    try {
      files = readdirSync(path.join(NM, pkg));
    } catch {
      return [];
    }
    return files
      .filter((f) => /^readme/i.test(f))
      .map((f) => ({ source: `${pkg}/${f}`, text: readFileSync(path.join(NM, pkg, f), 'utf8') }));
  });
}

const HELD_OUT_AT5 = 0.78;

describe('tool search quality (211 real-world tool definitions)', () => {
  it('held-out paraphrases: hit@5 ≥ 0.78, hit@1 ≥ 0.50', () => {
    const { at1, at5 } = toolHits(toolQueries.heldout);
    expect(at5).toBeGreaterThanOrEqual(HELD_OUT_AT5);
    expect(at1).toBeGreaterThanOrEqual(0.5);
  });

  it('dev queries: hit@5 ≥ 0.92, hit@1 ≥ 0.70', () => {
    const { at1, at5 } = toolHits(toolQueries.dev);
    expect(at5).toBeGreaterThanOrEqual(0.92);
    expect(at1).toBeGreaterThanOrEqual(0.7);
  });

  it('the synonym table and stemming each carry the held-out score above the floor', () => {
    expect(toolHits(toolQueries.heldout, { synonyms: false }).at5).toBeLessThan(HELD_OUT_AT5);
    expect(toolHits(toolQueries.heldout, { stem: false }).at5).toBeLessThan(HELD_OUT_AT5);
  });
});

describe('document retrieval quality (package READMEs, 800/80 chunks)', () => {
  // 41 of 47 today; the floor leaves two questions for dependency updates that add READMEs.
  it('questions → README: hit@4 ≥ 0.82, CJK questions included', () => {
    const index = createIndex({ fields: { text: {} } });
    const corpus = readmes();
    expect(corpus.length).toBeGreaterThan(200);
    for (const r of corpus) {
      for (const c of chunkText(r.text, RAG_CHUNK.size, RAG_CHUNK.overlap))
        index.add(`${r.source}:${c.start}`, { text: c.text });
    }
    const sourceOf = (id: string) => id.slice(0, id.lastIndexOf(':'));
    const outcomes = evaluateQueries(docQueries, (q) =>
      index.search(q, { limit: 4 }).map((h) => sourceOf(h.id)),
    );
    expect(hitAt(outcomes, 4)).toBeGreaterThanOrEqual(0.82);
    const cjk = outcomes.filter((o) =>
      /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u.test(o.query),
    );
    expect(cjk).toHaveLength(3);
    expect(cjk.every((o) => o.rank !== undefined && o.rank <= 4)).toBe(true);
  });
});
