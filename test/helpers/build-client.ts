import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// Vitest's global setup: tests use `@parley/client` as its users do, through its package exports,
// which point at the compiled dist/ of packages/client. It is brought up to date once per run
// before any test file starts (`tsc -b` only rebuilds when a source changed), so that no test runs
// against a stale build and no two test files build it at once.
export default function buildClient(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('../../packages/client', import.meta.url));
  execFileSync(process.execPath, [tsc, '-b', project], { stdio: 'inherit' });
}
