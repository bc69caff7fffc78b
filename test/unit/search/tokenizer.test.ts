import { describe, expect, it } from 'vitest';
import { createAnalyzer, tokenize, tokenizeWords } from '../../../src/search/tokenizer.js';

describe('tokenize', () => {
  it('splits camelCase, snake_case, kebab-case and dotted names', () => {
    expect(tokenize('getIssueComments')).toEqual(['get', 'issue', 'comments']);
    expect(tokenize('list_pull_requests')).toEqual(['list', 'pull', 'requests']);
    expect(tokenize('browser-take.screenshot')).toEqual(['browser', 'take', 'screenshot']);
    expect(tokenize('mcp_github_create_issue')).toEqual(['mcp', 'github', 'create', 'issue']);
  });

  it('keeps acronyms whole and splits them from the next word', () => {
    expect(tokenize('HTMLParser parseJSON XMLHttpRequest')).toEqual([
      'html',
      'parser',
      'parse',
      'json',
      'xml',
      'http',
      'request',
    ]);
    expect(tokenize('getURLs IDs')).toEqual(['get', 'urls', 'ids']);
  });

  it('splits letters from digits', () => {
    expect(tokenize('utf8Decode ipv6 v2')).toEqual(['utf', '8', 'decode', 'ipv', '6', 'v', '2']);
  });

  it('lowercases and splits on punctuation and whitespace of any kind', () => {
    expect(tokenize('Hello,\tWORLD!\n(foo) [bar] {baz} "q" a/b\\c')).toEqual([
      'hello',
      'world',
      'foo',
      'bar',
      'baz',
      'q',
      'a',
      'b',
      'c',
    ]);
  });

  it('keeps letters of every script, with NFKC folding', () => {
    expect(tokenize('Привет мир café Straße')).toEqual(['привет', 'мир', 'café', 'straße']);
    expect(tokenize('Ｆｕｌｌｗｉｄｔｈ ＡＢＣ１２')).toEqual(['fullwidth', 'abc', '12']);
    expect(tokenize('cafe\u0301')).toEqual(['café']);
  });

  it('turns CJK runs into overlapping bigrams, a lone character into a unigram', () => {
    expect(tokenize('東京都')).toEqual(['東京', '京都']);
    expect(tokenize('中')).toEqual(['中']);
    expect(tokenize('한국어 텍스트')).toEqual(['한국', '국어', '텍스', '스트']);
    expect(tokenize('カタカナー')).toEqual(['カタ', 'タカ', 'カナ', 'ナー']);
    expect(tokenize('日本語とEnglish混在')).toEqual(['日本', '本語', '語と', 'english', '混在']);
  });

  it('drops absurdly long tokens (hashes, base64)', () => {
    expect(tokenize(`a ${'x'.repeat(65)} b`)).toEqual(['a', 'b']);
  });

  it('groups the pieces of each word', () => {
    expect(tokenizeWords('open GitHub list_items 東京')).toEqual([
      ['open'],
      ['git', 'hub'],
      ['list'],
      ['items'],
      ['東京'],
    ]);
  });
});

describe('createAnalyzer', () => {
  it('stems English words and adds the whole form of a split word', () => {
    const analyzer = createAnalyzer();
    expect(analyzer.terms('getIssueComments')).toEqual(['get', 'issu', 'comment', 'getissuecom']);
    expect(analyzer.terms('GitHub repositories')).toEqual(['git', 'hub', 'github', 'repositori']);
    expect(analyzer.terms('東京都 connections')).toEqual(['東京', '京都', 'connect']);
  });

  it('can leave words unstemmed', () => {
    expect(createAnalyzer({ stem: false }).terms('connections running')).toEqual(['connections', 'running']);
  });
});
