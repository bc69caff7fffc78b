/**
 * The line under the transcript and the row under the input: the `─` rule with its hint (scrolled
 * up, the slash commands a typed name matches, what Esc does now) and Tab's completions of an `@`
 * word. The texts are pure functions; `useMentionCompletion` holds the suggestions Tab left.
 */
import { Text } from 'ink';
import { useState } from 'react';
import { cutTo } from '../util/compact-text.js';
import { visibleLine } from '../util/terminal-text.js';
import { applyCompletion, mentionWordAt } from './completion.js';
import type { KeyTarget } from './key-actions.js';
import type { KeyEvent } from './keys.js';
import type { Buffer } from './line-editor.js';
import { candidatesLine } from './slash-complete.js';

export interface HintFacts {
  /** Rows scrolled up from the newest. */
  scroll: number;
  /** Slash commands the typed name matches (Tab completes). */
  candidates: readonly string[];
  busy: boolean;
  /** One Esc on an empty, idle input line: a second opens `/rewind`. */
  rewindArmed: boolean;
  cols: number;
}

/** The rule's hint: the first that applies, or none. */
export function hintText({ scroll, candidates, busy, rewindArmed, cols }: HintFacts): string {
  // The first Esc of two lasts a moment and says what the second does, even while scrolled up.
  if (rewindArmed && !busy) return 'Esc again to rewind';
  if (scroll > 0) return 'scrolled up · PgDn for newer';
  // Command names come from project files: escaped, and cut to the line.
  if (candidates.length > 0) return cutTo(visibleLine(candidatesLine(candidates)), Math.max(0, cols - 6));
  if (busy) return 'Esc cancels · Enter queues';
  return '';
}

/** The rule across `cols`, with the hint at its start when it fits. */
export function ruleText(cols: number, hint: string): string {
  const label = hint && hint.length + 4 < cols ? `── ${hint} ` : '';
  return label + '─'.repeat(Math.max(0, cols - label.length));
}

export function Rule({ cols, hint }: { cols: number; hint: string }) {
  return <Text dimColor>{ruleText(cols, hint)}</Text>;
}

/**
 * Tab on an `@` word: the completion put into the buffer, and the candidates shown when several
 * are left (cleared by the next key that is not Tab). `buffer()` reads the newest buffer.
 */
export function useMentionCompletion(
  target: KeyTarget,
  buffer: () => Buffer,
  setBuffer: (next: Buffer) => void,
) {
  const [suggestions, setSuggestions] = useState<readonly string[]>([]);
  const complete = () => {
    const before = buffer();
    const at = mentionWordAt(before);
    if (!at || !target.complete) return;
    void target.complete(at.word).then(
      (candidates) => {
        // Typed on meanwhile: the completion is for a word that is gone.
        if (buffer() !== before) return;
        const done = applyCompletion(before, at, candidates);
        setBuffer(done.buffer);
        setSuggestions(done.shown);
      },
      () => undefined,
    );
  };
  const keySeen = (event: KeyEvent) => {
    if (!(event.type === 'key' && event.name === 'tab'))
      setSuggestions((shown) => (shown.length > 0 ? [] : shown));
  };
  return { suggestions, complete, keySeen };
}
