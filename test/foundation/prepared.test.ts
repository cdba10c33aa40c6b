import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { executePrepared } from '../../src/db/prepared.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';

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
