import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';

// Published by the erasures module for the statements and writes of other modules (D163): a
// namespace with a pending erasure reads as empty and takes no new objects.

/**
 * True for a row whose namespace has a pending erasure. `projectId` and `namespace` are the
 * row's columns (or values); a row without a namespace is never erased by one.
 */
const namespaceErasing = (projectId: SQL | unknown, namespace: SQL | unknown): SQL =>
  sql`EXISTS (SELECT 1 FROM erasures e
              WHERE e.project_id = ${projectId} AND e.namespace = ${namespace} AND e.status = 'pending')`;

export const notErasing = (projectId: SQL | unknown, namespace: SQL | unknown): SQL =>
  sql`NOT ${namespaceErasing(projectId, namespace)}`;

/**
 * D169: `notErasing` for a statement over many rows of one project: the project's erasing
 * namespaces are read once, not looked up per row.
 */
export const outsideErasures = (projectId: string, namespace: SQL): SQL =>
  sql`(${namespace} IS NULL OR ${namespace} NOT IN (SELECT e.namespace FROM erasures e
    WHERE e.project_id = ${projectId} AND e.status = 'pending'))`;

/**
 * The lock that orders writes into a namespace and its erasure (D163): writes that create an
 * object in the namespace hold it shared until their commit, an erasure takes it alone to record
 * itself. A write that got in first commits before the erasure is recorded (and is erased with
 * the namespace); a write that comes after sees the pending erasure and is refused. Advisory and
 * per transaction: nothing to clean up, and on Citus it lives on the coordinator every
 * connection goes through.
 */
export async function lockNamespace(
  tx: Executor,
  projectId: string,
  namespace: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  const key = sql`hashtextextended(${projectId} || '/' || ${namespace}, 0)`;
  await tx.execute(
    mode === 'shared'
      ? sql`SELECT pg_advisory_xact_lock_shared(${key})`
      : sql`SELECT pg_advisory_xact_lock(${key})`,
  );
}

/** True when the namespace has a pending erasure, read after `lockNamespace`. */
export async function isErasing(tx: Executor, projectId: string, namespace: string): Promise<boolean> {
  const [row] = rowsOf<{ erasing: boolean }>(
    await tx.execute(sql`SELECT ${namespaceErasing(projectId, namespace)} AS erasing`),
  );
  return row?.erasing === true;
}

type EventKey = { type: string; namespace: string | null };

/** A receipt stays readable whatever happens to its namespace later. */
const erasable = (event: EventKey) => event.namespace !== null && event.type !== 'namespace.erased';

/**
 * D168: which of these events belong to a namespace with a pending erasure, as a test on each
 * (one statement on the project's shard, none when no event has a namespace).
 */
export async function erasingEventsOf(
  db: Executor,
  projectId: string,
  list: readonly EventKey[],
): Promise<(event: EventKey) => boolean> {
  const namespaces = [...new Set(list.filter(erasable).map((event) => event.namespace!))];
  if (namespaces.length === 0) return () => false;
  const rows = rowsOf<{ namespace: string }>(
    await db.execute(sql`SELECT namespace FROM erasures
      WHERE project_id = ${projectId} AND status = 'pending' AND namespace IN ${namespaces}`),
  );
  const erasing = new Set(rows.map((row) => row.namespace));
  return (event) => erasable(event) && erasing.has(event.namespace!);
}
