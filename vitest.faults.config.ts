import { defineConfig } from 'vitest/config';

// `npm run test:faults`: the long fault runs (an export, a bulk run and chat tail under injected faults), run by CI
// after `npm test`.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/helpers/lean-node-env.ts'],
    // The runs mostly wait (retries, pacing, a minute of chat): side by side even on 2 cores.
    maxWorkers: 3,
  },
});
