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

/** Runs `query` as a named prepared statement; answers like `execute`. */
export async function executePrepared(db: Executor, query: SQL): Promise<unknown> {
  const built = dialect.sqlToQuery(query);
  return db._.session.prepareQuery(built, undefined, statementName(built.sql), false).execute();
}
