/**
 * The pager (Ctrl+T): one entry's full text — an answer, a tool's output, a reasoning block —
 * however long, a screen at a time. Lines are cut to the width, so every row is one line and
 * paging is exact. The text is untrusted: shown through `visible`, line by line.
 */
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { visible } from '../../util/terminal-text.js';

export interface PagerProps {
  text: string;
  /** Index of the first row shown. */
  top: number;
  height: number;
  width: number;
}

/** The text as rows of at most `width` characters. */
export function pagerRows(text: string, width: number): string[] {
  const rows: string[] = [];
  const size = Math.max(1, width);
  for (const line of visible(text).split('\n')) {
    if (line.length <= size) rows.push(line);
    else for (let at = 0; at < line.length; at += size) rows.push(line.slice(at, at + size));
  }
  return rows;
}

/** The first row to show after a move, kept inside the text. */
export function clampTop(top: number, rows: number, height: number): number {
  return Math.max(0, Math.min(top, rows - height));
}

export function Pager({ text, top, height, width }: PagerProps) {
  const rows = useMemo(() => pagerRows(text, width), [text, width]);
  const first = clampTop(top, rows.length, height - 1);
  const shown = rows.slice(first, first + height - 1);
  const last = Math.min(rows.length, first + shown.length);
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text
        inverse
      >{` rows ${first + 1}–${last} of ${rows.length} · PgUp/PgDn ↑/↓ Home/End · Esc closes `}</Text>
      <Text>{shown.join('\n')}</Text>
    </Box>
  );
}
