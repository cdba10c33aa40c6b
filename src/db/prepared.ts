import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

// Hot statements as named prepared statements. On Postgres, parsing and planning the append
// statement costs more than running it (pgbench on this machine: 0.72 ms a transaction sent
// unprepared, 0.43 ms prepared), and node-postgres keeps a statement prepared per connection once
// it has a name. Drizzle names only the queries its builders prepare; this does the same for a
// hand-written statement. PGlite runs it like any other query.

const dialect = new PgDialect();

/**
 * The name of a statement text. Derived from the text itself: node-postgres refuses one name for
 * two texts, and statements whose text varies (a VALUES list per batch size) get one name each.
 */
const statementName = (text: string): string =>
  `parley_${createHash('sha1').update(text).digest('base64url')}`;

// Private API: Drizzle has no public way to prepare a hand-written `sql` statement under a name,
// so this calls its session directly, as its own query builders do. Written against drizzle-orm
// 0.45.4, whose PgDatabase (and PgTransaction) carries its session as `_.session`, and whose
// node-postgres and PGlite sessions share the signature
//   prepareQuery(query: { sql, params }, fields, name, isResponseInArrayMode, ...)
// returning a prepared query whose `execute()`, with `fields` undefined, answers the driver's own
// result (`{ rows }`); node-postgres sends `name` as its statement name. Nothing in Drizzle's
// semver keeps any of this: test/foundation/prepared.test.ts checks it on both drivers, and
// `sessionOf` below fails with a clear message rather than a TypeError deep in a write.

interface PrivateSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    isResponseInArrayMode: boolean,
  ): { execute(): Promise<unknown> };
}

/** The Drizzle session behind `db`, or a descriptive error when Drizzle no longer exposes it. */
export function sessionOf(db: Executor): PrivateSession {
  const session = (db as { _?: { session?: Partial<PrivateSession> } })._?.session;
  if (typeof session?.prepareQuery !== 'function') {
    throw new Error(
      'drizzle-orm no longer exposes db._.session.prepareQuery (src/db/prepared.ts was written against ' +
        'drizzle-orm 0.45.4): adapt executePrepared to the installed version, or pin drizzle-orm',
    );
  }
  return session as PrivateSession;
}

/**
 * What `executePrepared` sends for `query`: statement name, text and parameters (node-postgres's
 * query config). Also used by bench/baseline-server.ts to issue Parley's statements by hand.
 */
export function preparedStatement(query: SQL): { name: string; text: string; values: unknown[] } {
  const built = dialect.sqlToQuery(query);
  return { name: statementName(built.sql), text: built.sql, values: built.params };
}

/** Runs `query` as a named prepared statement; answers like `execute`. */
export async function executePrepared(db: Executor, query: SQL): Promise<unknown> {
  const { name, text, values } = preparedStatement(query);
  return sessionOf(db).prepareQuery({ sql: text, params: values }, undefined, name, false).execute();
}

/**
 * A query built once per executor (the database, or one transaction) and shape, instead of on
 * every call. Drizzle builds a query's text on every `.prepare()`, and on the hot reads that was
 * about a sixth of a request's CPU: these queries take their values as `sql.placeholder`s and are
 * built on first use. `keyOf` names a shape (a query with optional clauses has one per
 * combination). A WeakMap lets a transaction's queries go with it.
 */
export function builtOnce<Query, Shape = void>(
  build: (db: Executor, shape: Shape) => Query,
  keyOf: (shape: Shape) => string = () => '',
): (db: Executor, shape: Shape) => Query {
  const built = new WeakMap<Executor, Map<string, Query>>();
  return (db, shape) => {
    let shapes = built.get(db);
    if (!shapes) {
      shapes = new Map();
      built.set(db, shapes);
    }
    const key = keyOf(shape);
    let query = shapes.get(key);
    if (!query) {
      query = build(db, shape);
      shapes.set(key, query);
    }
    return query;
  };
}
