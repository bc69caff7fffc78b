/**
 * Text → search terms, the one analysis every index and query uses.
 *
 * `tokenize` splits: NFKC + lowercase; words are runs of letters, digits and marks of any script;
 * inside a word, camelCase humps (`getIssueComments` → get issue comments, `HTMLParser` → html
 * parser, `URLs` → urls) and letter/digit boundaries split too (`utf8` → utf 8); `_ - .` and every
 * other non-alphanumeric separate words. CJK runs (Han, Hiragana, Katakana, Hangul) become
 * overlapping character bigrams (`東京都` → 東京 京都); a lone CJK character stays a unigram.
 *
 * `createAnalyzer` adds the whole form of split words (`GitHub` → git hub github) and English
 * stemming (Porter, with a bounded per-analyzer cache); stop words and synonyms are query-side
 * only (query.ts).
 */
import { porterStem } from './porter.js';

/** Changes whenever analysis changes, so a stored index built by an older analysis is rebuilt. */
export const ANALYZER_VERSION = 'geek-1';

/** Longer "words" are noise (hashes, base64, minified code): dropped. */
const MAX_TOKEN_LENGTH = 64;

const CJK = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}';
// One pass over the original-case text; alternatives in priority order:
//   a CJK run | an acronym before a capitalised word (HTML|Parser) | an optional capital then
//   lowercase letters | an all-caps run with an optional plural s (URLs) | digits.
// `v` flag for class subtraction (CJK letters are \p{Lo} and must not join a Latin word).
// Built on first non-ASCII text, not at load: parsing these Unicode classes costs ~1 ms, and a
// start loads this module (for the tool index) with only ASCII to tokenize, if any.
let piece: RegExp | undefined;
function unicodePiece(): RegExp {
  piece ??= new RegExp(
    [
      `[${CJK}]+`,
      '[\\p{Lu}\\p{Lt}]+(?=[\\p{Lu}\\p{Lt}]\\p{Ll}{2})',
      `[\\p{Lu}\\p{Lt}]?[[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]--[${CJK}]]+`,
      '[\\p{Lu}\\p{Lt}][\\p{Lu}\\p{Lt}\\p{M}]*(?:s(?!\\p{Ll}))?',
      '[\\p{N}\\p{M}]+',
    ].join('|'),
    'gv',
  );
  return piece;
}
// The same alternatives for ASCII-only text, several times faster than the Unicode classes.
const ASCII_PIECE = /[A-Z]+(?=[A-Z][a-z]{2})|[A-Z]?[a-z]+|[A-Z]+(?:s(?![a-z]))?|[0-9]+/g;
let cjkStart: RegExp | undefined;
function startsCjk(text: string): boolean {
  cjkStart ??= new RegExp(`^[${CJK}]`, 'v');
  return cjkStart.test(text);
}
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * Calls `emit` for each token of `text`, in order (the allocation-free form of `tokenize`). With
 * `compounds`, a word split into pieces is also emitted whole after its pieces (`GitHub` → git hub
 * github), so a query typed without the capitals (`github`) still finds it.
 */
export function forEachToken(
  text: string,
  emit: (token: string, joinsPrevious: boolean) => void,
  compounds = false,
): void {
  const ascii = !NON_ASCII.test(text);
  const source = ascii ? text : text.normalize('NFKC');
  const re = ascii ? ASCII_PIECE : unicodePiece();
  re.lastIndex = 0;
  // The pieces of the current word (adjacent matches), for its compound.
  let runEnd = -1;
  let run = '';
  let pieces = 0;
  const flush = () => {
    if (pieces > 1 && run.length <= MAX_TOKEN_LENGTH) emit(run, false);
    run = '';
    pieces = 0;
  };
  for (let m = re.exec(source); m !== null; m = re.exec(source)) {
    const piece = m[0];
    const joins = m.index === runEnd;
    if (compounds && !joins) flush();
    runEnd = m.index + piece.length;
    if (!ascii && startsCjk(piece)) {
      if (compounds) flush();
      runEnd = -1;
      emitBigrams(piece, emit);
      continue;
    }
    const lower = piece.toLowerCase();
    if (compounds) {
      run += lower;
      pieces++;
    }
    if (piece.length <= MAX_TOKEN_LENGTH) emit(lower, joins);
  }
  if (compounds) flush();
}

function emitBigrams(run: string, emit: (token: string, joinsPrevious: boolean) => void): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    emit(chars[0]!.toLowerCase(), false);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) emit((chars[i]! + chars[i + 1]!).toLowerCase(), false);
}

/** The lowercase tokens of `text`, unstemmed (`list_pull_requests` → list pull requests). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (token) => out.push(token));
  return out;
}

/**
 * The words of `text`, each as its pieces (`open GitHub` → [[open], [git, hub]]); a CJK bigram is
 * a word of its own. Queries use this to treat a split word as one unit.
 */
export function tokenizeWords(text: string): string[][] {
  const words: string[][] = [];
  forEachToken(text, (token, joins) => {
    const last = words.at(-1);
    if (joins && last) last.push(token);
    else words.push([token]);
  });
  return words;
}

/** Tokens → index terms: Porter stems for English words, everything else as is. */
export interface Analyzer {
  /** The term of one token. */
  term(token: string): string;
  /** Calls `emit` for each term of `text`. */
  forEachTerm(text: string, emit: (term: string) => void): void;
  /** The terms of `text`, in order. */
  terms(text: string): string[];
}

export interface AnalyzerOptions {
  /** English stemming (default true). */
  stem?: boolean;
}

const CACHE_LIMIT = 50_000;

export function createAnalyzer(options: AnalyzerOptions = {}): Analyzer {
  const stem = options.stem !== false;
  // Stemming the same word again is the hot path of indexing: remember recent answers.
  let cache = new Map<string, string>();
  const term = (token: string): string => {
    if (!stem) return token;
    let t = cache.get(token);
    if (t === undefined) {
      t = porterStem(token);
      if (cache.size >= CACHE_LIMIT) cache = new Map();
      cache.set(token, t);
    }
    return t;
  };
  const forEachTerm = (text: string, emit: (term: string) => void): void =>
    forEachToken(text, (token) => emit(term(token)), true);
  return {
    term,
    forEachTerm,
    terms(text) {
      const out: string[] = [];
      forEachTerm(text, (t) => out.push(t));
      return out;
    },
  };
}
