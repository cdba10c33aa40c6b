import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Database, rowsOf } from '../../src/db/client.js';

const dialect = new PgDialect();

/**
 * `db` with every statement that starts with `WITH` (a search's candidate statement) run twice:
 * first under EXPLAIN ANALYZE, whose plan is pushed to `plans`, then for its rows. Inside a
 * transaction the plan is made in the same transaction, with the same settings.
 */
export function explainingExecutor(db: Database, plans: string[]): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return (fn: (tx: Database) => Promise<unknown>) =>
          target.transaction((tx) => fn(explainingExecutor(tx as Database, plans)));
      }
      if (property !== 'execute') return Reflect.get(target, property, receiver);
      return async (statement: SQL) => {
        if (dialect.sqlToQuery(statement).sql.trimStart().startsWith('WITH')) {
          const plan = await target.execute(sql`EXPLAIN (ANALYZE, COSTS OFF) ${statement}`);
          plans.push(
            rowsOf<Record<string, string>>(plan)
              .map((row) => Object.values(row)[0])
              .join('\n'),
          );
        }
        return target.execute(statement);
      };
    },
  });
}
