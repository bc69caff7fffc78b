/**
 * What a run of the built CLI compiled at functions' first calls, from V8's function events:
 * for the tests that check the build's start profile (scripts/bundle-plugins/start-profile.mjs)
 * left nothing a start calls to be compiled again at every run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error: a build script without types.
import { eagerFunctions } from '../../scripts/bundle-plugins/eager-functions.mjs';
// @ts-expect-error: a build script without types.
import { lazilyCompiled } from '../../scripts/bundle-plugins/start-profile.mjs';
import { CLI } from './harness.js';

/** Node's options that log each function V8 compiles, to `log` (options NODE_OPTIONS does not take). */
export const logFunctionEvents = (log: string): string[] => [
  '--log-function-events',
  `--logfile=${log}`,
  '--no-logfile-per-isolate',
];

export interface FirstCallCompiles {
  /** Per bundle the run compiled in (the launcher aside): how many functions at their first call. */
  compiled: Map<string, number>;
  /** Of those, per bundle: how many the build could have had compiled with the file. */
  couldBeEager: Map<string, number>;
}

export function firstCallCompiles(log: string): FirstCallCompiles {
  const byFile: Map<string, Set<number>> = lazilyCompiled(readFileSync(log, 'utf8'), path.dirname(CLI));
  const compiled = new Map<string, number>();
  const couldBeEager = new Map<string, number>();
  for (const [file, ends] of byFile) {
    if (file === CLI) continue;
    const name = path.relative(path.dirname(CLI), file);
    compiled.set(name, ends.size);
    const left = eagerFunctions(readFileSync(file, 'utf8'), readFileSync(`${file}.map`, 'utf8'), ends).counts;
    couldBeEager.set(name, left.declarations + left.expressions + left.methods);
  }
  return { compiled, couldBeEager };
}
