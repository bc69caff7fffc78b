/**
 * The completions Tab found for an `@` word when there are several: one dim row under the input
 * line (names escaped: they are file names and server URIs), cleared by the next key.
 */
import { Text } from 'ink';
import { visible } from '../../util/terminal-text.js';

const SHOWN = 12;

export function Suggestions({ items, width }: { items: readonly string[]; width: number }) {
  const more = items.length > SHOWN ? `  … ${items.length - SHOWN} more` : '';
  const line = items.slice(0, SHOWN).map(visible).join('  ') + more;
  return (
    <Text dimColor wrap="truncate-end">
      {line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line}
    </Text>
  );
}
