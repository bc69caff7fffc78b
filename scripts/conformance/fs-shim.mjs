// node:fs plus `globSync` (added to Node in 22), implemented with tinyglobby for Node 20.
import fs from 'node:fs';
import { globSync as tinyGlobSync } from 'tinyglobby';

export * from 'node:fs';
export default fs;

export function globSync(pattern, options = {}) {
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  return fs.globSync
    ? fs.globSync(pattern, options)
    : tinyGlobSync(patterns, {
        cwd: options.cwd ? String(options.cwd) : process.cwd(),
        onlyFiles: false,
        expandDirectories: false,
      });
}
