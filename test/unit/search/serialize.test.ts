import { describe, expect, it } from 'vitest';
import {
  createIndex,
  loadIndex,
  type SearchIndex,
  SearchIndexFormatError,
  type SerializedIndex,
} from '../../../src/search/index.js';

const QUERIES = ['issue', 'take a picture of the page', 'list files', '東京', 'open a ticket', 'repository'];

function sample(): SearchIndex {
  const index = createIndex({ fields: { name: { boost: 2 }, description: {}, params: { boost: 0.5 } } });
  index.add('a', {
    name: 'create_issue',
    description: 'Create a new issue in a GitHub repository',
    params: ['title'],
  });
  index.add('b', {
    name: 'get_issue',
    description: 'Get details of a specific issue',
    params: ['issue_number'],
  });
  index.add('c', { name: 'browser_take_screenshot', description: 'Take a screenshot of the current page' });
  index.add('d', { name: 'list_directory', description: 'List files and directories' });
  index.add('e', { name: 'tokyo', description: '東京都の天気を調べる' });
  return index;
}

const answers = (index: SearchIndex) => QUERIES.map((q) => index.search(q, { limit: 10 }));
const roundTrip = (index: SearchIndex) => loadIndex(JSON.parse(JSON.stringify(index.toJSON())));

describe('serialisation', () => {
  it('round-trips through JSON text with identical answers and scores', () => {
    const index = sample();
    const loaded = roundTrip(index);
    expect(loaded.size).toBe(5);
    expect(loaded.ids()).toEqual(index.ids());
    expect(answers(loaded)).toEqual(answers(index));
  });

  it('stores postings compactly, not as per-posting JSON', () => {
    const json = sample().toJSON();
    expect(typeof json.postings).toBe('string');
    expect(json).toMatchObject({ format: 'geekagent-search-index', version: 1, k1: 1.2, b: 0.75 });
  });

  it('leaves removed documents out and keeps the survivors exact', () => {
    const index = sample();
    index.remove('b');
    index.remove('e');
    const loaded = roundTrip(index);
    expect(loaded.ids()).toEqual(['a', 'c', 'd']);
    expect(answers(loaded)).toEqual(answers(index));
  });

  it('a loaded index takes further adds, replaces and removes', () => {
    const loaded = roundTrip(sample());
    loaded.remove('a');
    loaded.replace('c', { name: 'browser_navigate', description: 'Navigate to a URL' });
    loaded.add('f', { name: 'git_commit', description: 'Record changes to the repository' });
    const fresh = sample();
    fresh.remove('a');
    fresh.replace('c', { name: 'browser_navigate', description: 'Navigate to a URL' });
    fresh.add('f', { name: 'git_commit', description: 'Record changes to the repository' });
    expect(answers(loaded)).toEqual(answers(fresh));
    expect(answers(roundTrip(loaded))).toEqual(answers(fresh));
  });

  it('keeps k1, b, stemming and boosts; boosts can be overridden at load', () => {
    const index = createIndex({ fields: { text: { boost: 3 } }, k1: 2, b: 0.5, stem: false });
    index.add('x', { text: 'running fast' });
    const loaded = roundTrip(index);
    expect(loaded.search('running')).toEqual(index.search('running'));
    expect(loaded.search('run')).toEqual([]);
    const reboosted = loadIndex(index.toJSON(), { fields: { text: { boost: 1 } } });
    expect(reboosted.search('running')[0]!.score).toBeLessThan(index.search('running')[0]!.score);
  });

  it('takes query-time behaviour at load (synonyms are not stored)', () => {
    const loaded = loadIndex(sample().toJSON(), { synonyms: false });
    expect(loaded.search('ticket')).toEqual([]);
    expect(roundTrip(sample()).search('ticket').length).toBeGreaterThan(0);
  });
});

describe('loading a damaged or foreign file', () => {
  const good = (): SerializedIndex => sample().toJSON();
  const refuses = (value: unknown, message: RegExp) => {
    expect(() => loadIndex(value)).toThrow(SearchIndexFormatError);
    expect(() => loadIndex(value)).toThrow(message);
  };

  it('refuses what is not an index', () => {
    refuses(null, /not a JSON object/);
    refuses([], /format/);
    refuses({ ...good(), format: 'other' }, /format/);
    refuses({ ...good(), version: 2 }, /version 2/);
    refuses({ ...good(), analyzer: 'geek-0' }, /analyzer geek-0.*rebuild/);
  });

  it('refuses bad parameters and lists', () => {
    refuses({ ...good(), k1: 'x' }, /k1/);
    refuses({ ...good(), b: 7 }, /b is not/);
    refuses({ ...good(), fields: [] }, /fields/);
    refuses({ ...good(), fields: [{ name: 'a', boost: -1 }] }, /positive boost/);
    refuses({ ...good(), ids: ['a', 'a', 'b', 'c', 'd'] }, /same id/);
    refuses({ ...good(), ids: [1, 2] }, /ids holds a non-string/);
    refuses({ ...good(), terms: 'x' }, /terms is not a list/);
    refuses({ ...good(), postings: '!!' }, /not base64/);
  });

  it('refuses postings that are cut, too long, or point past the documents', () => {
    const json = good();
    const bytes = Buffer.from(json.postings, 'base64');
    refuses(
      { ...json, postings: bytes.subarray(0, bytes.length - 1).toString('base64') },
      /ends in the middle|ends before|past its end/,
    );
    refuses(
      { ...json, postings: Buffer.concat([bytes, Buffer.from([0])]).toString('base64') },
      /past its end/,
    );
    refuses(
      { ...json, ids: json.ids.slice(0, 2) },
      /document that does not exist|more documents|lengths|ends/,
    );
    refuses({ ...json, lengths: '' }, /lengths/);
    refuses(
      { ...json, postings: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7f]).toString('base64') },
      /over 32 bits|more documents/,
    );
  });

  it('reports a damaged list when a search first reads it', () => {
    const index = createIndex({ fields: { text: {} }, stem: false });
    index.add('x', { text: 'alpha' });
    const json = index.toJSON();
    // One term, one field: count 1, document delta 5 (past the single document), tf 1.
    const loaded = loadIndex({ ...json, postings: Buffer.from([1, 5, 1]).toString('base64') });
    expect(() => loaded.search('alpha')).toThrow(/document that does not exist/);
    const overlong = loadIndex({
      ...json,
      postings: Buffer.from([1, 0, 0x80, 0x80, 0x80, 0x80, 0x10]).toString('base64'),
    });
    expect(() => overlong.search('alpha')).toThrow(SearchIndexFormatError);
  });

  it('never hangs or crashes on random bytes', () => {
    const json = good();
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let i = 0; i < 200; i++) {
      const bytes = Buffer.from(Array.from({ length: 1 + (random() % 64) }, () => random() & 0xff));
      try {
        // Lists are decoded when first read: searching is part of loading them.
        const loaded = loadIndex({ ...json, postings: bytes.toString('base64') });
        for (const q of QUERIES) loaded.search(q);
        loaded.remove('a');
      } catch (error) {
        expect(error).toBeInstanceOf(SearchIndexFormatError);
      }
    }
  });
});
