import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/console needs a browser: `npm run test:console` runs it.
    exclude: ['test/slow/**', 'test/container/**', 'test/citus/**', 'test/console/**'],
    // Builds packages/client, which the client tests import as its users do (by its package name),
    // and the migrated embedded database that each test database starts from.
    globalSetup: ['test/helpers/build-client.ts', 'test/helpers/pglite-template.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
