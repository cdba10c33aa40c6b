import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:quick`: the inner loop. The whole suite but the files that start Parley or the
// CLI as processes (each start compiles TypeScript: seconds per test) and the load-shedding
// timings; `npm test` runs them all. test/quick-suite.test.ts keeps this list complete.
export const PROCESS_SUITES = [
  'test/lifecycle.test.ts',
  'test/transfer.test.ts',
  'test/foundation/bootstrap.test.ts',
  'test/foundation/cli.test.ts',
  'test/foundation/config.test.ts',
  'test/foundation/data-dir-lock.test.ts',
  'test/foundation/database-missing.test.ts',
  'test/foundation/https.test.ts',
  'test/http/load-shedding.test.ts',
  'test/compat/dialoguedb-client.test.ts',
  'test/compat/import-dialoguedb.test.ts',
  'test/events/stream-instances.test.ts',
  'test/webhooks/trust.test.ts',
  'test/retention/cli.test.ts',
];

// mergeConfig appends to the base's exclusions (slow, container and Citus suites).
export default mergeConfig(base, defineConfig({ test: { exclude: PROCESS_SUITES } }));
