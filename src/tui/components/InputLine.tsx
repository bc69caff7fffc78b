/**
 * The input at the bottom: `› ` and the buffer with its cursor (multi-line buffers show their
 * lines, at most a few around the cursor); while a question is open, the confirmation prompt.
 * The buffer can hold a server's form default or a recalled history line: shown through `visible`.
 */
import { Box, Text } from 'ink';
import { visible } from '../../util/terminal-text.js';
import type { Buffer } from '../line-editor.js';
import { CONFIRM_PROMPT } from '../types.js';

export const MAX_INPUT_LINES = 8;

export interface InputLineProps {
  buffer: Buffer;
  question: boolean;
  /** The question's prompt, when not the usual `[y/N/a]`. */
  prompt?: string;
}

export function InputLine({ buffer, question, prompt = CONFIRM_PROMPT }: InputLineProps) {
  if (question) {
    return (
      <Text>
        <Text color="yellow">{`${prompt} `}</Text>
        <Text inverse> </Text>
      </Text>
    );
  }
  const lines = buffer.text.split('\n');
  const cursorLine = buffer.text.slice(0, buffer.cursor).split('\n').length - 1;
  const cursorColumn = buffer.cursor - (buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1);
  const first = Math.max(0, Math.min(cursorLine - MAX_INPUT_LINES + 1, lines.length - MAX_INPUT_LINES));
  const shown = lines.slice(first, first + MAX_INPUT_LINES);
  return (
    <Box flexDirection="column">
      {shown.map((line, offset) => {
        const index = first + offset;
        const prefix = index === 0 ? '› ' : '  ';
        return (
          <Text key={`${index}:${line}`}>
            <Text color="cyan">{prefix}</Text>
            {index === cursorLine ? <WithCursor line={line} column={cursorColumn} /> : visible(line)}
          </Text>
        );
      })}
    </Box>
  );
}

function WithCursor({ line, column }: { line: string; column: number }) {
  const code = line.codePointAt(column);
  const at = code === undefined ? '' : String.fromCodePoint(code);
  return (
    <>
      {visible(line.slice(0, column))}
      <Text inverse>{at === '' ? ' ' : visible(at)}</Text>
      {visible(line.slice(column + at.length))}
    </>
  );
}
