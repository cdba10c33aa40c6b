import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { projectErasures } from '../../db/schema.js';

// Drizzle queries of project_erasures (D166): the records of projects' erasures.

export type ProjectErasureRow = typeof projectErasures.$inferSelect;

/** The new pending erasure, or undefined when the project has one already (the unique index). */
export async function insertProjectErasure(
  db: Executor,
  row: { id: string; erasedProjectId: string },
): Promise<ProjectErasureRow | undefined> {
  const [inserted] = await db.insert(projectErasures).values(row).onConflictDoNothing().returning();
  return inserted;
}

/** The project's pending erasure, or else its latest completed one. */
export async function findLatestProjectErasure(
  db: Executor,
  projectId: string,
): Promise<ProjectErasureRow | undefined> {
  const [row] = await db
    .select()
    .from(projectErasures)
    .where(eq(projectErasures.erasedProjectId, projectId))
    .orderBy(sql`${projectErasures.status} = 'pending' DESC`, desc(projectErasures.created))
    .limit(1);
  return row;
}

export async function findProjectErasure(db: Executor, id: string): Promise<ProjectErasureRow | undefined> {
  const [row] = await db.select().from(projectErasures).where(eq(projectErasures.id, id));
  return row;
}

/** Takes the erasure's lease until `until`, when it is pending and no live lease holds it. */
export async function claimProjectErasure(
  db: Executor,
  id: string,
  now: Date,
  until: Date,
): Promise<ProjectErasureRow | undefined> {
  const [row] = await db
    .update(projectErasures)
    .set({ leaseUntil: until })
    .where(
      and(
        eq(projectErasures.id, id),
        eq(projectErasures.status, 'pending'),
        or(isNull(projectErasures.leaseUntil), lt(projectErasures.leaseUntil, now)),
      ),
    )
    .returning();
  return row;
}

/**
 * Records the rows removed so far and renews the lease (or completes the erasure); undefined when
 * the lease held is no longer the erasure's (it ran out and another request took over).
 */
export async function recordProjectErasure(
  db: Executor,
  id: string,
  held: Date,
  change: {
    counts: Record<string, number>;
    rows: Record<string, number>;
    leaseUntil: Date;
    completedAt?: Date;
  },
): Promise<ProjectErasureRow | undefined> {
  const [row] = await db
    .update(projectErasures)
    .set({
      counts: sql`${JSON.stringify(change.counts)}::jsonb`,
      rows: sql`${JSON.stringify(change.rows)}::jsonb`,
      leaseUntil: change.leaseUntil,
      ...(change.completedAt ? { status: 'completed' as const, completedAt: change.completedAt } : {}),
    })
    .where(
      and(
        eq(projectErasures.id, id),
        eq(projectErasures.status, 'pending'),
        eq(projectErasures.leaseUntil, held),
      ),
    )
    .returning();
  return row;
}
