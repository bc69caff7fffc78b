import { describe, expect, it } from 'vitest';
import { createIndex } from '../../../src/search/index.js';

const index = createIndex({ fields: { text: {} } });
const clauses = (q: string) =>
  index.explain(q).map((c) => ({
    label: c.label,
    alternatives: c.alternatives.map((a) => `${a.terms.join(' ')}@${a.weight}`),
  }));

describe('query analysis', () => {
  it('drops English stop words, unless nothing else is left', () => {
    expect(clauses('how do I find the file').map((c) => c.label)).toEqual(['find', 'file']);
    expect(clauses('the and of').map((c) => c.label)).toEqual(['the', 'and', 'of']);
  });

  it('expands intent words with their synonyms at a lower weight', () => {
    const [find] = clauses('find');
    expect(find?.alternatives[0]).toBe('find@1');
    expect(find?.alternatives).toEqual(
      expect.arrayContaining(['search@0.5', 'lookup@0.5', 'queri@0.5', 'look up@0.5']),
    );
    const [ticket] = clauses('tickets');
    expect(ticket?.alternatives).toEqual(expect.arrayContaining(['ticket@1', 'issu@0.5', 'bug@0.5']));
  });

  it('recognises synonym phrases in the query', () => {
    const labels = clauses('open a pull request').map((c) => c.label);
    expect(labels).toContain('pull request');
    const phrase = clauses('open a pull request').find((c) => c.label === 'pull request');
    expect(phrase?.alternatives).toEqual(expect.arrayContaining(['pr@0.5', 'merg request@0.5']));
  });

  it('treats a split word as a unit: its whole form or all its pieces', () => {
    expect(clauses('GitHub')).toEqual([{ label: 'github', alternatives: ['github@1', 'git hub@1'] }]);
  });

  it('can do without synonyms or stop words', () => {
    const plain = createIndex({ fields: { text: {} }, synonyms: false, stopWords: false });
    expect(plain.explain('find the file').map((c) => c.alternatives.length)).toEqual([1, 1, 1]);
  });
});

describe('synonyms and stemming in ranking', () => {
  it('a phrase synonym reaches documents that use the other phrase', () => {
    const ix = createIndex({ fields: { text: {} } });
    ix.add('pr', { text: 'list open PRs for review' });
    ix.add('other', { text: 'list open files' });
    expect(ix.search('merge requests')[0]?.id).toBe('pr');
  });

  it('custom synonym groups replace the defaults', () => {
    const ix = createIndex({ fields: { text: {} }, synonyms: [['forecast', 'weather']] });
    ix.add('w', { text: 'Get weather information for a city' });
    expect(ix.search('forecast')[0]?.id).toBe('w');
    expect(ix.search('lookup city')[0]?.id).toBe('w');
    expect(ix.search('lookup')).toEqual([]);
  });
});
