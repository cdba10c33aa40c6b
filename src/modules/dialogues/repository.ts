import {
  type Placeholder,
  type SQL,
  and,
  arrayContains,
  eq,
  gte,
  inArray,
  isNotNull,
  lt,
  sql,
} from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { keysetPage } from '../../db/keyset.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { builtOnce } from '../../db/prepared.js';
import { dialogues } from '../../db/schema.js';
import { AppError } from '../../core/errors.js';
import { changeTime } from './change-time-sql.js';
import { liveDialogue } from './expiry-sql.js';
import { notErasing } from '../erasures/erasing-sql.js';
import { recordColumns } from './record-sql.js';
import {
  type NamespaceScope,
  type RuleRows,
  inNamespaceScope,
  pastExpiry,
  rowsByTime,
} from '../../db/retention-sql.js';
import { countTexts, uncountDialogue, uncountStored } from '../search/terms-sql.js';

// Drizzle queries of the dialogues table. Every query names project_id first (D46, D49).

/** The columns a record is made of (the search vector and embedding stay in the database). */

export type DialogueRow = {
  [K in keyof typeof recordColumns]: (typeof dialogues.$inferSelect)[K];
};

/** D150: a dialogue past its `expiresAt` is not found, whatever the request. */
const byId = (projectId: string | Placeholder, id: string | Placeholder) =>
  and(eq(dialogues.projectId, projectId), eq(dialogues.id, id), liveDialogue);

/** The row whether expired or not: only erasure reaches an expired dialogue (D150). */
const anyById = (projectId: string, id: string) =>
  and(eq(dialogues.projectId, projectId), eq(dialogues.id, id));

/** D163: a dialogue of a namespace whose erasure is pending is gone for reads and writes. */
const visible = notErasing(dialogues.projectId, dialogues.namespace);

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
    // D140: its words join the search's counts.
    if (inserted)
      await countTexts(tx, row.projectId, 'dialogue', [
        { namespace: row.namespace ?? null, bucketKey: row.id, text: row.searchText ?? '' },
      ]);
    return inserted;
  } catch (error) {
    // The project was deleted after the request was authenticated.
    if (isForeignKeyViolation(error, 'dialogues_project_id_projects_id_fk')) {
      throw new AppError('PROJECT_NOT_FOUND', 'The project of this API key no longer exists');
    }
    throw error;
  }
}

/** Every message read runs it (src/db/prepared.ts, builtOnce). */
export const findDialogueQuery = builtOnce((db) =>
  db
    .select(recordColumns)
    .from(dialogues)
    .where(and(byId(sql.placeholder('projectId'), sql.placeholder('id')), visible))
    .prepare('parley_find_dialogue'),
);

export async function findDialogue(
  db: Executor,
  projectId: string,
  id: string,
): Promise<DialogueRow | undefined> {
  const [row] = await findDialogueQuery(db).execute({ projectId, id });
  return row;
}

/** Dialogues by id, for search results. */
export async function findDialogues(db: Executor, projectId: string, ids: string[]): Promise<DialogueRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(recordColumns)
    .from(dialogues)
    .where(and(eq(dialogues.projectId, projectId), inArray(dialogues.id, ids), liveDialogue, visible));
}

/**
 * Reads the dialogue and locks its row until the transaction ends: writers of one dialogue queue
 * here. D160: a fork takes a share lock instead: appends and deletions (which update the row) wait,
 * other forks of it do not.
 */
export async function lockDialogue(
  tx: Executor,
  projectId: string,
  id: string,
  strength: 'update' | 'share' = 'update',
): Promise<DialogueRow | undefined> {
  const [row] = await tx
    .select(recordColumns)
    .from(dialogues)
    .where(and(byId(projectId, id), visible))
    .for(strength);
  return row;
}

/**
 * D150, D151: the dialogue to erase, expired or not; undefined when it is gone. Read without a
 * lock, as a client's delete reads it: the erasure takes its locks parent first (see `remove`).
 */
export async function findForErasure(
  tx: Executor,
  projectId: string,
  id: string,
): Promise<DialogueRow | undefined> {
  const [row] = await tx.select(recordColumns).from(dialogues).where(anyById(projectId, id));
  return row;
}

export async function updateDialogue(
  tx: Executor,
  projectId: string,
  id: string,
  changes: Partial<typeof dialogues.$inferInsert>,
): Promise<DialogueRow> {
  const { searchText } = changes;
  // D140: the words the search counts follow the text.
  if (searchText !== undefined) await uncountStored(tx, 'dialogue', projectId, id);
  const [row] = await tx
    .update(dialogues)
    .set({ ...changes, modified: changeTime })
    .where(anyById(projectId, id))
    .returning(recordColumns);
  if (row && searchText !== undefined) {
    await countTexts(tx, projectId, 'dialogue', [
      { namespace: row.namespace, bucketKey: id, text: searchText },
    ]);
  }
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
  await tx.select({ id: dialogues.id }).from(dialogues).where(anyById(projectId, parentId)).for('update');
  await tx
    .update(dialogues)
    .set({ threadOf: null })
    .where(and(eq(dialogues.projectId, projectId), eq(dialogues.threadOf, parentId)));
}

/** D23: messages go with the dialogue (cascade); its threads' links are cleared first (clearThreadLinks). */
export async function deleteDialogue(tx: Executor, projectId: string, id: string): Promise<boolean> {
  await uncountDialogue(tx, projectId, id);
  const rows = await tx.delete(dialogues).where(anyById(projectId, id)).returning({ id: dialogues.id });
  return rows.length === 1;
}

/**
 * D162: up to `limit` dialogues of a namespace, oldest first. Not hidden by the pending erasure
 * (visible below): the erasure itself reads them.
 */
export async function namespaceDialogues(
  tx: Executor,
  projectId: string,
  namespace: string,
  limit: number,
): Promise<DialogueRow[]> {
  return tx
    .select(recordColumns)
    .from(dialogues)
    .where(and(eq(dialogues.projectId, projectId), eq(dialogues.namespace, namespace)))
    .orderBy(dialogues.created, dialogues.id)
    .limit(limit);
}

export interface DialogueFilter {
  namespace?: string;
  threadOf?: string;
  /** D160: forks of this dialogue only. */
  forkedFrom?: string;
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
export function listDialogues(db: Executor, projectId: string, filter: DialogueFilter) {
  const conditions: (SQL | undefined)[] = [eq(dialogues.projectId, projectId), liveDialogue, visible];
  if (filter.namespace !== undefined) conditions.push(eq(dialogues.namespace, filter.namespace));
  if (filter.threadOf !== undefined) conditions.push(eq(dialogues.threadOf, filter.threadOf));
  if (filter.forkedFrom !== undefined) conditions.push(eq(dialogues.forkedFromDialogueId, filter.forkedFrom));
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

/** D150: the project's dialogues past their `expiresAt`, oldest expiry first. */
export const expiredRows = (projectId: string): RuleRows<string> => pastExpiry(dialogues, projectId);

/** D151: live dialogues of the scope whose last change is before `before`, least recent first. */
export const idleRows = (projectId: string, scope: NamespaceScope, before: Date): RuleRows<string> =>
  rowsByTime(
    dialogues,
    dialogues.modified,
    and(
      eq(dialogues.projectId, projectId),
      inNamespaceScope(dialogues.namespace, scope),
      lt(dialogues.modified, before),
      liveDialogue,
    ),
  );
