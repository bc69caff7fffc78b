/**
 * How much of a long entry the live view shows: an entry is clipped to its last `CLIP_LINES` rows
 * (the end of an answer, the end of a tool's output; a note under it says Ctrl+T pages through the
 * rest), and of that only what can be on screen is laid out: the transcript renders about two
 * screens of rows plus how far it is scrolled, at most `RENDER_LINE_BUDGET`. The rest stays in
 * memory as plain text. Rows are estimated: a line counts one row per `wrap` characters (`WRAP`
 * for the clip, the transcript's width for what is laid out).
 */

export const CLIP_LINES = 100;
export const RENDER_LINE_BUDGET = 300;
/** Characters per estimated row: a long line wraps, and a 1 MB line must not count as one. */
export const WRAP = 200;

const rowsCache = new Map<string, number>();

/** Estimated rows of `text`. */
export function rowsOf(text: string, wrap = WRAP): number {
  if (text.length < 64) return Math.max(1, text.split('\n').length);
  let rows = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const length = (end < 0 ? text.length : end) - start;
    rows += Math.max(1, Math.ceil(length / wrap));
    if (end < 0) return rows;
    start = end + 1;
  }
}

/** Cached by identity of the string's content for the few huge texts that are re-measured each frame. */
export function rowsOfCached(text: string): number {
  if (text.length < 4096) return rowsOf(text);
  const key = `${text.length}:${text.slice(-64)}`;
  let rows = rowsCache.get(key);
  if (rows === undefined) {
    rows = rowsOf(text);
    if (rowsCache.size > 256) rowsCache.clear();
    rowsCache.set(key, rows);
  }
  return rows;
}

/**
 * Estimated rows of `text`, counted from its end and stopping past `limit`: a streaming 1 MB
 * answer is measured each frame, and only whether it exceeds the clip matters.
 */
export function rowsAtMost(text: string, limit: number, wrap = WRAP): number {
  let rows = 0;
  let end = text.length;
  for (;;) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    rows += Math.max(1, Math.ceil((end - start) / wrap));
    if (rows > limit || start === 0) return rows;
    end = start - 1;
  }
}

/** The last `rows` estimated rows of `text` (whole lines; a huge last line is cut from its end). */
export function lastRows(text: string, rows: number, wrap = WRAP): string {
  if (rows <= 0) return '';
  let end = text.length;
  let used = 0;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const lineRows = Math.max(1, Math.ceil((end - start) / wrap));
    if (used + lineRows > rows) {
      const room = (rows - used) * wrap;
      return room > 0 ? text.slice(end - room, text.length) : text.slice(end === text.length ? end : end + 1);
    }
    used += lineRows;
    if (start === 0) return text;
    end = start - 1;
  }
  return text;
}

/** Rows of the transcript to lay out: two screens and what is scrolled, so a page up has rows to show. */
export function renderBudget(screenRows: number, scroll: number): number {
  return Math.min(RENDER_LINE_BUDGET, 2 * screenRows + scroll);
}
