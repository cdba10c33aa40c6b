#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so that `npx parley` works without a build step.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts');
const result = spawnSync(process.execPath, [tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
