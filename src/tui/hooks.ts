/** Ink hooks of the TUI: raw key events (through our own decoder) and the terminal's size. */
import { useStdin } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { KeyDecoder, type KeyEvent } from './keys.js';

/** Calls `onKey` for every key event; the latest `onKey` is used, so it may close over state. */
export function useKeys(onKey: (event: KeyEvent) => void): void {
  const { setRawMode, isRawModeSupported, internal_eventEmitter: emitter } = useStdin();
  const handler = useRef(onKey);
  handler.current = onKey;
  useEffect(() => {
    if (!isRawModeSupported) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [isRawModeSupported, setRawMode]);
  useEffect(() => {
    // Ink's own parser has already split the stream into whole sequences; we only name them.
    const decoder = new KeyDecoder();
    const listener = (data: string) => {
      for (const event of decoder.decode(data)) handler.current(event);
    };
    emitter.on('input', listener);
    return () => {
      emitter.off('input', listener);
    };
  }, [emitter]);
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
