import { defineConfig } from 'vitest/config';

// The tests that only mean something on a Citus cluster (routing of every hot statement, growing
// the cluster under load): `npm run test:citus` runs them after the whole suite, on the same
// coordinator. One file at a time: the rebalance moves shards of the whole cluster.
export default defineConfig({
  test: {
    include: ['test/citus/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
