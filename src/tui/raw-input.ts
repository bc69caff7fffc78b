/**
 * Our own raw-mode key reader, in place of Ink's input handling: reads the input stream's chunks
 * (UTF-8 decoded across reads), decodes them into key events with a `KeyDecoder` and hands each to
 * `onKey`. Ink reads stdin only when its `setRawMode` is called (by `useInput`), which the TUI
 * never does, so this is the one reader. Raw mode itself is set by `enterFullScreen` for the whole
 * run, and by `start` here when the stream is a TTY that is not raw yet (component tests).
 */
import { StringDecoder } from 'node:string_decoder';
import { KeyDecoder, type KeyEvent } from './keys.js';

/** The part of a read stream the reader uses (Ink's test stdin has exactly this). */
export interface InputStream {
  on(event: 'data', listener: (data: string | Buffer) => void): unknown;
  off(event: 'data', listener: (data: string | Buffer) => void): unknown;
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  resume?(): unknown;
  pause?(): unknown;
}

/** Starts reading; the returned function stops (and gives raw mode back if it took it). */
export function readKeys(stdin: InputStream, onKey: (event: KeyEvent) => void): () => void {
  const keys = new KeyDecoder();
  const utf8 = new StringDecoder('utf8');
  const tookRaw = stdin.isTTY === true && stdin.isRaw === false && typeof stdin.setRawMode === 'function';
  if (tookRaw) stdin.setRawMode?.(true);
  const listener = (data: string | Buffer) => {
    const text = typeof data === 'string' ? data : utf8.write(data);
    for (const event of keys.decode(text)) onKey(event);
  };
  stdin.on('data', listener);
  stdin.resume?.();
  return () => {
    stdin.off('data', listener);
    // Nothing reads any more: let the stream stop holding the process open.
    stdin.pause?.();
    if (tookRaw) stdin.setRawMode?.(false);
  };
}
