import type { ProjectContext } from '../../core/context.js';
import { keysetCursor } from '../../core/cursor.js';
import { AppError, memoryNotFound } from '../../core/errors.js';
import { memoryRef } from '../../core/object-refs.js';
import type { Database, Executor } from '../../db/client.js';
import type { StoredResponses } from '../../db/idempotency-store.js';
import { newId } from '../../lib/ids.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import { deletionEvent, memoryEvent } from '../events/records.js';
import { toMemoryView } from './records.js';
import * as repo from './repository.js';
import type { CreateMemoryInput, ListMemoriesQuery, MemoryView, UpdateMemoryInput } from './schemas.js';

// The rules of memories (D37, D38) as plain functions; REST and MCP both call them.

export interface MemoryServiceDeps {
  /** Where reads go: the replica when READ_DATABASE_URL is set. */
  readDb: Database;
  embeddingQueue: Pick<EmbeddingQueue, 'enqueue' | 'forget'>;
  storedResponses: Pick<StoredResponses, 'erase'>;
  /** D63, D70: each change writes its event; a deletion empties the memory's earlier events. */
  events: Pick<EventOutbox, 'record' | 'eraseMemory'>;
}

/** Keyset position (created, id). */
const cursor = keysetCursor('mem', ['date', 'string'], (row: repo.MemoryRecordRow) => [
  row.created.toISOString(),
  row.id,
]);

export function createMemoryService({ readDb, embeddingQueue, storedResponses, events }: MemoryServiceDeps) {
  return {
    /** D37. The embedding job is enqueued in the same transaction (D40). */
    async create(tx: Executor, { projectId }: ProjectContext, input: CreateMemoryInput): Promise<MemoryView> {
      const row = await repo.insertMemory(tx, {
        projectId,
        id: newId('mem'),
        namespace: input.namespace ?? null,
        label: input.label ?? null,
        value: input.value,
        tags: input.tags ?? [],
        metadata: input.metadata ?? null,
      });
      await embeddingQueue.enqueue(tx, { projectId, objectType: 'memory', objectId: row.id });
      const view = toMemoryView(row);
      await events.record(tx, projectId, [memoryEvent('memory.created', view)]);
      return view;
    },

    /** D38: a memory of another namespace (when one is given) answers like a missing one (D46). */
    async get({ projectId }: ProjectContext, id: string, namespace?: string): Promise<MemoryView> {
      const row = await repo.findMemory(readDb, projectId, id, namespace);
      if (!row) throw memoryNotFound(id);
      return toMemoryView(row);
    },

    /** D38: tags replace; value and label change too, and a changed text is embedded again. */
    async update(
      tx: Executor,
      { projectId }: ProjectContext,
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
      if (!row) throw memoryNotFound(id);
      if (input.value !== undefined || input.label !== undefined) {
        await embeddingQueue.enqueue(tx, { projectId, objectType: 'memory', objectId: id });
      }
      const view = toMemoryView(row);
      await events.record(tx, projectId, [memoryEvent('memory.updated', view)]);
      return view;
    },

    /** The vector lives in the row and goes with it; the pending job is removed alongside. */
    async remove(tx: Executor, { projectId }: ProjectContext, id: string, namespace?: string) {
      const deleted = await repo.deleteMemory(tx, projectId, id, namespace);
      if (!deleted) throw memoryNotFound(id);
      await embeddingQueue.forget(tx, { projectId, objectType: 'memory', objectId: id });
      // D73: stored responses that carried the memory become tombstones, and so do its events (D70).
      await storedResponses.erase(tx, projectId, [memoryRef(id)]);
      await events.eraseMemory(tx, projectId, id);
      await events.record(tx, projectId, [
        deletionEvent('memory.deleted', { id, namespace: deleted.namespace }),
      ]);
      return { success: true, id };
    },

    async list({ projectId }: ProjectContext, query: ListMemoriesQuery) {
      const position = query.next ? cursor.decode(query.next) : undefined;
      // One row more than asked tells whether another page exists.
      const rows = await repo.listMemories(readDb, projectId, {
        namespace: query.namespace,
        label: query.label,
        tags: query.tag,
        order: query.order,
        limit: query.limit + 1,
        after: position && { created: position[0], id: position[1] },
      });
      const { page, next } = cursor.page(rows, query.limit);
      return { items: page.map(toMemoryView), next };
    },

    /** Records of found memories, for search results (read from the read database). */
    async searchItems({ projectId }: ProjectContext, ids: string[]): Promise<MemoryView[]> {
      return (await repo.findMemories(readDb, projectId, ids)).map(toMemoryView);
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
