/**
 * Untrusted text shortened for a question on screen, visibly and from the end: a run of one
 * character or of blanks becomes a counted marker (`⟨4000 spaces⟩`), an over-long word keeps its
 * start (`…⟨+3960 chars⟩`), and a line cut at the width ends with `…`. So padding can neither push
 * what follows it off the screen nor pass for nothing; the exact text is shown elsewhere (the
 * pager). Control characters come out visible (`visibleLine`): the result is safe to print.
 */
import { visible, visibleLine } from './terminal-text.js';

export interface CompactOptions {
  /** A run of this many blanks (spaces, tabs, newlines, any Unicode space) or more is counted. */
  blankRun?: number;
  /** A run of this many of one other character or more is counted. */
  charRun?: number;
  /** A word (between spaces) longer than this keeps its first `wordKeep` characters. */
  longWord?: number;
  wordKeep?: number;
  /** Tabs stay tabs (`visible`) instead of `^I` (`visibleLine`): for lines of a block. */
  keepTabs?: boolean;
}

const DEFAULTS: Required<CompactOptions> = {
  blankRun: 4,
  charRun: 12,
  longWord: 64,
  wordKeep: 40,
  keepTabs: false,
};

/** `raw` as one visible line with its runs counted and its long words cut (not cut to a width). */
export function compactLine(raw: string, options: CompactOptions = {}): string {
  const { blankRun, charRun, longWord, wordKeep, keepTabs } = { ...DEFAULTS, ...options };
  const shown = keepTabs ? visible : visibleLine;
  const runs = new RegExp(`(\\s)(?:\\s){${blankRun - 1},}|([^\\s])\\2{${charRun - 1},}`, 'gu');
  let out = '';
  let at = 0;
  for (const match of raw.matchAll(runs)) {
    out += shown(raw.slice(at, match.index));
    out += runMarker(match[0]);
    at = match.index + match[0].length;
  }
  out += shown(raw.slice(at));
  return out
    .split(' ')
    .map((word) => cutWord(word, longWord, wordKeep))
    .join(' ');
}

/** `line` (already visible) in at most `width` characters, ending with `…` when cut. */
export function cutTo(line: string, width: number): string {
  const chars = Array.from(line);
  if (chars.length <= width) return line;
  return `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

function runMarker(run: string): string {
  const count = Array.from(run).length;
  const first = Array.from(run)[0]!;
  if (/\s/u.test(first)) {
    if (/^ +$/.test(run)) return `⟨${count} spaces⟩`;
    if (/^\n+$/.test(run)) return `⟨${count} newlines⟩`;
    return `⟨${count} blanks⟩`;
  }
  return `⟨${visibleLine(first)} ×${count}⟩`;
}

function cutWord(word: string, longWord: number, keep: number): string {
  const chars = Array.from(word);
  if (chars.length <= longWord) return word;
  return `${chars.slice(0, keep).join('')}…⟨+${chars.length - keep} chars⟩`;
}
