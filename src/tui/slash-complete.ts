/**
 * Slash-command completion on the input line: while the line is `/` and part of a name (no space
 * yet), the matching commands are shown under it and Tab completes — to the whole name and a space
 * when one matches, else to what all matches share. Names come from the command table (built-ins,
 * extensions', custom commands, servers' prompts); they are shown through `visibleLine`.
 */
import type { Buffer } from './line-editor.js';
import { fromText } from './line-editor.js';

/** The names a `/partial` line matches, sorted; none when the line is not a command name being typed. */
export function slashCandidates(text: string, names: readonly string[]): string[] {
  const match = /^\/(\S*)$/.exec(text);
  if (!match) return [];
  const typed = match[1]!;
  return names.filter((name) => name.startsWith(typed)).sort();
}

/** Tab: the completed line, or undefined when there is nothing to add. */
export function completeSlash(buffer: Buffer, names: readonly string[]): Buffer | undefined {
  const candidates = slashCandidates(buffer.text, names);
  if (candidates.length === 0) return undefined;
  if (candidates.length === 1) return fromText(`/${candidates[0]} `);
  let shared = candidates[0]!;
  for (const name of candidates) while (!name.startsWith(shared)) shared = shared.slice(0, -1);
  return shared.length + 1 > buffer.text.length ? fromText(`/${shared}`) : undefined;
}

/** The line under the input: the candidates (at most `max`, then how many more). */
export function candidatesLine(candidates: readonly string[], max = 8): string {
  const shown = candidates.slice(0, max).map((name) => `/${name}`);
  const more = candidates.length - shown.length;
  return `${shown.join('  ')}${more > 0 ? `  (+${more} more)` : ''}  · Tab completes`;
}
