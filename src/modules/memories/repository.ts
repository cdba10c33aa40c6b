import { type SQL, and, arrayContains, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { keysetPage } from '../../db/keyset.js';
import { memories } from '../../db/schema.js';

type MemoryRow = typeof memories.$inferSelect;

/** The columns of a memory record: never the vector, which is large and internal. */
export const recordColumns = {
  projectId: memories.projectId,
  id: memories.id,
  namespace: memories.namespace,
  label: memories.label,
  description: memories.description,
  value: memories.value,
  tags: memories.tags,
  metadata: memories.metadata,
  created: memories.created,
  modified: memories.modified,
};

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
  return inserted;
}

function byId(projectId: string, id: string, namespace?: string): SQL {
  return and(
    eq(memories.projectId, projectId),
    eq(memories.id, id),
    namespace === undefined ? undefined : eq(memories.namespace, namespace),
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
  },
): Promise<MemoryRecordRow | undefined> {
  const [row] = await db
    .update(memories)
    .set({ ...changes, modified: sql`now()` })
    .where(byId(projectId, id, namespace))
    .returning(recordColumns);
  return row;
}

export async function deleteMemory(
  db: Executor,
  projectId: string,
  id: string,
  namespace?: string,
): Promise<{ namespace: string | null } | undefined> {
  const [row] = await db
    .delete(memories)
    .where(byId(projectId, id, namespace))
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

export async function listMemories(
  db: Executor,
  projectId: string,
  filter: MemoryListFilter,
): Promise<MemoryRecordRow[]> {
  const after = filter.after && { created: filter.after.created, tiebreak: filter.after.id };
  const page = keysetPage(memories.created, memories.id, after, filter.order);
  return db
    .select(recordColumns)
    .from(memories)
    .where(
      and(
        eq(memories.projectId, projectId),
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
    .where(and(eq(memories.projectId, projectId), inArray(memories.id, ids)));
}
