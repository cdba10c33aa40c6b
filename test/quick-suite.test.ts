import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCESS_SUITES } from '../vitest.quick.config.js';

// `npm run test:quick` leaves out the suites that start processes; a new one must join the list,
// or the quick loop slows down unnoticed.

const root = new URL('..', import.meta.url).pathname;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['slow', 'container', 'citus'].includes(entry.name) ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

describe('test:quick', () => {
  it('leaves out exactly the suites that start Parley or the CLI as processes', () => {
    const importsProcesses = /from '[./]*helpers\/processes\.js'/;
    const spawning = testFiles(join(root, 'test')).filter((file) =>
      importsProcesses.test(readFileSync(join(root, file), 'utf8')),
    );
    expect([...spawning].sort()).toEqual(
      PROCESS_SUITES.filter((file) => file !== 'test/http/load-shedding.test.ts').sort(),
    );
  });
});
