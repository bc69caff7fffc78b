/**
 * A command's list on screen (`/rewind`): its title, then the options with the selected one
 * marked, a window of them around the selection when they do not fit. Lines are drawn through
 * `visibleLine` (the command escaped them already; a stray control character still cannot draw).
 */
import { Box, Text } from 'ink';
import { visibleLine } from '../../util/terminal-text.js';
import type { ChoiceView } from '../chooser.js';

export const CHOICE_HINT = '↑/↓ choose · Enter picks · Esc cancels';

export function ChoiceList({
  choice,
  selected,
  maxLines,
  width,
}: {
  choice: ChoiceView;
  selected: number;
  maxLines: number;
  width: number;
}) {
  const room = Math.max(1, maxLines - 1);
  const first = Math.max(0, Math.min(selected - Math.floor(room / 2), choice.options.length - room));
  const shown = choice.options.slice(first, first + room);
  const cut = (text: string) => {
    const line = visibleLine(text);
    return line.length > width - 3 ? `${line.slice(0, Math.max(1, width - 4))}…` : line;
  };
  return (
    <Box flexDirection="column">
      <Text color="yellow">{cut(choice.title)}</Text>
      {shown.map((option, offset) => {
        const index = first + offset;
        return index === selected ? (
          <Text key={index} inverse bold>{`› ${cut(option)}`}</Text>
        ) : (
          <Text key={index}>{`  ${cut(option)}`}</Text>
        );
      })}
    </Box>
  );
}
