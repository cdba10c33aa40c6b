import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { readMigrationCount } from '../../src/db/migration-files.js';
import { migrationsApplied, runMigrations } from '../../src/db/migrate.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe('migrations (D47)', () => {
  it('are all applied, and applying them again changes nothing', async () => {
    const count = readMigrationCount();
    expect(await migrationsApplied(database.handle, count)).toBe(true);
    await runMigrations(database.handle);
    await Promise.all([runMigrations(database.handle), runMigrations(database.handle)]);
    const rows = rowsOf<{ n: number }>(
      await database.handle.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`),
    );
    expect(rows[0]!.n).toBe(count);
  });

  it('install pgvector', async () => {
    const rows = rowsOf<{ extname: string }>(
      await database.handle.db.execute(sql`SELECT extname FROM pg_extension WHERE extname = 'vector'`),
    );
    expect(rows).toHaveLength(1);
  });
});
