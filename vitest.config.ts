import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/faults: npm run test:faults; test/release: npm run test:release, after npm run package.
    exclude: ['test/faults/**', 'test/release/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on the processes they spawn (the CLI, a sandbox): at least two files at a time, even on a
    // 2-core machine where Vitest's default (one fewer than the cores) would run them one after another.
    maxWorkers: Math.max(2, availableParallelism()),
    // A temporary folder per run and per test file, which must be empty at the end: tests leave no files behind.
    globalSetup: ['test/helpers/temp-folder-global.ts', 'test/helpers/lean-node-env.ts'],
    setupFiles: ['test/helpers/temp-folder-setup.ts'],
  },
});
