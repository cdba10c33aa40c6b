import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Database, rowsOf } from '../../src/db/client.js';

const dialect = new PgDialect();

/**
 * `db` with `before` called before every statement it runs, on the same executor: inside a
 * transaction, in the same transaction and with the same settings.
 */
export function observingStatements(
  db: Database,
  before: (executor: Database, statement: SQL) => Promise<void> | void,
): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return (fn: (tx: Database) => Promise<unknown>) =>
          target.transaction((tx) => fn(observingStatements(tx as Database, before)));
      }
      if (property !== 'execute') return Reflect.get(target, property, receiver);
      return async (statement: SQL) => {
        await before(target, statement);
        return target.execute(statement);
      };
    },
  });
}

/** `db` with `beforeCandidates` called before every statement that starts with `WITH` (a search's candidate statement). */
export function observingExecutor(
  db: Database,
  beforeCandidates: (executor: Database, statement: SQL) => Promise<void>,
): Database {
  return observingStatements(db, async (executor, statement) => {
    if (dialect.sqlToQuery(statement).sql.trimStart().startsWith('WITH'))
      await beforeCandidates(executor, statement);
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

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Rows read from `relation` by every node scanning it, kept or filtered out, over all loops. */
function rowsReadFrom(node: PlanNode, relation: string): number {
  const own =
    node['Relation Name'] === relation
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsReadFrom(child, relation), 0);
}

/**
 * Runs `statement` under EXPLAIN ANALYZE: the rows its plan read from `relation` (on Citus, whose
 * plan reads the shards remotely, none are seen here), and the plan as text for a failure message.
 */
export async function rowsRead(
  db: Database,
  statement: SQL,
  relation: string,
): Promise<{ read: number; plan: string }> {
  const explained = await db.execute(sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
  const [row] = rowsOf<Record<string, unknown>>(explained);
  const raw = Object.values(row!)[0];
  const [{ Plan: plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  return { read: rowsReadFrom(plan, relation), plan: JSON.stringify(plan, null, 1) };
}
