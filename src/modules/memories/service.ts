import type { ProjectContext } from '../../core/context.js';
import { createdRange } from '../../core/created-range.js';
import { keysetCursor } from '../../core/cursor.js';
import { AppError, memoryNotFound } from '../../core/errors.js';
import { memoryRef } from '../../core/object-refs.js';
import type { Database, Executor } from '../../db/client.js';
import type { StoredResponses } from '../../db/idempotency-store.js';
import { newId } from '../../lib/ids.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import { type DeletionReason, deletionEvent, memoryEvent } from '../events/records.js';
import { memorySearchText, toMemoryView } from './records.js';
import type { NamespaceGate } from '../erasures/gate.js';
import * as repo from './repository.js';
import type { RawJson } from '../../core/raw-json.js';
import type { CreateMemoryBody, ListMemoriesQuery, MemoryView, UpdateMemoryBody } from './schemas.js';

// The rules of memories (D37, D38, D57) as plain functions; REST and MCP both call them.

/** A memory to create, its value as the exact JSON text the client sent (D57, D28). */
export type CreateMemoryInput = Omit<CreateMemoryBody, 'value'> & { value: RawJson };
export type UpdateMemoryInput = Omit<UpdateMemoryBody, 'value'> & { value?: RawJson };

/** D57: a string by its UTF-8 bytes, any other value by the bytes of its JSON text as sent. */
const MAX_VALUE_BYTES = 65_536;

function refuseValue(message: string): never {
  throw new AppError('INVALID_INPUT', `value: ${message}`, [
    { field: 'value', code: 'INVALID_INPUT', message },
  ]);
}

/** D57: the value parsed, once it is known to be neither null nor empty and to fit. */
function checkedValue(value: RawJson): unknown {
  const parsed = value.parse();
  const empty =
    parsed === null ||
    parsed === '' ||
    (Array.isArray(parsed)
      ? parsed.length === 0
      : typeof parsed === 'object' && Object.keys(parsed).length === 0);
  if (empty) refuseValue('must not be null or empty ("", [], {})');
  const bytes = Buffer.byteLength(typeof parsed === 'string' ? parsed : value.text, 'utf8');
  if (bytes > MAX_VALUE_BYTES) refuseValue(`must be at most ${MAX_VALUE_BYTES} bytes (it has ${bytes})`);
  return parsed;
}

export interface MemoryServiceDeps {
  /** Where reads go: the replica when READ_DATABASE_URL is set. */
  readDb: Database;
  embeddingQueue: Pick<EmbeddingQueue, 'enqueue' | 'forget'>;
  storedResponses: Pick<StoredResponses, 'erase'>;
  /** D63, D70: each change writes its event; a deletion empties the memory's earlier events. */
  outbox: Pick<EventOutbox, 'record' | 'eraseMemory'>;
  /** D163: no memory is created in a namespace being erased. */
  namespaceGate: NamespaceGate;
}

/** Keyset position (created, id). */
const cursor = keysetCursor('mem', ['date', 'string'], (row: repo.MemoryRecordRow) => [
  row.created.toISOString(),
  row.id,
]);

const expiryOf = (expiresAt: string | null | undefined) =>
  expiresAt === undefined ? undefined : expiresAt === null ? null : new Date(expiresAt);

