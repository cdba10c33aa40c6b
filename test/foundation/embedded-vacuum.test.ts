import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, rowsOf } from '../../src/db/client.js';
import { tablesDue, vacuumTablesDue } from '../../src/db/embedded-vacuum.js';
import { createProject, createTestContext } from '../helpers/app.js';
import { type TestDatabase, createTestDatabase, testServerUrl } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';

// D192: the embedded store has no autovacuum, so the server vacuums and analyzes it by
// autovacuum's formula. PostgreSQL vacuums itself: nothing here runs there.

interface TableState {
  n_dead_tup: number;
  vacuumed: boolean;
  analyzed: boolean;
  bytes: number;
}

/** A table's statistics, with every change made so far reported first. */
async function tableState(db: Database, table: string): Promise<TableState> {
  await db.execute(sql`SELECT pg_stat_force_next_flush()`);
  const [row] = rowsOf<TableState>(
    await db.execute(sql`
      SELECT n_dead_tup::int, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed,
        pg_relation_size(relid)::int AS bytes
      FROM pg_stat_user_tables WHERE relname = ${table}`),
  );
  return row!;
}

describe.skipIf(testServerUrl())('vacuum and analyze on the embedded store (D192)', () => {
  let database: TestDatabase;
  const db = () => database.handle.db;

  const state = (table: string) => tableState(db(), table);
  const due = async () => (await tablesDue(db())).map((table) => table.table);

  beforeAll(async () => {
    database = await createTestDatabase();
    await db().execute(sql`CREATE TABLE churn (id int PRIMARY KEY, body text)`);
    await db().execute(sql`INSERT INTO churn SELECT g, repeat('a', 200) FROM generate_series(1, 40) g`);
  });
  afterAll(() => database.close());

  it('first vacuums and analyzes every table that holds rows and was never counted', async () => {
    // The migrations wrote rows (their own journal), and the test its own, that no statistics cover yet.
    expect(await due()).toEqual(expect.arrayContaining(['drizzle.__drizzle_migrations', 'public.churn']));
    const done = await vacuumTablesDue(db());
    expect(done.find((table) => table.table === 'public.churn')).toEqual({
      table: 'public.churn',
      vacuum: true,
      analyze: true,
    });
    expect(await state('churn')).toMatchObject({ vacuumed: true, analyzed: true });
    expect(await due()).toEqual([]);
  });

  it('leaves a table alone below autovacuum thresholds, and takes it past them', async () => {
    // The thresholds for the 40 rows counted: 50 + 0.2 x 40 = 58 dead rows, 50 + 0.1 x 40 = 54 changes.
    await db().execute(sql`UPDATE churn SET body = repeat('b', 200)`);
    expect(await due()).toEqual([]);

    await db().execute(sql`INSERT INTO churn SELECT g, repeat('a', 200) FROM generate_series(41, 60) g`);
    // 60 changes since the last analyze; still 40 dead rows.
    expect(await tablesDue(db())).toEqual([{ table: 'public.churn', vacuum: false, analyze: true }]);
    await vacuumTablesDue(db());
    expect(await state('churn')).toMatchObject({ analyzed: true });
    const statistics = rowsOf(await db().execute(sql`SELECT 1 FROM pg_stats WHERE tablename = 'churn'`));
    expect(statistics.length).toBeGreaterThan(0);

    // Now 60 rows: 50 + 12 = 62 dead rows, 50 + 6 = 56 changes. 30 updated: 70 dead, 30 changes.
    await db().execute(sql`UPDATE churn SET body = repeat('c', 200) WHERE id <= 30`);
    expect(await tablesDue(db())).toEqual([{ table: 'public.churn', vacuum: true, analyze: false }]);
    await vacuumTablesDue(db());
    expect(await state('churn')).toMatchObject({ n_dead_tup: 0 });
    expect(await due()).toEqual([]);
  });

  it('lets a queue reuse the space of the rows it deleted instead of growing', async () => {
    // As the embedding queue does: rows inserted, then deleted once done.
    await db().execute(sql`CREATE TABLE queue (id int PRIMARY KEY, body text)`);
    let next = 0;
    const fillAndEmpty = async () => {
      await db().execute(
        sql`INSERT INTO queue SELECT g, repeat('q', 200) FROM generate_series(${next + 1}::int, ${next + 60}::int) g`,
      );
      next += 60;
      await db().execute(sql`DELETE FROM queue`);
    };
    for (let cycle = 0; cycle < 8; cycle++) await fillAndEmpty();
    const neglected = (await state('queue')).bytes;
    // Nothing vacuumed: every cycle's rows took new pages (two per cycle).
    expect(neglected).toBeGreaterThanOrEqual(8 * 8192);

    for (let cycle = 0; cycle < 8; cycle++) {
      await fillAndEmpty();
      await vacuumTablesDue(db());
    }
    // Vacuumed after each cycle: the empty pages are gone and the next cycle reuses the space.
    expect((await state('queue')).bytes).toBeLessThanOrEqual(2 * 8192);
  });
});

describe.skipIf(testServerUrl())('the server on the embedded store', () => {
  it('vacuums and analyzes it every EMBEDDED_VACUUM_INTERVAL_MS', async () => {
    const ctx = await createTestContext({ EMBEDDED_VACUUM_INTERVAL_MS: '50' });
    try {
      await createProject(ctx.app);
      const projects = await eventually(
        async () => {
          const { vacuumed, analyzed } = await tableState(ctx.database.handle.db, 'projects');
          return vacuumed && analyzed && { vacuumed, analyzed };
        },
        { what: 'the projects table vacuumed and analyzed' },
      );
      expect(projects).toEqual({ vacuumed: true, analyzed: true });
    } finally {
      await ctx.close();
    }
  });
});
