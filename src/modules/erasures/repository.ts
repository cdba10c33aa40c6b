import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { erasures } from '../../db/schema.js';

// Drizzle queries of the erasures table (D162). Every statement but the worker's look for due
// work names the project (one shard on Citus, D49).

export type ErasureRow = typeof erasures.$inferSelect;

/** The new pending erasure, or undefined when the namespace has one already (the unique index). */
export async function insertErasure(
  tx: Executor,
  row: { projectId: string; id: string; namespace: string },
): Promise<ErasureRow | undefined> {
  const [inserted] = await tx.insert(erasures).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function findPendingErasure(
  db: Executor,
  projectId: string,
  namespace: string,
): Promise<ErasureRow | undefined> {
  const [row] = await db
    .select()
    .from(erasures)
    .where(
      and(
        eq(erasures.projectId, projectId),
        eq(erasures.namespace, namespace),
        eq(erasures.status, 'pending'),
      ),
    );
  return row;
}

export async function findErasure(
  db: Executor,
  projectId: string,
  id: string,
): Promise<ErasureRow | undefined> {
  const [row] = await db
    .select()
    .from(erasures)
    .where(and(eq(erasures.projectId, projectId), eq(erasures.id, id)));
  return row;
}

const leaseFree = (now: Date) => or(isNull(erasures.leaseUntil), lt(erasures.leaseUntil, now));

/** Pending erasures no instance holds, oldest first, across projects (locks nothing). */
export async function dueErasures(
  db: Executor,
  now: Date,
  limit: number,
): Promise<{ projectId: string; id: string }[]> {
  return db
    .select({ projectId: erasures.projectId, id: erasures.id })
    .from(erasures)
    .where(and(eq(erasures.status, 'pending'), leaseFree(now)))
    .orderBy(asc(erasures.created))
    .limit(limit);
}

/** Takes the erasure's lease until `until`, when it is pending and no live lease holds it. */
export async function claimErasure(
  db: Executor,
  key: { projectId: string; id: string },
  now: Date,
  until: Date,
): Promise<ErasureRow | undefined> {
  const [row] = await db
    .update(erasures)
    .set({ leaseUntil: until })
    .where(
      and(
        eq(erasures.projectId, key.projectId),
        eq(erasures.id, key.id),
        eq(erasures.status, 'pending'),
        leaseFree(now),
      ),
    )
    .returning();
  return row;
}

/**
 * Records a batch's counts and renews the lease, in the batch's transaction; false when the lease
 * is no longer the one held (it ran out and another instance took the erasure over): the batch
 * must then roll back, so that no work is done twice.
 */
export async function recordProgress(
  tx: Executor,
  key: { projectId: string; id: string },
  held: Date,
  change: { counts: Record<string, number>; leaseUntil: Date; completedAt?: Date },
): Promise<boolean> {
  const rows = await tx
    .update(erasures)
    .set({
      counts: sql`${JSON.stringify(change.counts)}::jsonb`,
      leaseUntil: change.leaseUntil,
      ...(change.completedAt ? { status: 'completed' as const, completedAt: change.completedAt } : {}),
    })
    .where(
      and(
        eq(erasures.projectId, key.projectId),
        eq(erasures.id, key.id),
        eq(erasures.status, 'pending'),
        eq(erasures.leaseUntil, held),
      ),
    )
    .returning({ id: erasures.id });
  return rows.length === 1;
}
