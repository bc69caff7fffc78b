import { describe, expect, it } from 'vitest';
import { createIndex, type IndexOptions } from '../../../src/search/index.js';

/** No stemming, synonyms or stop words: bare BM25 to compare with hand-computed numbers. */
const bare = (fields: IndexOptions['fields'], more: Partial<IndexOptions> = {}) =>
  createIndex({ fields, stem: false, synonyms: false, stopWords: false, ...more });

const scores = (index: ReturnType<typeof createIndex>, query: string) =>
  Object.fromEntries(index.search(query).map((h) => [h.id, h.score]));

describe('BM25 (k1 1.2, b 0.75)', () => {
  // N = 3 documents; lengths 2, 3, 4; average length 3.
  const index = bare({ text: {} });
  index.add('d1', { text: 'apple banana' });
  index.add('d2', { text: 'apple apple cherry' });
  index.add('d3', { text: 'banana cherry cherry date' });

  it('scores one term as computed by hand', () => {
    // apple: n = 2 → idf = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.4700036
    // d1: tf 1, len 2 → norm 0.25 + 0.75·2/3 = 0.75 → idf · 1·2.2 / (1 + 1.2·0.75) = idf · 2.2/1.9
    // d2: tf 2, len 3 → norm 1 → idf · 2·2.2 / (2 + 1.2) = idf · 4.4/3.2
    const s = scores(index, 'apple');
    expect(Object.keys(s)).toEqual(['d2', 'd1']);
    expect(s.d1).toBeCloseTo(0.5442147286, 9);
    expect(s.d2).toBeCloseTo(0.6462549902, 9);
  });

  it('sums the terms of a query', () => {
    // d3: cherry tf 2 with norm 0.25 + 0.75·4/3 = 1.25 → ln 1.6 · 4.4/3.5;
    //     date (n = 1, idf ln(1 + 2.5/1.5)) tf 1 → idf · 2.2/2.5.   d2: cherry tf 1, norm 1 → ln 1.6.
    const s = scores(index, 'cherry date');
    expect(s.d3).toBeCloseTo(1.4539914479, 9);
    expect(s.d2).toBeCloseTo(0.4700036292, 9);
    expect(s.d1).toBeUndefined();
  });

  it('uses the k1 and b it is given', () => {
    const flat = bare({ text: {} }, { k1: 2, b: 0 });
    flat.add('x', { text: 'apple banana' });
    flat.add('y', { text: 'apple apple cherry kiwi kiwi kiwi' });
    flat.add('z', { text: 'kiwi' });
    // b 0: no length normalisation; k1 2: tf 2 → idf · 2·3/(2 + 2), tf 1 → idf · 3/3.
    const s = scores(flat, 'apple');
    expect(s.x).toBeCloseTo(Math.log(1.6), 12);
    expect(s.y).toBeCloseTo(Math.log(1.6) * 1.5, 12);
  });

  it('combines fields BM25F-style: boosted, length-normalised frequencies, one saturation', () => {
    const ix = bare({ title: { boost: 2 }, body: {} });
    ix.add('a', { title: 'red apple', body: 'fresh fruit' });
    ix.add('b', { title: 'green pear', body: 'apple pie with apple' });
    ix.add('c', { title: 'blue sky', body: 'no fruit here' });
    // idf over documents with apple in any field: n = 2 → ln 1.6.
    // a: title tf 1, len 2 = avg → t̃ = 2·1/1 = 2 → idf · 2·2.2/(2 + 1.2)
    // b: body tf 2, len 4, avg 3 → norm 1.25 → t̃ = 1.6 → idf · 1.6·2.2/(1.6 + 1.2)
    const s = scores(ix, 'apple');
    expect(s.a).toBeCloseTo(0.6462549902, 9);
    expect(s.b).toBeCloseTo(0.5908617053, 9);
    // A word in both fields saturates once: less than the two fields' separate BM25 scores added.
    ix.add('d', { title: 'apple', body: 'apple' });
    const both = scores(ix, 'apple').d!;
    expect(both).toBeLessThan(Math.log(1 + 2.5 / 3.5) * 2.2 * 2);
  });

  it('takes document fields as text or lists of text, and ignores unknown fields', () => {
    const ix = bare({ name: {}, params: {} });
    ix.add('t', { name: 'create_issue', params: ['owner', 'repo'], other: 'zebra' });
    expect(ix.search('repo').map((h) => h.id)).toEqual(['t']);
    expect(ix.search('zebra')).toEqual([]);
  });

  it('refuses bad options', () => {
    expect(() => createIndex({ fields: {} })).toThrow(/at least one field/);
    expect(() => createIndex({ fields: { a: { boost: 0 } } })).toThrow(/positive boost/);
    expect(() => createIndex({ fields: { a: {} }, b: 2 })).toThrow(/b must be/);
    expect(() => createIndex({ fields: { a: {} }, k1: -1 })).toThrow(/k1 must be/);
  });
});
