/**
 * `npm run test:unit`: the fast tier — unit tests that need no build and start no process (a guard
 * fails one that tries). `npm test` (vitest.config.ts) still runs everything, these included.
 */
import { defineConfig } from 'vitest/config';

/** Unit tests that start servers, esbuild or other processes: they run in `npm test` only. */
const SPAWNING = [
  'test/unit/build/dep-patches.test.ts',
  'test/unit/build/eager-functions.test.ts',
  'test/unit/build/eager-inits.test.ts',
  'test/unit/build/lazy-builtins.test.ts',
  'test/unit/build/light-fs-promises.test.ts',
  'test/unit/build/light-web-globals.test.ts',
  'test/unit/build/openai-resources.test.ts',
  'test/unit/build/script-bundles.test.ts',
  'test/unit/build/shared-builtins.test.ts',
  'test/unit/mentions/attach.test.ts',
  'test/unit/mcp2026-fixtures.test.ts',
  'test/unit/mcp-stdio/server-log-paths.test.ts',
  'test/unit/mcp-stdio/transport.test.ts',
  'test/unit/mcp/connection-requests.test.ts',
  'test/unit/mcp/everything.test.ts',
  'test/unit/mcp/manager.test.ts',
  'test/unit/mcp/notification-flood.test.ts',
  'test/unit/mcp/start-grace.test.ts',
  'test/unit/process/group-tracker.test.ts',
  'test/unit/process/lifecycle.test.ts',
  'test/unit/providers/tool-schemas.test.ts',
  'test/unit/sandbox/git-config.test.ts',
  'test/unit/sandbox/gitlinks.test.ts',
  'test/unit/tools/file-safety.test.ts',
  'test/unit/tools/shell.test.ts',
  'test/unit/tui/history.test.ts',
  'test/unit/tui/session.test.ts',
  'test/unit/util/state-dir.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
    exclude: SPAWNING,
    setupFiles: ['test/helpers/no-child-processes.ts'],
    testTimeout: 30_000,
    pool: 'threads',
    // Test files share a worker's loaded modules instead of loading src/ afresh each (66 s of CPU
    // down to ~20 s). A test that changes process-wide state puts it back (e.g. drawInColour).
    isolate: false,
  },
});
