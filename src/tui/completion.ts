/**
 * Tab completion of an `@` word in the input line (files, folders, MCP resources): finding the
 * word before the cursor and putting a completion in its place — the only one whole (a folder
 * keeps going, anything else gets a blank after it), several as far as they agree, and the list
 * for the person to see. Pure functions over the buffer; the candidates come from the app.
 */
import type { Buffer } from './line-editor.js';

export interface MentionWord {
  /** Where the word starts in the buffer (its `@`). */
  start: number;
  word: string;
}

/** The `@…` word that ends at the cursor (after a blank or at the start), if any. */
export function mentionWordAt(buffer: Buffer): MentionWord | undefined {
  const before = buffer.text.slice(0, buffer.cursor);
  const match = /(?:^|\s)(@\S*)$/.exec(before);
  if (!match) return undefined;
  const word = match[1]!;
  return { start: buffer.cursor - word.length, word };
}

export interface Completed {
  buffer: Buffer;
  /** The candidates to show (several left); empty when one was taken or none matched. */
  shown: string[];
}

export function applyCompletion(buffer: Buffer, at: MentionWord, candidates: readonly string[]): Completed {
  if (candidates.length === 0) return { buffer, shown: [] };
  const only = candidates.length === 1 ? candidates[0]! : undefined;
  const replacement = only ? (only.endsWith('/') ? only : `${only} `) : commonPrefix(candidates);
  if (replacement.length <= at.word.length && !only) return { buffer, shown: [...candidates] };
  const text = buffer.text.slice(0, at.start) + replacement + buffer.text.slice(buffer.cursor);
  return { buffer: { text, cursor: at.start + replacement.length }, shown: only ? [] : [...candidates] };
}

function commonPrefix(values: readonly string[]): string {
  let prefix = values[0] ?? '';
  for (const value of values) {
    while (!value.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
