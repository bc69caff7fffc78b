/**
 * Print mode's progress line on stderr (stdout stays the command's answer): on a terminal one
 * line redrawn in place (`\r`, erase to the end); elsewhere (a pipe, a log) a line at most once a
 * second and always the last one, so a 10,000-file `/rag add` logs a few dozen lines, not 10,000.
 */
import { visible } from '../util/terminal-text.js';

const LOG_EVERY_MS = 1_000;

export function progressLine(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  now: () => number = Date.now,
): (run: number, text: string, final: boolean) => void {
  let loggedAt = Number.NEGATIVE_INFINITY;
  return (_run, text, final) => {
    // Progress text is built from file names: shown, never obeyed.
    const line = visible(text).replace(/[\r\n]+/g, ' ');
    if (stream.isTTY) {
      stream.write(`\r${line}\x1b[K${final ? '\n' : ''}`);
      return;
    }
    const t = now();
    if (!final && t - loggedAt < LOG_EVERY_MS) return;
    loggedAt = t;
    stream.write(`${line}\n`);
  };
}
