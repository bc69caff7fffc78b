/** Ink hooks of the TUI: raw key events (through our own reader) and the terminal's size. */
import { useStdin } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { KeyEvent } from './keys.js';
import { readKeys } from './raw-input.js';

/** Calls `onKey` for every key event; the latest `onKey` is used, so it may close over state. */
export function useKeys(onKey: (event: KeyEvent) => void): void {
  // `useStdin` (public API) gives the stream Ink was rendered with; we read it ourselves.
  const { stdin } = useStdin();
  const handler = useRef(onKey);
  handler.current = onKey;
  useEffect(() => readKeys(stdin, (event) => handler.current(event)), [stdin]);
}

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** The stream's size, updated on `resize`. */
export function useTerminalSize(stdout: NodeJS.WriteStream): TerminalSize {
  const [size, setSize] = useState(() => readSize(stdout));
  useEffect(() => {
    const onResize = () => setSize(readSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

function readSize(stdout: NodeJS.WriteStream): TerminalSize {
  return { cols: stdout.columns || 80, rows: stdout.rows || 24 };
}
