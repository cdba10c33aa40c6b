import { defineConfig } from 'vitest/config';

// `npm run test:container`: the suite on a testcontainers Postgres (skips without a container runtime).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/slow/**'],
    globalSetup: ['test/container/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
