import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // End-to-end tests spawn real subprocess servers and the built CLI; give them room on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The sources' stamp as the run starts (the e2e tests check the build against it); and one line when the sandbox's tests will be skipped on this machine.
    globalSetup: ['test/helpers/source-stamp-setup.ts', 'test/helpers/sandbox-gate-setup.ts'],
  },
});
