import { type SQL, and, asc, eq, lt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { executePrepared } from '../../db/prepared.js';
import { usageCounters } from '../../db/schema.js';

// D44: write counters per project and UTC month, spread over shard rows so that concurrent
// writers of one project lock different rows instead of queueing on one.

const shardRow = (projectId: string, month: string, shard: number) =>
  and(eq(usageCounters.projectId, projectId), eq(usageCounters.month, month), eq(usageCounters.shard, shard));

/**
 * Counts one write on a shard, with no ceiling (projects without a quota); returns one row. Also
 * the first part of a standalone write's statement (D174).
 */
export const incrementShardStatement = (projectId: string, month: string, shard: number): SQL =>
  sql`INSERT INTO usage_counters (project_id, month, shard, writes)
      VALUES (${projectId}::text, ${month}::text, ${shard}::int, 1)
      ON CONFLICT (project_id, month, shard) DO UPDATE SET writes = usage_counters.writes + 1
      RETURNING writes`;

/** Counts one write on a shard, with no ceiling (projects without a quota). */
export async function incrementShard(tx: Executor, projectId: string, month: string, shard: number) {
  // Every write runs it: prepared once per connection (src/db/prepared.ts says why).
  await executePrepared(tx, incrementShardStatement(projectId, month, shard));
}

async function incrementBelow(
  tx: Executor,
  projectId: string,
  month: string,
  shard: number,
  ceiling: number,
) {
  const rows = await tx
    .update(usageCounters)
    .set({ writes: sql`${usageCounters.writes} + 1` })
    .where(and(shardRow(projectId, month, shard), lt(usageCounters.writes, ceiling)))
    .returning({ writes: usageCounters.writes });
  return rows.length === 1;
}

/**
 * Counts one write on a shard unless the shard already holds `ceiling` writes. The UPDATE waits
 * for a concurrent writer of the same row and re-checks the ceiling against its committed count,
 * so a shard never goes past its ceiling; a refused UPDATE keeps no lock. `ceiling` is >= 1.
 */
export async function claimInShard(
  tx: Executor,
  projectId: string,
  month: string,
  shard: number,
  ceiling: number,
): Promise<boolean> {
  if (await incrementBelow(tx, projectId, month, shard, ceiling)) return true;
  const inserted = await tx
    .insert(usageCounters)
    .values({ projectId, month, shard, writes: 1 })
    .onConflictDoNothing()
    .returning({ writes: usageCounters.writes });
  if (inserted.length === 1) return true;
  // The row was created by a concurrent writer after our UPDATE looked: look once more.
  return incrementBelow(tx, projectId, month, shard, ceiling);
}

/**
 * The common case in one statement: counts the write on `shard` when it is below its share of
 * `quota` and no shard of the month is past its share (see the service); returns a row when it
 * counted. Also the first part of a standalone write's statement (D174).
 */
export const incrementWithinSharesStatement = (
  projectId: string,
  month: string,
  shard: number,
  quota: number,
  shards: number,
  share: number,
): SQL => sql`UPDATE usage_counters SET writes = writes + 1
      WHERE project_id = ${projectId}::text AND month = ${month}::text AND shard = ${shard}::int
        AND writes < ${share}::bigint
        AND NOT EXISTS (SELECT 1 FROM usage_counters other
          WHERE other.project_id = ${projectId}::text AND other.month = ${month}::text
            AND other.writes > ${quota}::bigint / ${shards}::int
              + CASE WHEN other.shard < ${quota}::bigint % ${shards}::int THEN 1 ELSE 0 END)
      RETURNING writes`;

/** Runs a counting statement (the one above); whether it counted. */
export async function countedBy(tx: Executor, statement: SQL): Promise<boolean> {
  // Every write of a project with a quota runs one: prepared (src/db/prepared.ts says why).
  return rowsOf(await executePrepared(tx, statement)).length === 1;
}

/** Writes of a project in a month (committed ones, plus the caller's own transaction's). */
export async function monthWrites(db: Executor, projectId: string, month: string): Promise<number> {
  const [row] = await db
    .select({ writes: sql<number>`coalesce(sum(${usageCounters.writes}), 0)::bigint` })
    .from(usageCounters)
    .where(and(eq(usageCounters.projectId, projectId), eq(usageCounters.month, month)));
  return Number(row?.writes ?? 0);
}

export interface ShardCount {
  shard: number;
  writes: number;
}

const monthRows = (projectId: string, month: string) =>
  and(eq(usageCounters.projectId, projectId), eq(usageCounters.month, month));

/** The shard rows of a project's month as committed (plus the caller's own changes); no locks. */
export async function readShards(db: Executor, projectId: string, month: string): Promise<ShardCount[]> {
  const rows = await db
    .select({ shard: usageCounters.shard, writes: usageCounters.writes })
    .from(usageCounters)
    .where(monthRows(projectId, month));
  return rows.map((row) => ({ shard: row.shard, writes: Number(row.writes) }));
}

/**
 * Creates the missing shard rows of a month and locks them all, in shard order (two lockers
 * never deadlock), waiting for writers that hold one of them. Returns their committed counts.
 */
export async function lockShards(tx: Executor, projectId: string, month: string, shards: number) {
  await tx
    .insert(usageCounters)
    .values(Array.from({ length: shards }, (_, shard) => ({ projectId, month, shard, writes: 0 })))
    .onConflictDoNothing();
  const rows = await tx
    .select({ shard: usageCounters.shard, writes: usageCounters.writes })
    .from(usageCounters)
    .where(monthRows(projectId, month))
    .orderBy(asc(usageCounters.shard))
    .for('update');
  return rows.map((row) => ({ shard: row.shard, writes: Number(row.writes) }));
}

/** Sets the counts of locked shard rows. */
export async function setShardCounts(tx: Executor, projectId: string, month: string, counts: ShardCount[]) {
  for (const { shard, writes } of counts) {
    await tx
      .update(usageCounters)
      .set({ writes })
      .where(shardRow(projectId, month, shard));
  }
}
