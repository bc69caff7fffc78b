/**
 * The knowledge base's storage (format 2): chunk texts packed into a few segment files (not a file
 * per source), one `index.bin` that a fresh store loads and answers from, dead segments rewritten
 * or deleted, small ones merged; format-1 stores (a chunk file per source) read and migrated by the
 * next change; damaged or hostile files refused with a message naming the file and the fix.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeStore } from '../../../src/rag/catalog.js';
import type { SourceItem } from '../../../src/rag/sources.js';
import { RagStore } from '../../../src/rag/store.js';
import { chunkText, createIndex, RAG_CHUNK } from '../../../src/search/index.js';

let root: string;
const rag = (...parts: string[]) => path.join(root, '.geekagent', 'rag', ...parts);
const segments = async () => (await readdir(rag('segments'))).filter((n) => n.endsWith('.seg')).sort();
const exists = (file: string) =>
  lstat(file).then(
    () => true,
    () => false,
  );

const doc = (key: string, text: string): SourceItem => ({ kind: 'text', key, text, bytes: text.length });
const topic = (i: number) =>
  `Document ${i}.\n${'Ordinary filler words about nothing in particular. '.repeat(30)}\nThe secret word of document ${i} is zebra${i}x.\n`;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'geekagent-rag-store-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('knowledge base storage', () => {
  it('packs 300 sources into one segment, no file per source, and a fresh store cites them', async () => {
    const store = new RagStore(root);
    const items = Array.from({ length: 300 }, (_, i) => doc(`docs/d${i}.md`, topic(i)));
    const results = await store.add(items);
    expect(results.filter((r) => r.kind === 'indexed')).toHaveLength(300);
    expect(await segments()).toHaveLength(1);
    expect(await exists(rag('chunks'))).toBe(false);
    expect(await exists(rag('index.bin'))).toBe(true);

    const fresh = new RagStore(root);
    const [hit] = await fresh.search('zebra123x');
    expect(hit).toMatchObject({ source: 'docs/d123.md' });
    expect(hit!.text).toContain('The secret word of document 123 is zebra123x.');
    const expected = chunkText(topic(123), RAG_CHUNK.size, RAG_CHUNK.overlap).find((c) =>
      c.text.includes('zebra123x'),
    )!;
    expect([hit!.line, hit!.endLine]).toEqual([expected.line, expected.endLine]);
    expect(fresh.stats).toMatchObject({ sources: 300 });
  });

  it('rewrites a mostly dead segment and deletes segments nothing names', async () => {
    const store = new RagStore(root);
    await store.add(Array.from({ length: 10 }, (_, i) => doc(`docs/d${i}.md`, topic(i))));
    const [first] = await segments();
    for (let i = 0; i < 9; i++) await store.remove(`docs/d${i}.md`);
    const left = await segments();
    expect(left).toHaveLength(1);
    expect(left[0]).not.toBe(first);
    const fresh = new RagStore(root);
    expect((await fresh.search('zebra9x'))[0]?.source).toBe('docs/d9.md');
    expect(new Set((await fresh.search('document 3 zebra3x', 20)).map((h) => h.source))).toEqual(
      new Set(['docs/d9.md']),
    );
  });

  it('merges the small segments of many small adds', async () => {
    const store = new RagStore(root);
    for (let i = 0; i < 12; i++) await store.add([doc(`docs/d${i}.md`, topic(i))]);
    expect((await segments()).length).toBeLessThanOrEqual(9);
    const fresh = new RagStore(root);
    for (const i of [0, 5, 11]) expect((await fresh.search(`zebra${i}x`))[0]?.source).toBe(`docs/d${i}.md`);
  });

  it('reads a format-1 store (a chunk file per source) and moves it to format 2 on the next change', async () => {
    const text = 'Backups run nightly at 02:00 to the cold storage bucket.';
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 32);
    const index = createIndex({ fields: { text: {} } });
    index.add(`${hash}:0`, { text });
    await mkdir(rag('chunks'), { recursive: true });
    await writeFile(rag('chunks', `${hash}.json`), JSON.stringify([{ line: 1, endLine: 1, text }]));
    await writeFile(rag('search-index.json'), JSON.stringify(index.toJSON()));
    await writeFile(
      rag('catalog.json'),
      JSON.stringify({
        version: 1,
        sources: [{ source: 'old/guide.md', hash, bytes: text.length, chunks: 1, added: '2026-01-01' }],
      }),
    );

    const old = new RagStore(root);
    expect((await old.search('nightly backups'))[0]).toMatchObject({ source: 'old/guide.md', line: 1 });
    expect(old.storeFormat).toBe(1);

    await old.add([doc('new/notes.md', 'Restores need two approvals.')]);
    expect(old.takeNotes().join('\n')).toMatch(/moved the knowledge base to format 2 \(2 sources/);
    expect(old.storeFormat).toBe(2);
    for (const gone of ['chunks', 'catalog.json', 'search-index.json'])
      expect(await exists(rag(gone))).toBe(false);
    const fresh = new RagStore(root);
    expect((await fresh.search('cold storage bucket'))[0]?.text).toBe(text);
    expect((await fresh.search('two approvals'))[0]?.source).toBe('new/notes.md');
  });

  it('rebuilds an index from another analyzer version from the segments', async () => {
    await new RagStore(root).add([doc('docs/a.md', topic(1)), doc('docs/b.md', topic(2))]);
    const bytes = await readFile(rag('index.bin'));
    const at = bytes.indexOf('"analyzer":"');
    expect(at).toBeGreaterThan(0);
    bytes.write('X', at + '"analyzer":"'.length, 'latin1');
    await writeFile(rag('index.bin'), bytes);
    expect((await new RagStore(root).search('zebra2x'))[0]?.source).toBe('docs/b.md');
  });

  it('refuses a damaged index.bin, and a segment name that would leave the folder, naming the fix', async () => {
    await mkdir(rag(), { recursive: true });
    await writeFile(rag('index.bin'), 'GKRAGKB2 not really');
    await expect(new RagStore(root).search('x')).rejects.toThrow(
      /index\.bin is damaged .*remove \.geekagent\/rag\/ and add the sources again/,
    );
    const hostile = encodeStore(
      [
        {
          source: 'a.md',
          hash: 'a'.repeat(32),
          bytes: 1,
          chunks: 1,
          added: '',
          at: { segment: '../../../etc/passwd', offset: 0, length: 10 },
        },
      ],
      [createIndex({ fields: { text: {} } }).toBytes()],
    );
    await writeFile(rag('index.bin'), hostile);
    await expect(new RagStore(root).search('x')).rejects.toThrow(
      /index\.bin is damaged \(source 1: bad segment name\)/,
    );
  });

  it("imports the described system's index.json once when two agents open the store at the same moment", async () => {
    await mkdir(rag(), { recursive: true });
    await writeFile(
      rag('index.json'),
      JSON.stringify([{ source: 'old/guide.md', text: 'Backups run nightly to the cold storage bucket.' }]),
    );
    const [a, b] = [new RagStore(root), new RagStore(root)];
    const [hitsA, hitsB] = await Promise.all([a.search('cold storage'), b.search('cold storage')]);
    expect(hitsA[0]?.source).toBe('old/guide.md');
    expect(hitsB[0]?.source).toBe('old/guide.md');
    // One of them imported (under the lock); the other found the store it wrote.
    const notes = [...a.takeNotes(), ...b.takeNotes()];
    expect(notes).toEqual(['imported 1 sources from .geekagent/rag/index.json']);
    expect(await segments()).toHaveLength(1);
  });
});
