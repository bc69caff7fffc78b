/** Which entry Ctrl+T opens in the pager: the newest one clipped in the live view, else the newest answer. */
import { CLIP_LINES, rowsOfCached } from './clip.js';
import type { Entry } from './types.js';

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
