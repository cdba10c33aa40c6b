#!/usr/bin/env node
// `npm install` runs this (the `prepare` script): it builds the web console into console/dist,
// which the server serves at /console. A production install (`npm ci --omit=dev`) has no Vite:
// then there is nothing to build with, and the console comes from the image's build stage.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('vite/package.json');
} catch {
  process.stdout.write('[build-console] Vite is not installed (production install): console not built\n');
  process.exit(0);
}
const result = spawnSync('npm', ['run', 'build:console'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
