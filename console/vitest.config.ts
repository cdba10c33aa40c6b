import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';

// `npm run test:console`: the console's component tests (happy-dom) and its end-to-end tests in
// Debian's Chromium (playwright-core). Kept out of `npm test`, which needs no browser; CI runs both.
export default defineConfig({
  plugins: [preact()],
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['console/test/**/*.test.tsx', 'test/console/**/*.test.ts'],
    globalSetup: ['test/console/build-once.ts'],
    pool: 'forks',
    // One browser at a time on a shared machine.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
