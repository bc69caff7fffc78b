/**
 * The fast tier's guard (vitest.unit.config.ts): a test that starts a child process — a server, the
 * CLI, esbuild — belongs to the full run, so the fast tier fails it at once, naming what to do.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
for (const name of STARTERS) {
  Object.defineProperty(childProcess, name, {
    configurable: true,
    writable: true,
    value: () => {
      throw new Error(
        `child_process.${name}: the fast tier (npm run test:unit) starts no processes; list this test file in vitest.unit.config.ts's SPAWNING list (it runs in npm test)`,
      );
    },
  });
}
syncBuiltinESMExports();
