import { defineConfig } from 'vitest/config';

// Long suites (crash loops, several instances): `npm run test:slow`, also run by .ci/run.
export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
