import { describe, expect, it } from 'vitest';
import { createIndex, type SearchDocument, type SearchIndex } from '../../../src/search/index.js';

const DOCS: Record<string, SearchDocument> = {
  a: { name: 'create_issue', description: 'Create a new issue in a GitHub repository' },
  b: { name: 'get_issue', description: 'Get details of a specific issue' },
  c: { name: 'browser_take_screenshot', description: 'Take a screenshot of the current page' },
  d: { name: 'list_directory', description: 'List files and directories in a path' },
  e: { name: 'git_commit', description: 'Records changes to the repository' },
};
const FIELDS = { name: { boost: 2 }, description: {} };
const QUERIES = ['issue', 'repository changes', 'take a picture of the page', 'list files', 'open a ticket'];

function build(ids: string[]): SearchIndex {
  const index = createIndex({ fields: FIELDS });
  for (const id of ids) index.add(id, DOCS[id]!);
  return index;
}

/** Every query's hits (ids and scores) — two indexes with the same documents must agree. */
const answers = (index: SearchIndex) => QUERIES.map((q) => index.search(q, { limit: 10 }));

describe('SearchIndex add / remove / replace', () => {
  it('adds documents and finds them', () => {
    const index = build(['a', 'b', 'c', 'd', 'e']);
    expect(index.size).toBe(5);
    expect(index.has('c')).toBe(true);
    expect(index.ids()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(index.search('screenshot')[0]?.id).toBe('c');
  });

  it('refuses a second document with the same id', () => {
    const index = build(['a']);
    expect(() => index.add('a', DOCS.b!)).toThrow(/"a" is already indexed/);
  });

  it('after a removal, ranks exactly like an index that never had the document', () => {
    const index = build(['a', 'b', 'c', 'd', 'e']);
    expect(index.remove('b')).toBe(true);
    expect(index.remove('b')).toBe(false);
    expect(index.has('b')).toBe(false);
    expect(index.size).toBe(4);
    expect(answers(index)).toEqual(answers(build(['a', 'c', 'd', 'e'])));
  });

  it('replaces a document in place of the old one, and adds when the id is new', () => {
    const index = build(['a', 'b', 'c']);
    index.replace('b', DOCS.d!);
    index.replace('e', DOCS.e!);
    const fresh = createIndex({ fields: FIELDS });
    fresh.add('a', DOCS.a!);
    fresh.add('c', DOCS.c!);
    fresh.add('b', DOCS.d!);
    fresh.add('e', DOCS.e!);
    expect(answers(index)).toEqual(answers(fresh));
    expect(index.search('directories')[0]?.id).toBe('b');
  });

  it('stays exact through many changes (document numbers are compacted on the way)', () => {
    const index = createIndex({ fields: { text: {} } });
    const live = new Map<string, string>();
    for (let round = 0; round < 3000; round++) {
      const id = `doc${round % 700}`;
      const text = `word${round % 13} common ${round % 2 ? 'odd' : 'even'} r${round}`;
      if (round % 5 === 4) {
        index.remove(id);
        live.delete(id);
      } else {
        index.replace(id, { text });
        live.set(id, text);
      }
    }
    const fresh = createIndex({ fields: { text: {} } });
    // Same insertion order as the survivors' last insertion, so ties break the same way.
    for (const id of index.ids()) fresh.add(id, { text: live.get(id)! });
    expect(index.size).toBe(live.size);
    for (const q of ['common', 'odd word3', 'even', 'r2999']) {
      expect(index.search(q, { limit: 50 })).toEqual(fresh.search(q, { limit: 50 }));
    }
  });

  it('finds nothing in an empty index or for an empty query', () => {
    expect(createIndex({ fields: FIELDS }).search('issue')).toEqual([]);
    expect(build(['a']).search('  ...  ')).toEqual([]);
  });
});

describe('SearchIndex.search', () => {
  const index = build(['a', 'b', 'c', 'd', 'e']);

  it('limits, filters and cuts by score', () => {
    expect(index.search('issue', { limit: 1 })).toHaveLength(1);
    expect(index.search('issue', { limit: 0 })).toEqual([]);
    expect(index.search('issue', { filter: (id) => id !== 'a' }).map((h) => h.id)).toEqual(['b']);
    const [best] = index.search('issue');
    expect(index.search('issue', { minScore: best!.score })).toEqual([]);
  });

  it('reports which query words matched, synonyms included', () => {
    const [hit] = index.search('take a picture of the page');
    expect(hit?.id).toBe('c');
    expect(hit?.matches).toEqual(['take', 'picture', 'page']);
  });

  it('finds tools from paraphrases through synonyms and stemming', () => {
    expect(index.search('open a ticket')[0]?.id).toMatch(/^[ab]$/);
    expect(index.search('show the folders')[0]?.id).toBe('d');
  });

  it('is deterministic: equal scores keep insertion order', () => {
    const twins = createIndex({ fields: { text: {} } });
    for (const id of ['z', 'y', 'x']) twins.add(id, { text: 'same words' });
    expect(twins.search('words').map((h) => h.id)).toEqual(['z', 'y', 'x']);
  });
});

describe('CJK', () => {
  it('a CJK query finds CJK text (and not unrelated text)', () => {
    const index = createIndex({ fields: { text: {} } });
    index.add('tokyo', { text: '東京都は日本の首都です。' });
    index.add('kyoto', { text: '京都は古い都です。' });
    index.add('korean', { text: '서울은 한국의 수도입니다.' });
    index.add('english', { text: 'Tokyo is the capital of Japan.' });
    expect(index.search('日本の首都')[0]?.id).toBe('tokyo');
    expect(index.search('한국 수도')[0]?.id).toBe('korean');
    expect(index.search('京都').map((h) => h.id)).toEqual(['kyoto', 'tokyo']);
    expect(index.search('首都').map((h) => h.id)).toEqual(['tokyo']);
  });
});
