import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { keysetPage } from '../../db/keyset.js';
import { summaries } from '../../db/schema.js';
import { notErasing } from '../erasures/erasing-sql.js';

// Queries of the summaries table (D56). Every query names project_id first (D46, D49).

export type SummaryRow = typeof summaries.$inferSelect;
export type NewSummaryRow = typeof summaries.$inferInsert;

/** A message as a summary's coverage is stated: its `created` and insertion sequence. */
export interface MessageKey {
  created: Date;
  seq: number;
}

const byId = (projectId: string, id: string) => and(eq(summaries.projectId, projectId), eq(summaries.id, id));

/** Inserts a summary; undefined when its (client-given) id is taken already. */
export async function insertSummary(tx: Executor, row: NewSummaryRow): Promise<SummaryRow | undefined> {
  const [inserted] = await tx.insert(summaries).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function findSummary(
  db: Executor,
  projectId: string,
  id: string,
): Promise<SummaryRow | undefined> {
  const [row] = await db
    .select()
    .from(summaries)
    .where(and(byId(projectId, id), notErasing(summaries.projectId, summaries.namespace)));
  return row;
}

/** One page of a dialogue's summaries, keyset-paginated on (created, id) like the other lists. */
export async function listSummaries(
  db: Executor,
  projectId: string,
  dialogueId: string,
  page: { order: 'asc' | 'desc'; limit: number; after?: { created: string; id: string } },
): Promise<SummaryRow[]> {
  const after = page.after && { created: page.after.created, tiebreak: page.after.id };
  const keyset = keysetPage(summaries.created, summaries.id, after, page.order);
  return db
    .select()
    .from(summaries)
    .where(and(eq(summaries.projectId, projectId), eq(summaries.dialogueId, dialogueId), keyset.beyond))
    .orderBy(...keyset.orderBy)
    .limit(page.limit);
}

/**
 * D73: deletes every summary of the dialogue that covers the message (see the table's comment)
 * and returns their ids.
 */
export async function deleteSummariesCovering(
  tx: Executor,
  projectId: string,
  dialogueId: string,
  message: MessageKey,
): Promise<string[]> {
  const key = sql`(${message.created.toISOString()}::timestamptz, ${message.seq}::bigint)`;
  const rows = await tx
    .delete(summaries)
    .where(
      and(
        eq(summaries.projectId, projectId),
        eq(summaries.dialogueId, dialogueId),
        sql`${summaries.coversSeq} >= ${message.seq}`,
        sql`(${summaries.rangeStartSeq} IS NULL OR (${summaries.rangeStartCreated}, ${summaries.rangeStartSeq}) <= ${key})`,
        sql`(${summaries.rangeEndSeq} IS NULL OR (${summaries.rangeEndCreated}, ${summaries.rangeEndSeq}) >= ${key})`,
      ),
    )
    .returning({ id: summaries.id });
  return rows.map((row) => row.id);
}
