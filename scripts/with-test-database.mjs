#!/usr/bin/env node
// `npm run test:pg`: runs the given command (the vitest suite) against a real Postgres.
// TEST_DATABASE_URL names a server database to connect to (default: the local server); every test
// file creates a fresh database of its own on that server and drops it afterwards.
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: with-test-database.mjs <command> [args...]');
  process.exit(2);
}
console.log(`Running against ${new URL(url).host} (a fresh database per test file)`);
const result = spawnSync(command, args, {
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);
