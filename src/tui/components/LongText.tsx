/**
 * Long entries in the live view (issue 19): a model answer as Markdown parsed per completed block
 * (each block lexed once, memoised; only the unfinished tail is parsed again as it grows), and any
 * entry clipped to its last `CLIP_LINES` rows with a note that Ctrl+T pages through all of it.
 * Text is untrusted: shown through `visible` (the Markdown view escapes every token itself).
 */
import { Box, Text } from 'ink';
import { memo, type ReactNode, useRef } from 'react';
import { visible } from '../../util/terminal-text.js';
import { CLIP_LINES, lastRows, rowsAtMost } from '../clip.js';
import { BlockSplitter } from '../markdown-blocks.js';
import { Markdown } from './Markdown.js';

const PROSE = 'green';

/** `↑ 812 KB earlier not shown · Ctrl+T pages through all of it`, under the clipped text. */
export function ClipNote({ hiddenChars }: { hiddenChars: number }) {
  return (
    <Text dimColor>{`↑ ${sizeOf(hiddenChars)} earlier not shown · Ctrl+T pages through all of it`}</Text>
  );
}

export function sizeOf(chars: number): string {
  if (chars < 1024) return `${chars} chars`;
  if (chars < 1024 * 1024) return `${Math.round(chars / 1024)} KB`;
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}

/** A model answer, streamed or whole. */
export const ModelText = memo(function ModelText({
  text,
  maxRows = CLIP_LINES,
}: {
  text: string;
  maxRows?: number;
}) {
  const splitter = useRef<BlockSplitter | undefined>(undefined);
  splitter.current ??= new BlockSplitter();
  const { done, tail } = splitter.current.update(text);
  const shown: ReactNode[] = [];
  let budget = maxRows;
  let shownChars = 0;
  const count = done.length + (tail.trim() === '' ? 0 : 1);
  for (let i = count - 1; i >= 0 && budget > 0; i--) {
    const piece = i < done.length ? done[i]! : tail;
    const rows = rowsAtMost(piece, budget);
    if (shown.length > 0) shown.push(<Text key={`gap${i}`}> </Text>);
    if (rows <= budget) {
      shown.push(<Markdown key={i < done.length ? `b${i}` : 'tail'} text={piece} />);
      shownChars += piece.length;
      budget -= rows + 1;
    } else {
      const part = lastRows(piece.replace(/\s+$/, ''), budget);
      shown.push(
        <Text key={`part${i}`} color={PROSE}>
          {visible(part)}
        </Text>,
      );
      shownChars += part.length + (piece.length - piece.replace(/\s+$/, '').length);
      budget = 0;
    }
  }
  shown.reverse();
  const hidden = text.length - shownChars;
  return (
    <Box flexDirection="column">
      {shown}
      {hidden > 0 ? <ClipNote hiddenChars={hidden} /> : null}
    </Box>
  );
});

/** Plain text (tool output, command results) clipped to its last rows. */
export function ClippedText({
  text,
  color,
  maxRows = CLIP_LINES,
}: {
  text: string;
  color: string;
  maxRows?: number;
}) {
  if (rowsAtMost(text, maxRows) <= maxRows) return <Text color={color}>{visible(text)}</Text>;
  const part = lastRows(text, maxRows);
  return (
    <Box flexDirection="column">
      <Text color={color}>{visible(part)}</Text>
      <ClipNote hiddenChars={text.length - part.length} />
    </Box>
  );
}
