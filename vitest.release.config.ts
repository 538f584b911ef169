import { defineConfig } from 'vitest/config';

// `npm run test:release`, after `npm run package`: the single executable and the Debian package in release/, run
// where Node is out of reach (CI runs it after the package is built; test/release/release.ts).
export default defineConfig({
  test: {
    include: ['test/release/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/helpers/temp-folder-global.ts', 'test/helpers/lean-node-env.ts'],
    setupFiles: ['test/helpers/temp-folder-setup.ts'],
  },
});
