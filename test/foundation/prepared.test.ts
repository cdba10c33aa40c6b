import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.js';
import { builtOnce, executePrepared, sessionOf } from '../../src/db/prepared.js';
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

// The hot reads are built once per executor and shape (builtOnce): the values come at execution,
// so a query built for one call answers every later one with that call's values.
describe('builtOnce', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const builds: boolean[] = [];
  const plus = builtOnce(
    (db, shape: { times: boolean }) => {
      builds.push(shape.times);
      const x = sql.placeholder('x');
      return db
        .select({ y: shape.times ? sql<number>`${x}::int * 10` : sql<number>`${x}::int + 10` })
        .from(sql`(SELECT 1) AS one`)
        .prepare(`builtonce_test_${shape.times ? 'times' : 'plus'}`);
    },
    (shape) => (shape.times ? 'times' : 'plus'),
  );
  it('builds a query once per shape and executor, and runs it with the values of each call', async () => {
    const { db } = database.handle;
    for (let x = 1; x <= 3; x++) {
      expect((await plus(db, { times: false }).execute({ x }))[0]!.y).toBe(x + 10);
      expect((await plus(db, { times: true }).execute({ x }))[0]!.y).toBe(x * 10);
    }
    expect(builds).toEqual([false, true]);
    // A transaction is another executor: its queries are built for it, and go with it.
    const inside = await db.transaction(
      async (tx) => (await plus(tx, { times: false }).execute({ x: 5 }))[0]!.y,
    );
    expect(inside).toBe(15);
    expect(builds).toEqual([false, true, false]);
  });
});

// executePrepared calls Drizzle's private session API (src/db/prepared.ts, written against
// drizzle-orm 0.45.4). An upgrade that removes or changes it must fail here, by name, on both
// drivers, rather than as a TypeError in the middle of an append.
describe('the private Drizzle API behind executePrepared', () => {
  const changed =
    'drizzle-orm changed db._.session.prepareQuery, which src/db/prepared.ts relies on (written against 0.45.4)';

  function expectPrivateApi(db: Database): void {
    const session = (db as { _?: { session?: { prepareQuery?: unknown } } })._?.session;
    expect(typeof session?.prepareQuery, changed).toBe('function');
  }

  async function expectRows(db: Database): Promise<void> {
    const result = await executePrepared(db, sql`SELECT ${7}::int AS x, ${'seven'}::text AS word`);
    expect(rowsOf(result), changed).toEqual([{ x: 7, word: 'seven' }]);
    const inside = await db.transaction(async (tx) => {
      expectPrivateApi(tx as unknown as Database);
      return rowsOf(await executePrepared(tx, sql`SELECT ${8}::int AS x`));
    });
    expect(inside, changed).toEqual([{ x: 8 }]);
  }

  async function withHandle(open: () => Promise<DatabaseHandle>, fn: (db: Database) => Promise<void>) {
    const handle = await open();
    try {
      await fn(handle.db);
    } finally {
      await handle.close();
    }
  }

  it('is there on PGlite, and a statement run through it returns rows', async () => {
    await withHandle(
      () => openDatabase({ dataDir: 'memory://' }),
      async (db) => {
        expectPrivateApi(db);
        await expectRows(db);
      },
    );
  });

  it('is there on node-postgres (checked without connecting)', async () => {
    // pg.Pool connects on the first query only: the shape of the session is checked on any machine.
    await withHandle(
      () => openDatabase({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', dataDir: 'unused' }),
      async (db) => expectPrivateApi(db),
    );
  });

  it.runIf(testServerUrl())('returns rows on node-postgres', async () => {
    const server = await createServerDatabase(testServerUrl()!);
    try {
      await withHandle(
        () => openDatabase({ databaseUrl: server.url, dataDir: 'unused', poolMax: 2 }),
        expectRows,
      );
    } finally {
      await server.drop();
    }
  });

  it('says what is wrong when the API is gone, instead of failing with a TypeError', async () => {
    const withoutSession = { _: {} } as unknown as Database;
    expect(() => sessionOf(withoutSession)).toThrow(
      /no longer exposes db\._\.session\.prepareQuery.*0\.45\.4/,
    );
    await expect(executePrepared(withoutSession, sql`SELECT 1`)).rejects.toThrow(/drizzle-orm/);
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
