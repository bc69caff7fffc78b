/**
 * Long entries in the live view (issue 19): a model answer as Markdown parsed per completed block
 * (each block lexed once, memoised; only the unfinished tail is parsed again as it grows), and any
 * entry clipped to its last `CLIP_LINES` rows with a note that Ctrl+T pages through all of it.
 * Text is untrusted: shown through `visible` (the Markdown view escapes every token itself).
 */
import { Box, Text } from 'ink';
import { createContext, memo, type ReactNode, useContext, useRef } from 'react';
import { visible } from '../../util/terminal-text.js';
import { CLIP_LINES, lastRows, rowsAtMost, WRAP } from '../clip.js';
import { BlockSplitter } from '../markdown-blocks.js';
import { Markdown } from './Markdown.js';

const PROSE = 'green';

/**
 * Whether the entries are on the live screen, where keys work (Ctrl+T, Ctrl+O): the transcript
 * printed to the scrollback on exit names no keys.
 */
export const LiveKeys = createContext(true);

/** `↑ 812 KB earlier not shown · Ctrl+T pages through all of it`, under the clipped text. */
export function ClipNote({ hiddenChars }: { hiddenChars: number }) {
  const live = useContext(LiveKeys);
  return (
    <Text
      dimColor
    >{`↑ ${sizeOf(hiddenChars)} earlier not shown${live ? ' · Ctrl+T pages through all of it' : ''}`}</Text>
  );
}

export function sizeOf(chars: number): string {
  if (chars < 1024) return `${chars} chars`;
  if (chars < 1024 * 1024) return `${Math.round(chars / 1024)} KB`;
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * What of an entry is laid out: `maxRows` is the clip (the note and the pager go by it), `renderRows`
 * the transcript's window (rows estimated at `wrap` characters): only the end that can be on screen
 * is laid out, since laying out and drawing rows off screen is what made streaming slow.
 */
export interface ClipProps {
  maxRows?: number;
  renderRows?: number;
  wrap?: number;
}

/** Characters before the last `maxRows` rows, or 0 when the text is not clipped. */
function hiddenBeyond(text: string, maxRows: number): number {
  return rowsAtMost(text, maxRows) > maxRows ? text.length - lastRows(text, maxRows).length : 0;
}

/** A model answer, streamed or whole. */
export const ModelText = memo(function ModelText({
  text,
  maxRows = CLIP_LINES,
  renderRows = maxRows,
  wrap = WRAP,
}: { text: string } & ClipProps) {
  const splitter = useRef<BlockSplitter | undefined>(undefined);
  splitter.current ??= new BlockSplitter();
  const { done, tail } = splitter.current.update(text);
  const windowed = renderRows < maxRows;
  const shown: ReactNode[] = [];
  let budget = Math.min(maxRows, renderRows);
  let shownChars = 0;
  const count = done.length + (tail.trim() === '' ? 0 : 1);
  for (let i = count - 1; i >= 0 && budget > 0; i--) {
    const piece = i < done.length ? done[i]! : tail;
    const rows = rowsAtMost(piece, budget, windowed ? wrap : WRAP);
    if (shown.length > 0) shown.push(<Text key={`gap${i}`}> </Text>);
    if (rows <= budget) {
      shown.push(<Markdown key={i < done.length ? `b${i}` : 'tail'} text={piece} />);
      shownChars += piece.length;
      budget -= rows + 1;
    } else {
      const part = lastRows(piece.replace(/\s+$/, ''), budget, windowed ? wrap : WRAP);
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
  const hidden = windowed ? hiddenBeyond(text, maxRows) : text.length - shownChars;
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
  renderRows = maxRows,
  wrap = WRAP,
}: { text: string; color: string } & ClipProps) {
  const windowed = renderRows < maxRows;
  const rows = Math.min(maxRows, renderRows);
  if (rowsAtMost(text, rows, windowed ? wrap : WRAP) <= rows)
    return <Text color={color}>{visible(text)}</Text>;
  const part = lastRows(text, rows, windowed ? wrap : WRAP);
  const hidden = windowed ? hiddenBeyond(text, maxRows) : text.length - part.length;
  return (
    <Box flexDirection="column">
      <Text color={color}>{visible(part)}</Text>
      {hidden > 0 ? <ClipNote hiddenChars={hidden} /> : null}
    </Box>
  );
}
