/**
 * The pager (Ctrl+T) apart from its drawing (components/Pager.tsx): which entry it opens, the
 * text it shows, and where each key moves it.
 */
import { CLIP_LINES, rowsOfCached } from './clip.js';
import type { KeyEvent } from './keys.js';
import type { Entry, SessionSnapshot } from './types.js';

/** The pager's text: an entry's (it may still grow), or a fixed text (a question's whole detail). */
export type PagerOpen = { top: number } & ({ id: number } | { text: string });

/** Which entry Ctrl+T opens in the pager: the newest one clipped in the live view, else the newest answer. */
export function pagerTarget(entries: readonly Entry[]): number | undefined {
  let answer: number | undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind === 'question') continue;
    if (rowsOfCached(entry.text) > CLIP_LINES) return entry.id;
    if (answer === undefined && entry.kind === 'model') answer = entry.id;
  }
  return answer;
}

export function pagerText(open: PagerOpen, entries: SessionSnapshot['entries']): string | undefined {
  if ('text' in open) return open.text;
  const entry = entries.find((candidate) => candidate.id === open.id);
  return entry && entry.kind !== 'question' ? entry.text : undefined;
}

/**
 * A key in the pager: the new first row, 'close', or undefined (ignored). PgUp/PgDn move a screen,
 * ↑/↓ a row, Home/End to either end; Esc, q and Ctrl+T close it.
 */
export function pagerMove(
  event: KeyEvent,
  top: number,
  total: number,
  height: number,
): number | 'close' | undefined {
  const last = Math.max(0, total - height);
  const to = (row: number) => Math.max(0, Math.min(last, row));
  if (event.type === 'ctrl') return event.letter === 't' ? 'close' : undefined;
  if (event.type === 'text') return event.text === 'q' ? 'close' : undefined;
  switch (event.name) {
    case 'escape':
      return 'close';
    case 'pageDown':
      return to(top + Math.max(1, height - 1));
    case 'pageUp':
      return to(top - Math.max(1, height - 1));
    case 'down':
      return to(top + 1);
    case 'up':
      return to(top - 1);
    case 'home':
      return 0;
    case 'end':
      return last;
    default:
      return undefined;
  }
}
