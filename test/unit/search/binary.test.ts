/**
 * The binary form of an index (the knowledge base's): the same answers and scores as the index it
 * came from, further changes after a load, and damaged bytes refused with SearchIndexFormatError —
 * never another exception, never a hang — whether at load or when a search first reads a list.
 */
import { describe, expect, it } from 'vitest';
import {
  createIndex,
  loadIndexBytes,
  type SearchIndex,
  SearchIndexFormatError,
} from '../../../src/search/index.js';

const QUERIES = ['issue', 'take a picture of the page', 'list files', '東京', 'open a ticket', 'repository'];

function sample(): SearchIndex {
  const index = createIndex({ fields: { name: { boost: 2 }, description: {} } });
  index.add('a', { name: 'create_issue', description: 'Create a new issue in a GitHub repository' });
  index.add('b', { name: 'get_issue', description: 'Get details of a specific issue' });
  index.add('c', { name: 'browser_take_screenshot', description: 'Take a screenshot of the current page' });
  index.add('d', { name: 'list_directory', description: 'List files and directories' });
  index.add('e', { name: 'tokyo', description: '東京都の天気を調べる' });
  return index;
}

const answers = (index: SearchIndex) => QUERIES.map((q) => index.search(q, { limit: 10 }));

describe('binary index', () => {
  it('round-trips with identical answers and scores, and takes changes after a load', () => {
    const index = sample();
    index.remove('b');
    const loaded = loadIndexBytes(index.toBytes());
    expect(loaded.size).toBe(4);
    expect(loaded.ids()).toEqual(['a', 'c', 'd', 'e']);
    expect(answers(loaded)).toEqual(answers(index));
    expect(loaded.has('c')).toBe(true);
    expect(() => loaded.add('c', { name: 'again' })).toThrow(/already indexed/);
    loaded.replace('c', { name: 'browser_navigate', description: 'Navigate to a URL' });
    loaded.add('f', { name: 'git_commit', description: 'Record changes to the repository' });
    index.replace('c', { name: 'browser_navigate', description: 'Navigate to a URL' });
    index.add('f', { name: 'git_commit', description: 'Record changes to the repository' });
    expect(answers(loaded)).toEqual(answers(index));
    expect(answers(loadIndexBytes(loaded.toBytes()))).toEqual(answers(index));
    expect(Buffer.concat(loaded.toByteParts())).toEqual(Buffer.from(loaded.toBytes()));
  });

  it('an empty index round-trips', () => {
    const loaded = loadIndexBytes(createIndex({ fields: { text: {} } }).toBytes());
    expect(loaded.size).toBe(0);
    expect(loaded.search('anything')).toEqual([]);
  });

  it('refuses an id holding a newline when writing', () => {
    const index = createIndex({ fields: { text: {} } });
    index.add('a\nb', { text: 'x' });
    expect(() => index.toBytes()).toThrow(/newline/);
  });

  it('refuses foreign, cut or inconsistent bytes', () => {
    const good = Buffer.from(sample().toBytes());
    const refuses = (bytes: Uint8Array, message: RegExp) => {
      expect(() => loadIndexBytes(bytes)).toThrow(SearchIndexFormatError);
      expect(() => loadIndexBytes(bytes)).toThrow(message);
    };
    refuses(Buffer.from('{"format":"geekagent-search-index"}'), /not a binary search index/);
    refuses(good.subarray(0, good.length - 1), /do not add up/);
    refuses(Buffer.concat([good, Buffer.from([0])]), /do not add up/);
    refuses(good.subarray(0, 20), /header runs past the end|not JSON/);
    const headLength = good.readUInt32LE(8);
    const head = JSON.parse(good.toString('utf8', 12, 12 + headLength));
    const withHead = (changes: Record<string, unknown>) => {
      const text = Buffer.from(JSON.stringify({ ...head, ...changes }));
      const size = Buffer.alloc(4);
      size.writeUInt32LE(text.length);
      return Buffer.concat([good.subarray(0, 8), size, text, good.subarray(12 + headLength)]);
    };
    refuses(withHead({ ids: 4 }), /ids: 5 entries, the header says 4/);
    refuses(withHead({ analyzer: 'geek-0' }), /analyzer geek-0.*rebuild/);
    refuses(withHead({ sections: [1, 2, 3] }), /five whole numbers/);
    const [ids, terms, lengths, postings, lists] = head.sections as number[];
    refuses(withHead({ sections: [ids, terms, lengths, postings! + 1, lists! - 1] }), /list sizes/);
    // Two ids alike: found when the id map is first needed (the first change), still a format error.
    const idStart = 12 + headLength;
    const twin = Buffer.from(good);
    twin.write('a', idStart + 2, 'latin1'); // "a\nb\n…" → "a\na\n…"
    const loaded = loadIndexBytes(twin);
    expect(() => loaded.add('z', { name: 'z' })).toThrow(/same id/);
  });

  it('never throws anything but a format error on corrupted bytes', () => {
    const good = Buffer.from(sample().toBytes());
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 300; round++) {
      const bad = Buffer.from(good);
      const flips = 1 + Math.floor(random() * 3);
      for (let i = 0; i < flips; i++) bad[Math.floor(random() * bad.length)] = Math.floor(random() * 256);
      try {
        const index = loadIndexBytes(bad);
        for (const q of QUERIES) index.search(q);
        index.add('zz', { name: 'zz' });
      } catch (error) {
        if (error instanceof SearchIndexFormatError) continue;
        if (error instanceof Error && /already indexed/.test(error.message)) continue;
        throw error;
      }
    }
  });
});
