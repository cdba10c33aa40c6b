import { type SQL, and, arrayContains, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import {
  type NamespaceScope,
  type RuleRows,
  inNamespaceScope,
  pastExpiry,
  rowsByTime,
} from '../../db/retention-sql.js';
import { liveMemory } from './expiry-sql.js';
import type { Executor } from '../../db/client.js';
import { keysetPage } from '../../db/keyset.js';
import { memories } from '../../db/schema.js';
import { notErasing } from '../erasures/erasing-sql.js';
import { recordColumns } from './record-sql.js';
import { countTexts, uncountStored } from '../search/terms-sql.js';

type MemoryRow = typeof memories.$inferSelect;

/** The columns of a memory record: never the vector, which is large and internal. */

export type MemoryRecordRow = Pick<MemoryRow, keyof typeof recordColumns>;

/** The new memory, or undefined when its id is taken (D57: client-given ids). */
export async function insertMemory(
  db: Executor,
  row: typeof memories.$inferInsert,
): Promise<MemoryRecordRow | undefined> {
  const [inserted] = await db
    .insert(memories)
    .values(row)
    .onConflictDoNothing({ target: [memories.projectId, memories.id] })
    .returning(recordColumns);
  // D140: its words join the search's counts.
  if (inserted)
    await countTexts(db, row.projectId, 'memory', [
      { namespace: row.namespace ?? null, bucketKey: row.id, text: row.searchText ?? '' },
    ]);
  return inserted;
}

/** D163: a memory of a namespace whose erasure is pending is gone for reads and writes. */
const visible = notErasing(memories.projectId, memories.namespace);

/** D150: a memory past its `expiresAt` is not found, whatever the request. */
function byId(projectId: string, id: string, namespace?: string): SQL {
  return and(
    eq(memories.projectId, projectId),
    eq(memories.id, id),
    visible,
    namespace === undefined ? undefined : eq(memories.namespace, namespace),
    liveMemory,
  )!;
}

export async function findMemory(
  db: Executor,
  projectId: string,
  id: string,
  namespace?: string,
): Promise<MemoryRecordRow | undefined> {
  const [row] = await db
    .select(recordColumns)
    .from(memories)
    .where(byId(projectId, id, namespace));
  return row;
}

/** The memory, its row locked until the transaction ends (an update recomputes its search text). */
export async function lockMemory(
  tx: Executor,
  projectId: string,
  id: string,
  namespace?: string,
): Promise<MemoryRecordRow | undefined> {
  const [row] = await tx
    .select(recordColumns)
    .from(memories)
    .where(byId(projectId, id, namespace))
    .for('update');
  return row;
}

export async function updateMemory(
  db: Executor,
  projectId: string,
  id: string,
  namespace: string | undefined,
  changes: {
    tags?: string[];
    value?: string;
    label?: string | null;
    description?: string | null;
    searchText?: string;
    expiresAt?: Date | null;
  },
): Promise<MemoryRecordRow | undefined> {
  const { searchText } = changes;
  // D140: the words the search counts follow the text.
  if (searchText !== undefined) await uncountStored(db, 'memory', projectId, id);
  const [row] = await db
    .update(memories)
    .set({ ...changes, modified: sql`now()` })
    .where(byId(projectId, id, namespace))
    .returning(recordColumns);
  if (row && searchText !== undefined)
    await countTexts(db, projectId, 'memory', [
      { namespace: row.namespace, bucketKey: id, text: searchText },
    ]);
  return row;
}

/** Deletes a memory; `evenExpired` for its erasure by the sweeper (D150), which alone reaches expired ones. */
export async function deleteMemory(
  db: Executor,
  projectId: string,
  id: string,
  { namespace, evenHidden = false }: { namespace?: string; evenHidden?: boolean },
): Promise<{ namespace: string | null } | undefined> {
  await uncountStored(db, 'memory', projectId, id);
  const [row] = await db
    .delete(memories)
    .where(
      evenHidden
        ? and(eq(memories.projectId, projectId), eq(memories.id, id))
        : byId(projectId, id, namespace),
    )
    .returning({ namespace: memories.namespace });
  return row;
}

export interface MemoryListFilter {
  namespace?: string;
  label?: string;
  tags: string[];
  /** D58: creation times from `createdFrom` (included) to `createdBefore` (excluded). */
  createdFrom?: Date;
  createdBefore?: Date;
  order: 'asc' | 'desc';
  limit: number;
  /** Keyset position: the (created, id) of the last item of the previous page. */
  after?: { created: string; id: string };
}

export function listMemories(db: Executor, projectId: string, filter: MemoryListFilter) {
  const after = filter.after && { created: filter.after.created, tiebreak: filter.after.id };
  const page = keysetPage(memories.created, memories.id, after, filter.order);
  return db
    .select(recordColumns)
    .from(memories)
    .where(
      and(
        eq(memories.projectId, projectId),
        liveMemory,
        visible,
        filter.namespace === undefined ? undefined : eq(memories.namespace, filter.namespace),
        filter.label === undefined ? undefined : eq(memories.label, filter.label),
        filter.tags.length > 0 ? arrayContains(memories.tags, filter.tags) : undefined,
        filter.createdFrom ? gte(memories.created, filter.createdFrom) : undefined,
        filter.createdBefore ? lt(memories.created, filter.createdBefore) : undefined,
        page.beyond,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(filter.limit);
}

export async function findMemories(
  db: Executor,
  projectId: string,
  ids: string[],
): Promise<MemoryRecordRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(recordColumns)
    .from(memories)
    .where(and(eq(memories.projectId, projectId), inArray(memories.id, ids), liveMemory, visible));
}

/** D150: the project's memories past their `expiresAt`, oldest expiry first. */
export const expiredRows = (projectId: string): RuleRows<string> => pastExpiry(memories, projectId);

/** D151: live memories of the scope not updated since `before`, least recent first. */
export const staleRows = (projectId: string, scope: NamespaceScope, before: Date): RuleRows<string> =>
  rowsByTime(
    memories,
    memories.modified,
    and(
      eq(memories.projectId, projectId),
      inNamespaceScope(memories.namespace, scope),
      lt(memories.modified, before),
      liveMemory,
    ),
  );

/** D162: the ids of up to `limit` memories of a namespace whose erasure is pending (reads no longer see them). */
export async function namespaceMemoryIds(
  db: Executor,
  projectId: string,
  namespace: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: memories.id })
    .from(memories)
    .where(and(eq(memories.projectId, projectId), eq(memories.namespace, namespace)))
    .limit(limit);
  return rows.map((row) => row.id);
}
