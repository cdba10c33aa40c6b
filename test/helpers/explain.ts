import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Database, rowsOf } from '../../src/db/client.js';

const dialect = new PgDialect();

/**
 * `db` with `beforeCandidates` called before every statement that starts with `WITH` (a search's
 * candidate statement) runs, on the same executor: inside a transaction, in the same transaction
 * and with the same settings.
 */
export function observingExecutor(
  db: Database,
  beforeCandidates: (executor: Database, statement: SQL) => Promise<void>,
): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return (fn: (tx: Database) => Promise<unknown>) =>
          target.transaction((tx) => fn(observingExecutor(tx as Database, beforeCandidates)));
      }
      if (property !== 'execute') return Reflect.get(target, property, receiver);
      return async (statement: SQL) => {
        if (dialect.sqlToQuery(statement).sql.trimStart().startsWith('WITH')) {
          await beforeCandidates(target, statement);
        }
        return target.execute(statement);
      };
    },
  });
}

/**
 * `db` with every candidate statement run twice: first under EXPLAIN ANALYZE, whose plan is pushed
 * to `plans`, then for its rows.
 */
export function explainingExecutor(db: Database, plans: string[]): Database {
  return observingExecutor(db, async (executor, statement) => {
    const plan = await executor.execute(sql`EXPLAIN (ANALYZE, COSTS OFF) ${statement}`);
    plans.push(
      rowsOf<Record<string, string>>(plan)
        .map((row) => Object.values(row)[0])
        .join('\n'),
    );
  });
}
