/**
 * The model's reasoning above its answer, dimmed: while it streams, its last few lines under
 * `Thinking…`; once done, one line `Thought for 12 s (Ctrl+O to expand)`; expanded (Ctrl+O), the
 * whole text (clipped like any long entry). The text is the model's: shown through `visible`.
 */
import { Box, Text } from 'ink';
import { memo, useContext } from 'react';
import { visible } from '../../util/terminal-text.js';
import { lastRows } from '../clip.js';
import type { Entry } from '../types.js';
import { type ClipProps, ClippedText, LiveKeys } from './LongText.js';

/** Lines of a streaming reasoning block that stay on screen. */
export const REASONING_TAIL_LINES = 5;

type ReasoningEntry = Extract<Entry, { kind: 'reasoning' }>;

export function thoughtFor(entry: Pick<ReasoningEntry, 'startedAt' | 'endedAt'>): string {
  const seconds = Math.max(1, Math.round(((entry.endedAt ?? entry.startedAt) - entry.startedAt) / 1000));
  return `Thought for ${seconds} s`;
}

export const Reasoning = memo(function Reasoning({ entry, ...view }: { entry: ReasoningEntry } & ClipProps) {
  const live = useContext(LiveKeys);
  if (entry.endedAt === undefined) {
    const tail = lastRows(entry.text.replace(/\s+$/, ''), REASONING_TAIL_LINES);
    return (
      <Box flexDirection="column">
        <Text dimColor italic>
          Thinking…
        </Text>
        {tail === '' ? null : <Text dimColor>{visible(tail)}</Text>}
      </Box>
    );
  }
  if (!entry.expanded)
    return <Text dimColor>{`${thoughtFor(entry)}${live ? ' (Ctrl+O to expand)' : ''}`}</Text>;
  return (
    <Box flexDirection="column">
      <Text dimColor>{`${thoughtFor(entry)}${live ? ' (Ctrl+O to collapse)' : ''}`}</Text>
      <ClippedText text={entry.text.replace(/\s+$/, '')} color="gray" {...view} />
    </Box>
  );
});
