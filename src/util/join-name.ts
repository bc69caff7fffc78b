/**
 * `path.join(dir, name)` for a name that is one plain segment (a file name: no separator, not `.`
 * or `..`) in a folder already in normal form: concatenated, without path's `normalizeString`. A
 * start with 20 cached MCP servers joins ~60 such names (each server's cache file, log file and
 * log hint); that made `normalizeString` hot enough for V8 to compile it with TurboFan on a worker
 * (~7 ms of CPU in --trace-opt), which a start without servers never does. Anything else (a name
 * with a separator, a folder with `.`, `..`, `//` or a trailing slash, Windows) is path.join's.
 */
import path from 'node:path';

const PLAIN_NAME = /^(?!\.\.?$)[^/\\]+$/;
/** A POSIX folder path.join keeps as written: no empty, `.` or `..` segment, no trailing slash. */
const NORMAL_FOLDER = /^\/?(?:(?!\.\.?\/)[^/]+\/)*(?!\.\.?$)[^/]+$/;

export function joinName(dir: string, name: string): string {
  if (path.sep === '/' && PLAIN_NAME.test(name) && NORMAL_FOLDER.test(dir)) return `${dir}/${name}`;
  return path.join(dir, name);
}