export function createMemoryService({
  readDb,
  embeddingQueue,
  storedResponses,
  outbox,
  namespaceGate,
}: MemoryServiceDeps) {
  /**
   * D73: a memory's row, vector, pending job, stored responses and earlier events go, for a
   * delete, a retention or expiry sweep (D151, D153: `reason`) and a namespace's erasure (D162)
   * alike. `evenHidden` reaches a memory that reads no longer see (expired, or of a namespace being
   * erased). False when it was gone already.
   */
  async function erase(
    tx: Executor,
    projectId: string,
    id: string,
    where: { namespace?: string; evenHidden?: boolean },
    reason?: DeletionReason,
  ): Promise<boolean> {
    const deleted = await repo.deleteMemory(tx, projectId, id, where);
    if (!deleted) return false;
    await embeddingQueue.forget(tx, { projectId, objectType: 'memory', objectId: id });
    // D73: stored responses that carried the memory become tombstones, and so do its events (D70).
    await storedResponses.erase(tx, projectId, [memoryRef(id)]);
    await outbox.eraseMemory(tx, projectId, id);
    await outbox.record(tx, projectId, [
      deletionEvent('memory.deleted', { id, namespace: deleted.namespace }, reason),
    ]);
    return true;
  }

  return {
    /** D37, D57. The embedding job is enqueued in the same transaction (D40). */
    async create(tx: Executor, { projectId }: ProjectContext, input: CreateMemoryInput): Promise<MemoryView> {
      const value = checkedValue(input.value);
      await namespaceGate.refuseIfErasing(tx, projectId, input.namespace);
      const id = input.id ?? newId('mem');
      const label = input.label ?? null;
      const description = input.description ?? null;
      const row = await repo.insertMemory(tx, {
        projectId,
        id,
        namespace: input.namespace ?? null,
        label,
        description,
        value: input.value.text,
        tags: input.tags ?? [],
        metadata: input.metadata ?? null,
        expiresAt: expiryOf(input.expiresAt) ?? null,
        searchText: memorySearchText(label, description, value),
      });
      // D57: a taken id (a retried create, or another memory's) stores nothing.
      if (!row) {
        throw new AppError('DUPLICATE_ID', `A memory with id ${id} already exists`, [
          { field: 'id', code: 'DUPLICATE_ID', message: 'already exists in this project' },
        ]);
      }
      await embeddingQueue.enqueue(tx, { projectId, objectType: 'memory', objectId: row.id });
      const view = toMemoryView(row);
      await outbox.record(tx, projectId, [memoryEvent('memory.created', view)]);
      return view;
    },

    /** D38: a memory of another namespace (when one is given) answers like a missing one (D46). */
    async get({ projectId }: ProjectContext, id: string, namespace?: string): Promise<MemoryView> {
      const row = await repo.findMemory(readDb, projectId, id, namespace);
      if (!row) throw memoryNotFound(id);
      return toMemoryView(row);
    },

    /** D38: tags replace; value, label and description change too, and a changed text is embedded again. */
    async update(
      tx: Executor,
      { projectId }: ProjectContext,
      id: string,
      namespace: string | undefined,
      input: UpdateMemoryInput,
    ): Promise<MemoryView> {
      const { tags, value, label, description, expiresAt } = input;
      if (
        tags === undefined &&
        value === undefined &&
        label === undefined &&
        description === undefined &&
        expiresAt === undefined
      ) {
        throw new AppError(
          'MISSING_PARAMETER',
          'Give at least one of tags, value, label, description, expiresAt',
          [
            {
              field: 'tags',
              code: 'MISSING_PARAMETER',
              message: 'one of tags, value, label, description, expiresAt is required',
            },
          ],
        );
      }
      const parsed = value === undefined ? undefined : checkedValue(value);
      const current = await repo.lockMemory(tx, projectId, id, namespace);
      if (!current) throw memoryNotFound(id);
      const textChanged = value !== undefined || label !== undefined || description !== undefined;
      const row = await repo.updateMemory(tx, projectId, id, namespace, {
        tags,
        value: value?.text,
        label,
        description,
        expiresAt: expiryOf(expiresAt),
        searchText: textChanged
          ? memorySearchText(
              label === undefined ? current.label : label,
              description === undefined ? current.description : description,
              value === undefined ? JSON.parse(current.value) : parsed,
            )
          : undefined,
      });
      if (!row) throw memoryNotFound(id);
      if (textChanged) {
        await embeddingQueue.enqueue(tx, { projectId, objectType: 'memory', objectId: id });
      }
      const view = toMemoryView(row);
      await outbox.record(tx, projectId, [memoryEvent('memory.updated', view)]);
      return view;
    },

    /** The vector lives in the row and goes with it; the pending job is removed alongside. */
    async remove(tx: Executor, { projectId }: ProjectContext, id: string, namespace?: string) {
      if (!(await erase(tx, projectId, id, { namespace }))) throw memoryNotFound(id);
      return { success: true, id };
    },

    /** D151, D153: the same erasure for a memory a retention rule or its expiry removes; false when gone. */
    retire: (tx: Executor, projectId: string, id: string, reason: DeletionReason) =>
      erase(tx, projectId, id, { evenHidden: true }, reason),

    /** D150, D151: the memories expiry and the memory rule cover (the sweep's batches, the preview's spans). */
    expiredRows: repo.expiredRows,
    staleRows: repo.staleRows,

    /** D162: erases up to `limit` memories of a namespace being erased, as a deletion does; how many. */
    async eraseNamespaceBatch(tx: Executor, projectId: string, namespace: string, limit: number) {
      let erased = 0;
      for (const id of await repo.namespaceMemoryIds(tx, projectId, namespace, limit)) {
        if (await erase(tx, projectId, id, { evenHidden: true })) erased++;
      }
      return erased;
    },

    async list({ projectId }: ProjectContext, query: ListMemoriesQuery) {
      const position = query.next ? cursor.decode(query.next) : undefined;
      const range = createdRange(query);
      // One row more than asked tells whether another page exists.
      const rows = await repo.listMemories(readDb, projectId, {
        namespace: query.namespace,
        label: query.label,
        tags: query.tag,
        createdFrom: range.from,
        createdBefore: range.before,
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
