import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../src/db/client.js';
import { executePrepared } from '../../src/db/prepared.js';
import {
  type TestDatabase,
  createServerDatabase,
  createTestDatabase,
  testServerUrl,
} from '../helpers/database.js';

// Hot statements run as named prepared statements (src/db/prepared.ts). node-postgres refuses a
// name that a connection already prepared with another text, so names must follow the text.

describe('executePrepared', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const value = async (query: ReturnType<typeof sql>) =>
    rowsOf<{ x: number }>(await executePrepared(database.handle.db, query))[0]!.x;

  it('runs different texts side by side on one connection, each prepared once, with fresh parameters', async () => {
    await database.handle.withDedicatedConnection(async (db) => {
      const run = async (query: ReturnType<typeof sql>) =>
        rowsOf<{ x: number }>(await executePrepared(db, query))[0]!.x;
      for (let i = 1; i <= 3; i++) {
        expect(await run(sql`SELECT ${i}::int AS x`)).toBe(i);
        expect(await run(sql`SELECT ${i}::int + 10 AS x`)).toBe(i + 10);
        expect(await run(sql`SELECT ${i}::int * ${i}::int AS x`)).toBe(i * i);
      }
    });
  });

  it('works inside a transaction and from the pool alike', async () => {
    expect(await value(sql`SELECT ${41}::int + 1 AS x`)).toBe(42);
    const inside = await database.handle.db.transaction(
      async (tx) => rowsOf<{ x: number }>(await executePrepared(tx, sql`SELECT ${41}::int + 1 AS x`))[0]!.x,
    );
    expect(inside).toBe(42);
  });
});

describe.runIf(testServerUrl())('DATABASE_PREPARED_STATEMENTS (Postgres)', () => {
  /** The parley_* statements one connection holds after running a hot one twice. */
  async function preparedAfterUse(preparedStatements: boolean): Promise<number> {
    const server = await createServerDatabase(testServerUrl()!);
    const handle = await openDatabase({
      databaseUrl: server.url,
      dataDir: 'unused',
      poolMax: 1,
      preparedStatements,
    });
    try {
      for (let i = 0; i < 2; i++) await executePrepared(handle.db, sql`SELECT ${i}::int AS x`);
      const result = await handle.db.execute(
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'parley_%'`,
      );
      return rowsOf<{ n: number }>(result)[0]!.n;
    } finally {
      await handle.close();
      await server.drop();
    }
  }

  it('keeps hot statements prepared by name by default', async () => {
    expect(await preparedAfterUse(true)).toBe(1);
  });

  it('sends them unnamed when turned off, for poolers that cannot follow names', async () => {
    expect(await preparedAfterUse(false)).toBe(0);
  });
});
