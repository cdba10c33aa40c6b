import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../core/errors.js';
import { decodeCursor, encodeCursor } from '../../core/cursor.js';
import { newId } from '../../lib/ids.js';
import { deleteEmbeddingJob, enqueueEmbedding } from '../embeddings/repository.js';
import * as repo from './repository.js';
import type { CreateMemoryInput, ListMemoriesQuery, MemoryView, UpdateMemoryInput } from './schemas.js';

const CURSOR_KIND = 'mem';

export const toMemoryView = (row: repo.MemoryRecordRow): MemoryView => ({
  id: row.id,
  projectId: row.projectId,
  namespace: row.namespace,
  label: row.label,
  value: row.value,
  tags: row.tags,
  metadata: row.metadata ?? null,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

// D38: an unknown id, a foreign project's id and (when a namespace is given) another namespace's
// id all look the same (D46).
const notFound = (id: string) => new AppError('MEMORY_NOT_FOUND', `Memory ${id} not found`);

export function createMemoryService(db: Database) {
  return {
    /** D37. The embedding job is enqueued in the same transaction (D40). */
    async createMemory(tx: Executor, projectId: string, input: CreateMemoryInput): Promise<MemoryView> {
      const row = await repo.insertMemory(tx, {
        projectId,
        id: newId('mem'),
        namespace: input.namespace ?? null,
        label: input.label ?? null,
        value: input.value,
        tags: input.tags ?? [],
        metadata: input.metadata ?? null,
      });
      await enqueueEmbedding(tx, { projectId, objectType: 'memory', objectId: row.id });
      return toMemoryView(row);
    },

    async getMemory(projectId: string, id: string, namespace?: string): Promise<MemoryView> {
      const row = await repo.findMemory(db, projectId, id, namespace);
      if (!row) throw notFound(id);
      return toMemoryView(row);
    },

    /** D38: tags replace; value and label change too, and a changed text is embedded again. */
    async updateMemory(
      tx: Executor,
      projectId: string,
      id: string,
      namespace: string | undefined,
      input: UpdateMemoryInput,
    ): Promise<MemoryView> {
      if (input.tags === undefined && input.value === undefined && input.label === undefined) {
        throw new AppError('MISSING_PARAMETER', 'Give at least one of tags, value, label', [
          { field: 'tags', code: 'MISSING_PARAMETER', message: 'one of tags, value, label is required' },
        ]);
      }
      const row = await repo.updateMemory(tx, projectId, id, namespace, input);
      if (!row) throw notFound(id);
      if (input.value !== undefined || input.label !== undefined) {
        await enqueueEmbedding(tx, { projectId, objectType: 'memory', objectId: id });
      }
      return toMemoryView(row);
    },

    /** The vector lives in the row and goes with it; the pending job is removed alongside. */
    async deleteMemory(tx: Executor, projectId: string, id: string, namespace?: string) {
      if (!(await repo.deleteMemory(tx, projectId, id, namespace))) throw notFound(id);
      await deleteEmbeddingJob(tx, { projectId, objectType: 'memory', objectId: id });
      return { success: true, id };
    },

    /** Records of found memories, for search results. */
    async loadMemories(projectId: string, ids: string[]): Promise<MemoryView[]> {
      return (await repo.findMemories(db, projectId, ids)).map(toMemoryView);
    },

    async listMemories(projectId: string, query: ListMemoriesQuery) {
      let after: { created: string; id: string } | undefined;
      if (query.next) {
        const [created, id] = decodeCursor(CURSOR_KIND, query.next);
        if (typeof created !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(created))) {
          throw new AppError('INVALID_PARAMETER', 'next: not a cursor returned by this list', [
            { field: 'next', code: 'INVALID_PARAMETER', message: 'not a cursor returned by this list' },
          ]);
        }
        after = { created, id };
      }
      // One row more than asked tells whether another page exists.
      const rows = await repo.listMemories(db, projectId, {
        namespace: query.namespace,
        label: query.label,
        tags: query.tag,
        order: query.order,
        limit: query.limit + 1,
        after,
      });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      const next =
        rows.length > query.limit && last
          ? encodeCursor(CURSOR_KIND, [last.created.toISOString(), last.id])
          : null;
      return { items: page.map(toMemoryView), next };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
