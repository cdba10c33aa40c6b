import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { distributeTables } from './citus.js';
import { type DatabaseHandle, type Executor, rowsOf } from './client.js';
import { migrationsFolder, readMigrationJournal } from './migration-files.js';

/** An arbitrary constant shared by every Parley instance: the advisory lock of migrations (D47). */
const MIGRATION_LOCK_ID = 7_242_031_337;

/** The `when` of every migration recorded as applied; none before the first run. */
async function appliedMigrations(db: Executor): Promise<Set<number>> {
  const table = await db.execute(
    sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`,
  );
  if (!rowsOf<{ present: boolean }>(table)[0]?.present) return new Set();
  const rows = await db.execute(sql`SELECT created_at FROM drizzle.__drizzle_migrations`);
  return new Set(rowsOf<{ created_at: string | number }>(rows).map((row) => Number(row.created_at)));
}

/**
 * Applies the committed migrations under a session advisory lock, so that several instances
 * starting at once apply them exactly once; re-running is a no-op. On a database with the Citus
 * extension, the tables are then distributed (src/db/citus.ts). Returns the names of the
 * migrations this run applied, in order (none when the database was up to date).
 */
export async function runMigrations(handle: DatabaseHandle): Promise<string[]> {
  return handle.withDedicatedConnection(async (db) => {
    await db.execute(sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    try {
      const before = await appliedMigrations(db);
      if (handle.kind === 'pglite') {
        await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder });
      } else {
        await migratePg(db as unknown as NodePgDatabase, { migrationsFolder });
        // On Citus, the tables are then distributed by project_id (nothing to do on a second run).
        await distributeTables(db);
      }
      const after = await appliedMigrations(db);
      return readMigrationJournal()
        .filter((entry) => after.has(entry.when) && !before.has(entry.when))
        .map((entry) => entry.tag);
    } finally {
      await db.execute(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
    }
  });
}

/** True when every committed migration has been applied (readiness, D2). */
export async function migrationsApplied(handle: DatabaseHandle, expected: number): Promise<boolean> {
  const result = await handle.db.execute(
    sql`SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations`,
  );
  const applied = Number(rowsOf<{ applied: number }>(result)[0]?.applied ?? 0);
  return applied >= expected;
}
