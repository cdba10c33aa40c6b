import { type SQL, and, arrayContains, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { keysetPage } from '../../db/keyset.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { dialogues } from '../../db/schema.js';
import { AppError } from '../../core/errors.js';

// Drizzle queries of the dialogues table. Every query names project_id first (D46, D49).

/** The columns a record is made of (the search vector and embedding stay in the database). */
export const recordColumns = {
  projectId: dialogues.projectId,
  id: dialogues.id,
  namespace: dialogues.namespace,
  threadOf: dialogues.threadOf,
  label: dialogues.label,
  status: dialogues.status,
  tags: dialogues.tags,
  metadata: dialogues.metadata,
  state: dialogues.state,
  summary: dialogues.summary,
  summaryCoversSeq: dialogues.summaryCoversSeq,
  summaryId: dialogues.summaryId,
  totalMessages: dialogues.totalMessages,
  threadCount: dialogues.threadCount,
  lastMessageCreated: dialogues.lastMessageCreated,
  created: dialogues.created,
  modified: dialogues.modified,
};

export type DialogueRow = {
  [K in keyof typeof recordColumns]: (typeof dialogues.$inferSelect)[K];
};

/**
 * The time of a change: the transaction's time, but never earlier than the row's last change.
 * Writers of one row hold its lock and see its latest committed version, so `modified` follows
 * their commit order (D32). Not `clock_timestamp()`, read under the lock, as before: Citus refuses
 * volatile functions in an UPDATE of a distributed table and evaluates `now()` on the coordinator
 * (docs/scaling.md).
 */
export const changeTime = sql`greatest(now(), modified)`;

const byId = (projectId: string, id: string) => and(eq(dialogues.projectId, projectId), eq(dialogues.id, id));

/** The new dialogue, or undefined when its id is taken (D57a: client-given ids). */
export async function insertDialogue(
  tx: Executor,
  row: typeof dialogues.$inferInsert,
): Promise<DialogueRow | undefined> {
  try {
    const [inserted] = await tx
      .insert(dialogues)
      .values(row)
      .onConflictDoNothing({ target: [dialogues.projectId, dialogues.id] })
      .returning(recordColumns);
    return inserted;
  } catch (error) {
    // The project was deleted after the request was authenticated.
    if (isForeignKeyViolation(error, 'dialogues_project_id_projects_id_fk')) {
      throw new AppError('PROJECT_NOT_FOUND', 'The project of this API key no longer exists');
    }
    throw error;
  }
}

export async function findDialogue(
  db: Executor,
  projectId: string,
  id: string,
): Promise<DialogueRow | undefined> {
  const [row] = await db
    .select(recordColumns)
    .from(dialogues)
    .where(byId(projectId, id))
    // Every message read runs it: prepared once per connection (src/db/prepared.ts says why).
    .prepare('parley_find_dialogue')
    .execute();
  return row;
}

/** Dialogues by id, for search results. */
export async function findDialogues(db: Executor, projectId: string, ids: string[]): Promise<DialogueRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(recordColumns)
    .from(dialogues)
    .where(and(eq(dialogues.projectId, projectId), inArray(dialogues.id, ids)));
}

/** Reads the dialogue and locks its row until the transaction ends: writers of one dialogue queue here. */
export async function lockDialogue(
  tx: Executor,
  projectId: string,
  id: string,
): Promise<DialogueRow | undefined> {
  const [row] = await tx.select(recordColumns).from(dialogues).where(byId(projectId, id)).for('update');
  return row;
}

export async function updateDialogue(
  tx: Executor,
  projectId: string,
  id: string,
  changes: Partial<typeof dialogues.$inferInsert>,
): Promise<DialogueRow> {
  const [row] = await tx
    .update(dialogues)
    .set({ ...changes, modified: changeTime })
    .where(byId(projectId, id))
    .returning(recordColumns);
  return row!;
}

/** Moves a parent's thread count; false when the parent does not exist in the project. */
export async function changeThreadCount(
  tx: Executor,
  projectId: string,
  id: string,
  by: number,
): Promise<boolean> {
  const rows = await tx
    .update(dialogues)
    .set({ threadCount: sql`${dialogues.threadCount} + ${by}` })
    .where(byId(projectId, id))
    .returning({ id: dialogues.id });
  return rows.length === 1;
}

/**
 * D23: a deleted dialogue's threads live on as independent dialogues. Runs in the deleting
 * transaction before the delete, whose foreign key would otherwise refuse it (the key has no
 * ON DELETE action: Citus refuses SET NULL on it, docs/scaling.md).
 */
export async function clearThreadLinks(tx: Executor, projectId: string, parentId: string): Promise<void> {
  // The parent's row lock first: a thread is created under that lock (changeThreadCount), so no
  // new thread can appear between the clearing and the delete.
  await tx.select({ id: dialogues.id }).from(dialogues).where(byId(projectId, parentId)).for('update');
  await tx
    .update(dialogues)
    .set({ threadOf: null })
    .where(and(eq(dialogues.projectId, projectId), eq(dialogues.threadOf, parentId)));
}

/** D23: messages go with the dialogue (cascade); its threads' links are cleared first (clearThreadLinks). */
export async function deleteDialogue(tx: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await tx.delete(dialogues).where(byId(projectId, id)).returning({ id: dialogues.id });
  return rows.length === 1;
}

export interface DialogueFilter {
  namespace?: string;
  threadOf?: string;
  threadsOnly: boolean;
  status?: 'active' | 'ended' | 'canceled' | 'expired' | 'deleted';
  tags: string[];
  createdFrom?: Date;
  createdBefore?: Date;
  ttlSeconds: number | null;
  order: 'asc' | 'desc';
  limit: number;
  after?: { created: string; id: string };
}

/** D24: past its TTL since the last change, an active dialogue shows as expired. */
function expiredCondition(ttlSeconds: number | null): SQL {
  if (ttlSeconds === null) return sql`false`;
  return sql`${dialogues.modified} < now() - make_interval(secs => ${ttlSeconds})`;
}

/** D26: one page, keyset-paginated on (created, id). */
export async function listDialogues(
  db: Executor,
  projectId: string,
  filter: DialogueFilter,
): Promise<DialogueRow[]> {
  const conditions: (SQL | undefined)[] = [eq(dialogues.projectId, projectId)];
  if (filter.namespace !== undefined) conditions.push(eq(dialogues.namespace, filter.namespace));
  if (filter.threadOf !== undefined) conditions.push(eq(dialogues.threadOf, filter.threadOf));
  if (filter.threadsOnly) conditions.push(isNotNull(dialogues.threadOf));
  if (filter.status === 'expired') {
    conditions.push(eq(dialogues.status, 'active'), expiredCondition(filter.ttlSeconds));
  } else if (filter.status === 'active') {
    conditions.push(eq(dialogues.status, 'active'), sql`not (${expiredCondition(filter.ttlSeconds)})`);
  } else if (filter.status !== undefined) {
    conditions.push(eq(dialogues.status, filter.status));
  }
  if (filter.tags.length > 0) conditions.push(arrayContains(dialogues.tags, filter.tags));
  if (filter.createdFrom) conditions.push(gte(dialogues.created, filter.createdFrom));
  if (filter.createdBefore) conditions.push(lt(dialogues.created, filter.createdBefore));
  const after = filter.after && { created: filter.after.created, tiebreak: filter.after.id };
  const page = keysetPage(dialogues.created, dialogues.id, after, filter.order);
  return db
    .select(recordColumns)
    .from(dialogues)
    .where(and(...conditions, page.beyond))
    .orderBy(...page.orderBy)
    .limit(filter.limit);
}
