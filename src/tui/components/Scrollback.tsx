/**
 * The transcript as it is left in the terminal's scrollback when the TUI exits (the live screen
 * is the alternate screen, which the terminal throws away): each entry drawn as on screen and
 * clipped the same way, at the terminal's whole width, naming no keys. Newest first: the newest
 * `SCROLLBACK_MIN_ROWS` rows always, more within a time budget (laying out text costs about half a
 * millisecond a row, and leaving must stay quick however long the conversation was).
 */
import { renderToString, Text } from 'ink';
import type { ReactNode } from 'react';
import type { Entry } from '../types.js';
import { EntryView } from './EntryView.js';
import { LiveKeys } from './LongText.js';
import { type Lexer, MarkdownLexer } from './Markdown.js';

/** An entry longer than this shows its end (the session file keeps all of it). */
export const SCROLLBACK_CLIP_ROWS = 500;
/** Drawing stops after this long (once the minimum is drawn); older entries are counted instead. */
export const SCROLLBACK_MS = 500;
/** Rows drawn whatever the time: a loaded machine still leaves the recent conversation. */
export const SCROLLBACK_MIN_ROWS = 300;

export interface ScrollbackOptions {
  cols: number;
  lexer: Lexer | undefined;
  /** The clock the budget is measured by (tests pass their own). */
  now?: () => number;
  budgetMs?: number;
  minRows?: number;
}

/** The entries as text for the normal screen (in colour where the terminal has it). */
export function scrollbackText(entries: readonly Entry[], options: ScrollbackOptions): string {
  const {
    cols,
    lexer,
    now = () => performance.now(),
    budgetMs = SCROLLBACK_MS,
    minRows = SCROLLBACK_MIN_ROWS,
  } = options;
  const draw = (node: ReactNode) =>
    renderToString(
      <MarkdownLexer.Provider value={lexer}>
        <LiveKeys.Provider value={false}>{node}</LiveKeys.Provider>
      </MarkdownLexer.Provider>,
      { columns: cols },
    );
  const started = now();
  const parts: string[] = [];
  let left = entries.length;
  let rows = 0;
  while (left > 0 && (rows < minRows || now() - started < budgetMs)) {
    const entry = entries[--left]!;
    const text = draw(
      <EntryView
        entry={entry}
        maxRows={SCROLLBACK_CLIP_ROWS}
        renderRows={SCROLLBACK_CLIP_ROWS}
        wrap={cols}
      />,
    );
    if (text === '') continue;
    parts.push(text);
    rows += text.split('\n').length;
  }
  if (left > 0)
    parts.push(draw(<Text dimColor>{`↑ ${left} earlier entr${left === 1 ? 'y' : 'ies'} not shown`}</Text>));
  return parts.reverse().join('\n');
}
