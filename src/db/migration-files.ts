import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

/** A committed migration as drizzle-kit's journal lists it; `when` is what the migrator records. */
interface JournalEntry {
  tag: string;
  when: number;
}

/** The committed migrations, in order (from drizzle-kit's journal). */
export function readMigrationJournal(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/** How many migrations are committed in migrations/. */
export function readMigrationCount(): number {
  return readMigrationJournal().length;
}
