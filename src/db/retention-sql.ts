import { type AnyColumn, type SQL, and, eq, isNotNull, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Executor, rowsOf } from './client.js';

// D151: the pieces every table's retention statements share: which namespaces a policy covers,
// and the count and time span of what it would delete (the preview and the sweep read the same
// conditions, so the preview says what the sweep then deletes).

/**
 * The namespaces one policy covers: a namespace with a policy of its own, or every other one
 * (objects without a namespace included) under the project's policy.
 */
export type NamespaceScope = { namespace: string } | { except: readonly string[] };

export function inNamespaceScope(column: AnyColumn | SQL, scope: NamespaceScope): SQL {
  if ('namespace' in scope) return sql`${column} = ${scope.namespace}`;
  if (scope.except.length === 0) return sql`true`;
  return sql`(${column} IS NULL OR ${column} NOT IN (${sql.join(
    scope.except.map((namespace) => sql`${namespace}`),
    sql`, `,
  )}))`;
}

/** How many rows a rule covers and the earliest and latest of their times. */
export interface RetentionSpan {
  count: number;
  oldest: Date | null;
  newest: Date | null;
}

/** The select list of a span over `column` (a timestamp column). */
const spanColumns = (column: AnyColumn) => ({
  count: sql<number>`count(*)::int`.mapWith(Number),
  oldest: sql`min(${column})`.mapWith(toDate),
  newest: sql`max(${column})`.mapWith(toDate),
});

/**
 * The rows one rule covers: the next batch to erase, earliest first, and the preview's span. The
 * sweep and the preview read the same condition.
 */
export interface RuleRows<Row> {
  next(db: Executor, limit: number): Promise<Row[]>;
  span(db: Executor): Promise<RetentionSpan>;
}

/** The span of the rows of `table` that `where` selects, over `time`. */
export async function spanOf(
  db: Executor,
  table: PgTable,
  time: PgColumn,
  where: SQL | undefined,
): Promise<RetentionSpan> {
  const [span] = await db.select(spanColumns(time)).from(table).where(where);
  return span!;
}

/** The ids of the rows of `table` that `where` selects, ordered by the rule's `time`. */
export function rowsByTime(
  table: PgTable & { id: PgColumn },
  time: PgColumn,
  where: SQL | undefined,
): RuleRows<string> {
  return {
    async next(db, limit) {
      const rows = await db.select({ id: table.id }).from(table).where(where).orderBy(time).limit(limit);
      return rows.map((row) => row.id as string);
    },
    span: (db) => spanOf(db, table, time, where),
  };
}

/** D150: the project's objects of `table` past their `expiresAt`, oldest expiry first. */
export const pastExpiry = (
  table: PgTable & { id: PgColumn; projectId: PgColumn; expiresAt: PgColumn },
  projectId: string,
): RuleRows<string> =>
  rowsByTime(
    table,
    table.expiresAt,
    and(eq(table.projectId, projectId), isNotNull(table.expiresAt), sql`${table.expiresAt} <= now()`),
  );

/** The drivers answer an aggregate's timestamp as text (pg) or as a Date (PGlite). */
const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string | Date);

/** Rows one retention batch selects at most: each is erased in the batch's short transaction. */
export const RETENTION_BATCH_ROWS = 50;

/** An arbitrary constant: the first key of the retention sweeper's advisory locks (D154). */
const RETENTION_LOCK_CLASS = 0x5e7e;

/**
 * D154: takes the project's sweeper lock until the transaction ends, or answers false at once when
 * another instance holds it (that instance is sweeping the project: this one skips it).
 */
export async function trySweeperLock(tx: Executor, projectId: string): Promise<boolean> {
  const result = await tx.execute(
    sql`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK_CLASS}::int, hashtext(${projectId})) AS locked`,
  );
  return rowsOf<{ locked: boolean }>(result)[0]?.locked === true;
}
