/**
 * The terminal around the TUI: the alternate screen and bracketed paste while it runs, and
 * capture of stray console output and process warnings into transcript lines, so nothing
 * writes over the drawn screen. Each returns its own undo; nothing is left patched after exit.
 */
import { format } from 'node:util';
import { visible } from '../util/terminal-text.js';
import type { LineKind } from './types.js';

const ENTER = '\u001b[?1049h\u001b[?2004h';
const LEAVE = '\u001b[?2004l\u001b[?1049l';

/**
 * Switches to the alternate screen with bracketed paste on, and raw keys at once: Ink turns raw
 * mode on only after its first render, and keys typed before that would be echoed over the
 * screen and held back as a cooked line. The returned function undoes all of it.
 */
export function enterFullScreen(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): () => void {
  if (stdin.isTTY) stdin.setRawMode(true);
  stdout.write(ENTER);
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    process.off('exit', leave);
    stdout.write(LEAVE);
    if (stdin.isTTY) stdin.setRawMode(false);
  };
  // A crash exits without unwinding to our cleanup; never leave the shell on the alternate screen.
  process.on('exit', leave);
  return leave;
}

export type LineSink = (text: string, kind: LineKind) => void;

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * Routes console.* and `process.on('warning')` to `sink` until the returned function is called.
 * Lines are delivered on a later tick: a warning raised while React renders must not re-enter it.
 */
export function captureOutput(sink: LineSink): () => void {
  const pending: Array<[string, LineKind]> = [];
  let scheduled: NodeJS.Immediate | undefined;
  const deliver = (text: string, kind: LineKind) => {
    pending.push([text.replace(/\s+$/, ''), kind]);
    scheduled ??= setImmediate(() => {
      scheduled = undefined;
      for (const [line, lineKind] of pending.splice(0)) sink(line, lineKind);
    });
  };

  const saved = CONSOLE_METHODS.map((name) => [name, console[name]] as const);
  for (const name of CONSOLE_METHODS) {
    console[name] = (...args: unknown[]) => deliver(format(...args), name === 'error' ? 'error' : 'system');
  }
  // Node prints warnings through its own 'warning' listener; replace it while the screen is ours.
  const warningListeners = process.listeners('warning');
  process.removeAllListeners('warning');
  const onWarning = (warning: Error) => deliver(`warning: ${warning.name}: ${warning.message}`, 'system');
  process.on('warning', onWarning);

  return () => {
    for (const [name, method] of saved) console[name] = method;
    process.off('warning', onWarning);
    for (const listener of warningListeners) process.on('warning', listener);
    if (scheduled) clearImmediate(scheduled);
    // Lines that arrived in the last tick still reach the person, now on the normal screen.
    for (const [line] of pending.splice(0)) console.error(visible(line));
  };
}
