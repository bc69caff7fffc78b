/**
 * The scrolling transcript: a clipped box that starts at the top and, once full, keeps the newest
 * line at the bottom (flex-end). Scrolling shifts the content down by `scroll` rows (a negative
 * bottom margin), revealing older lines.
 */
import { Box, type DOMElement, measureElement } from 'ink';
import { useEffect, useRef } from 'react';
import { CLIP_LINES, RENDER_LINE_BUDGET, rowsAtMost, WRAP } from '../clip.js';
import type { Entry } from '../types.js';
import { EntryView } from './EntryView.js';

/** At most this many of the newest entries are laid out (and at most RENDER_LINE_BUDGET rows). */
export const RENDERED_ENTRIES = 300;

export interface TranscriptProps {
  entries: readonly Entry[];
  /** Rows scrolled up from the bottom; 0 follows the newest line. */
  scroll?: number;
  /** Told the visible height and the content height after each layout, for paging and clamping. */
  onMeasure?: (visible: number, content: number) => void;
  /** Rows to lay out, newest first (see `renderBudget`), estimated at `wrap` characters a row. */
  renderRows?: number;
  wrap?: number;
}

export function Transcript({
  entries,
  scroll = 0,
  onMeasure,
  renderRows = RENDER_LINE_BUDGET,
  wrap = WRAP,
}: TranscriptProps) {
  const outer = useRef<DOMElement>(null);
  const inner = useRef<DOMElement>(null);
  useEffect(() => {
    if (!onMeasure || !outer.current || !inner.current) return;
    onMeasure(measureElement(outer.current).height, measureElement(inner.current).height);
  });
  const shown = newestWithin(entries, renderRows, wrap);
  return (
    <Box
      ref={outer}
      flexDirection="column"
      flexGrow={1}
      flexShrink={1}
      overflowY="hidden"
      justifyContent="flex-end"
    >
      <Box ref={inner} flexDirection="column" flexShrink={0} marginBottom={-scroll}>
        {shown.map((entry) => (
          <EntryView key={entry.id} entry={entry} renderRows={Math.min(CLIP_LINES, renderRows)} wrap={wrap} />
        ))}
      </Box>
      {/* Takes the free space while the transcript is short, so it starts at the top. */}
      <Box flexGrow={1} />
    </Box>
  );
}

/**
 * The newest entries that fit the row budget (each counted as at most its clipped height): only
 * these are laid out; older ones stay in memory as plain text, off screen.
 */
export function newestWithin(
  entries: readonly Entry[],
  budget = RENDER_LINE_BUDGET,
  wrap = WRAP,
): readonly Entry[] {
  let rows = 0;
  let first = entries.length;
  const limit = Math.min(CLIP_LINES, budget);
  while (first > 0 && entries.length - first < RENDERED_ENTRIES && rows < budget) {
    const entry = entries[first - 1]!;
    rows += entry.kind === 'question' ? 4 : Math.min(limit + 1, rowsAtMost(entry.text, limit, wrap));
    first--;
  }
  return first === 0 ? entries : entries.slice(first);
}
