import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsFolder } from './migrate.js';

/** How many migrations are committed in migrations/ (from drizzle-kit's journal). */
export function readMigrationCount(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}
