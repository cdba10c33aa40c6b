import type { ProjectContext } from '../../core/context.js';
import { createdRange } from '../../core/created-range.js';
import { keysetCursor } from '../../core/cursor.js';
import { AppError, dialogueNotFound } from '../../core/errors.js';
import { MAX_STATE_BYTES, jsonBytes } from '../../core/fields.js';
import { dialogueRef } from '../../core/object-refs.js';
import type { Database, Executor } from '../../db/client.js';
import type { StoredResponses } from '../../db/idempotency-store.js';
import { newId } from '../../lib/ids.js';
import { mergeObjectPatch } from '../../lib/merge-patch.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import { type DeletionReason, type EventType, deletionEvent, dialogueEvent } from '../events/records.js';
import { assertMessageCount } from '../messages/append.js';
import { assertAcceptsMessages, refuseIfImmutable } from './rules.js';
import type { FieldedInput } from '../messages/records.js';
import type { MessageService } from '../messages/service.js';
import { parseDateFilter } from './date-filter.js';
import { dialogueScope } from './scope.js';
import {
  type DialogueRecord,
  type DialogueWithMessages,
  dialogueSearchText,
  toDialogueRecord,
  withMessages,
} from './records.js';
import type { NamespaceGate } from '../erasures/gate.js';
import * as repo from './repository.js';
import { type ForkDialogueInput, type ListDialoguesQuery, MAX_DIALOGUE_MESSAGES } from './schemas.js';

// The rules of dialogues (D15-D26) as plain functions; REST and MCP both call them.

/** D164: messages one batch of a namespace erasure deletes at most (unless one dialogue has more). */
const ERASE_BATCH_MESSAGES = 5_000;

/** D18: how many messages a dialogue get returns. */
const DIALOGUE_GET_MESSAGES = 10;

export interface CreateDialogueInput {
  /** D57a: the client's own id; generated when absent. */
  id?: string;
  /** D57a: the client's own creation time (ISO 8601). */
  created?: string;
  namespace?: string;
  threadOf?: string;
  label?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  state?: Record<string, unknown>;
  /** D150: when the dialogue stops existing for the API (ISO 8601). */
  expiresAt?: string;
  /** `messages` then `message`, in that order (D16), each with the field it came from. */
  messages?: FieldedInput[];
}

export interface UpdateDialogueInput {
  /** D53: repeated by the client; must be the dialogue's. */
  id?: string;
  namespace?: string | null;
  tags?: string[];
  label?: string | null;
  state?: Record<string, unknown>;
  /** D150: a new expiry; null clears it. */
  expiresAt?: string | null;
  messages?: FieldedInput[];
}

export interface DialogueServiceDeps {
  /** The primary, for the D53 namespace check. */
  db: Database;
  /** Where reads go: the replica when READ_DATABASE_URL is set. */
  readDb: Database;
  messages: Pick<MessageService, 'append' | 'edge' | 'forkPoint' | 'copyForFork'>;
  embeddingQueue: Pick<EmbeddingQueue, 'enqueue' | 'forgetDialogue'>;
  storedResponses: Pick<StoredResponses, 'erase'>;
  /** D63, D70: each change writes its events; a deletion empties the dialogue's earlier events. */
  outbox: Pick<EventOutbox, 'record' | 'eraseDialogue'>;
  /** D163: no dialogue is created (or forked) into a namespace being erased. */
  namespaceGate: NamespaceGate;
}

/** D26: keyset position (created, id). */
const cursor = keysetCursor('dialogues', ['date', 'string'], (row: repo.DialogueRow) => [
  row.created.toISOString(),
  row.id,
]);

/** D17: the state after a merge must still fit. */
function mergeState(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged = mergeObjectPatch(current, patch);
  if (jsonBytes(merged) > MAX_STATE_BYTES) {
    const message = `the merged state would exceed ${MAX_STATE_BYTES / 1024} KiB as JSON`;
    throw new AppError('INVALID_INPUT', `state: ${message}`, [
      { field: 'state', code: 'INVALID_INPUT', message },
    ]);
  }
  return merged;
}

/** D53: an update may name the dialogue's id and namespace in its body, but not change them (D19). */
function assertSameIdentity(row: repo.DialogueRow, patch: UpdateDialogueInput): void {
  const refuse = (field: string, message: string) => {
    throw new AppError('INVALID_INPUT', `${field}: ${message}`, [{ field, code: 'INVALID_INPUT', message }]);
  };
  if (patch.id !== undefined && patch.id !== row.id) refuse('id', 'must equal the dialogue id in the path');
  if (patch.namespace !== undefined && (patch.namespace ?? null) !== row.namespace) {
    refuse('namespace', "must equal the dialogue's namespace, which cannot change");
  }
}

export function createDialogueService({
  db,
  readDb,
  messages,
  embeddingQueue,
  storedResponses,
  outbox,
  namespaceGate,
}: DialogueServiceDeps) {
  /**
   * D23, D73: a dialogue's deletion, for DELETE /dialogue/{id}, a namespace's erasure (D162) and a
   * retention or expiry sweep (D151, D153: `reason`) alike: threads survive as independent
   * dialogues; vectors, jobs, stored responses and earlier events of it and its messages go.
   * False when a concurrent request deleted it first.
   */
  async function erase(
    tx: Executor,
    projectId: string,
    row: repo.DialogueRow,
    reason?: DeletionReason,
  ): Promise<boolean> {
    const { id } = row;
    // Rows are locked parent first, then thread, as thread creation and a parent's deletion
    // (which clears its threads' thread_of) lock them: no deadlock between those writers.
    if (row.threadOf !== null) await repo.changeThreadCount(tx, projectId, row.threadOf, -1);
    await repo.clearThreadLinks(tx, projectId, id);
    // Deleted by a concurrent request meanwhile: the caller rolls back or moves on.
    if (!(await repo.deleteDialogue(tx, projectId, id))) return false;
    // D23: vectors went with the rows; pending jobs of the dialogue and its messages go too.
    await embeddingQueue.forgetDialogue(tx, projectId, id);
    // D73: stored responses that carried the dialogue or any of its messages become tombstones,
    // and so do its events and its messages' (D70). The deletion covers its messages (D64).
    await storedResponses.erase(tx, projectId, [dialogueRef(id)]);
    await outbox.eraseDialogue(tx, projectId, id);
    await outbox.record(tx, projectId, [
      deletionEvent('dialogue.deleted', { id, namespace: row.namespace }, reason),
    ]);
    return true;
  }

  async function locked(tx: Executor, ctx: ProjectContext, id: string): Promise<repo.DialogueRow> {
    const row = await repo.lockDialogue(tx, ctx.projectId, id);
    if (!row) throw dialogueNotFound(id);
    return row;
  }

  /**
   * D16, D19: the messages a dialogue is created or updated with, if any, and the dialogue after
   * them. D63, D64: the append writes one event per message; the dialogue's own event (none when
   * `type` is undefined: only messages were added) shows it after the whole change and comes
   * before its messages' events, so its id is taken before the append takes theirs.
   */
  async function changeWithMessages(
    tx: Executor,
    ctx: ProjectContext,
    type: EventType | undefined,
    row: repo.DialogueRow,
    items: FieldedInput[],
  ): Promise<DialogueWithMessages> {
    const eventId = newId('evt');
    const dialogue =
      items.length === 0
        ? withMessages(row, ctx.settings, [])
        : await messages
            .append(tx, ctx, row, items)
            .then((appended) =>
              withMessages({ ...row, ...appended.counters }, ctx.settings, appended.messages),
            );
    if (type) await outbox.record(tx, ctx.projectId, [{ ...dialogueEvent(type, dialogue), id: eventId }]);
    return dialogue;
  }

  return {
    /** POST /dialogue (D16-D17): 201 with the created messages. */
    async create(
      tx: Executor,
      ctx: ProjectContext,
      input: CreateDialogueInput,
    ): Promise<DialogueWithMessages> {
      const given = input.created;
      // D57a: history imported with a creation time; its messages without their own take it.
      const items = (input.messages ?? []).map((item) =>
        given === undefined || item.input.created !== undefined
          ? item
          : { ...item, input: { ...item.input, created: given } },
      );
      assertMessageCount(items.length, MAX_DIALOGUE_MESSAGES);
      await namespaceGate.refuseIfErasing(tx, ctx.projectId, input.namespace);
      if (input.threadOf !== undefined) {
        // Locks the parent row until commit, so its threadCount stays exact under concurrency.
        if (!(await repo.changeThreadCount(tx, ctx.projectId, input.threadOf, 1))) {
          throw new AppError('PARENT_DIALOGUE_NOT_FOUND', `Parent dialogue ${input.threadOf} not found`, [
            { field: 'threadOf', code: 'PARENT_DIALOGUE_NOT_FOUND', message: 'no such dialogue' },
          ]);
        }
      }
      const id = input.id ?? newId('dlg');
      const row = await repo.insertDialogue(tx, {
        projectId: ctx.projectId,
        id,
        ...(given === undefined ? {} : { created: new Date(given) }),
        namespace: input.namespace ?? null,
        threadOf: input.threadOf ?? null,
        label: input.label ?? null,
        tags: input.tags ?? [],
        metadata: input.metadata ?? {},
        state: input.state ?? {},
        expiresAt: input.expiresAt === undefined ? null : new Date(input.expiresAt),
        searchText: dialogueSearchText(input),
      });
      // D57a: a taken id (a retried create, or another dialogue's) stores nothing.
      if (!row) {
        throw new AppError('DUPLICATE_ID', `A dialogue with id ${id} already exists`, [
          { field: 'id', code: 'DUPLICATE_ID', message: 'already exists in this project' },
        ]);
      }
      // D40-D41: a dialogue with a label or tags is embedded from them after the write.
      if (row.label !== null || row.tags.length > 0) {
        await embeddingQueue.enqueue(tx, {
          projectId: ctx.projectId,
          objectType: 'dialogue',
          objectId: row.id,
        });
      }
      return changeWithMessages(tx, ctx, 'dialogue.created', row, items);
    },

    /**
     * D53: on a route naming a dialogue in its path, a `namespace` given in the query must be the
     * dialogue's; left out, any namespace is allowed. Read from the primary: namespaces never
     * change (D19), so this check before the operation holds for the operation too, and a dialogue
     * just created is there even when the replica lags.
     */
    async assertNamespace(ctx: ProjectContext, id: string, namespace: string | undefined): Promise<void> {
      if (namespace !== undefined) await dialogueScope.findGivenNamespace(db, ctx, { id, namespace });
    },

    /** GET /dialogue/{id} (D18): with the last (or first) 10 messages, oldest first. */
    async get(
      ctx: ProjectContext,
      id: string,
      options: { messages: 'last' | 'first' } = { messages: 'last' },
    ): Promise<DialogueWithMessages> {
      const row = await repo.findDialogue(readDb, ctx.projectId, id);
      if (!row) throw dialogueNotFound(id);
      const recent = await messages.edge(ctx, id, options.messages, DIALOGUE_GET_MESSAGES);
      return withMessages(row, ctx.settings, recent);
    },

    /** GET /dialogue (D26). */
    async list(
      ctx: ProjectContext,
      query: ListDialoguesQuery,
    ): Promise<{ items: DialogueRecord[]; next: string | null }> {
      // D26's `date` and D58's `created`, `startDate`, `endDate` all apply.
      const range = createdRange(query, query.date !== undefined ? parseDateFilter(query.date) : {});
      const position = query.next ? cursor.decode(query.next) : undefined;
      const after = position && { created: position[0], id: position[1] };
      const rows = await repo.listDialogues(readDb, ctx.projectId, {
        namespace: query.namespace,
        threadOf: query.threadOf,
        forkedFrom: query.forkedFrom,
        threadsOnly: query.query === 'threads',
        status: query.status,
        tags: query.tag === undefined ? [] : [query.tag].flat(),
        createdFrom: range.from,
        createdBefore: range.before,
        ttlSeconds: ctx.settings.dialogueTtlSeconds ?? null,
        order: query.order,
        limit: query.limit + 1,
        after,
      });
      const { page, next } = cursor.page(rows, query.limit);
      return { items: page.map((row) => toDialogueRecord(row, ctx.settings)), next };
    },

    /** PUT /dialogue/{id} (D19): tags replace, label set, state merged, messages appended. */
    async update(
      tx: Executor,
      ctx: ProjectContext,
      id: string,
      patch: UpdateDialogueInput,
    ): Promise<DialogueWithMessages> {
      const items = patch.messages ?? [];
      const contentChanged =
        patch.tags !== undefined ||
        patch.label !== undefined ||
        patch.state !== undefined ||
        items.length > 0;
      if (!contentChanged && patch.expiresAt === undefined) {
        throw new AppError(
          'MISSING_PARAMETER',
          'Nothing to update: give tags, label, state, expiresAt, message or messages',
        );
      }
      assertMessageCount(items.length, MAX_DIALOGUE_MESSAGES);
      const row = await locked(tx, ctx, id);
      assertSameIdentity(row, patch);
      // D152: an expiry alone changes no content: allowed on ended and immutable dialogues too.
      if (contentChanged) {
        refuseIfImmutable(ctx);
        if (row.status === 'ended')
          throw new AppError('DIALOGUE_ENDED', `Dialogue ${id} has ended and cannot be updated`);
      }
      if (items.length > 0) assertAcceptsMessages(row, ctx);
      const tags = patch.tags ?? row.tags;
      const label = patch.label === undefined ? row.label : patch.label;
      const updated = await repo.updateDialogue(tx, ctx.projectId, id, {
        tags,
        label,
        state: patch.state ? mergeState(row.state, patch.state) : row.state,
        searchText: dialogueSearchText({ label, tags, summary: row.summary }),
        ...(patch.expiresAt === undefined
          ? {}
          : { expiresAt: patch.expiresAt === null ? null : new Date(patch.expiresAt) }),
      });
      if (patch.tags !== undefined || patch.label !== undefined) {
        await embeddingQueue.enqueue(tx, { projectId: ctx.projectId, objectType: 'dialogue', objectId: id });
      }
      // D64: appended messages alone move only counters, which are no change of the dialogue's own.
      const changed =
        patch.tags !== undefined ||
        patch.label !== undefined ||
        patch.state !== undefined ||
        patch.expiresAt !== undefined;
      return changeWithMessages(tx, ctx, changed ? 'dialogue.updated' : undefined, updated, items);
    },

    /** PUT /dialogue/{id}/state (D20): merge patch; works on ended and immutable dialogues (D25). */
    async updateState(
      tx: Executor,
      ctx: ProjectContext,
      id: string,
      patch: Record<string, unknown>,
    ): Promise<DialogueRecord> {
      const row = await locked(tx, ctx, id);
      const updated = await repo.updateDialogue(tx, ctx.projectId, id, {
        state: mergeState(row.state, patch),
      });
      const record = toDialogueRecord(updated, ctx.settings);
      await outbox.record(tx, ctx.projectId, [dialogueEvent('dialogue.updated', record)]);
      return record;
    },

    /** The `end` action (D21): idempotent; an ended dialogue is returned as it is. */
    async end(tx: Executor, ctx: ProjectContext, id: string): Promise<DialogueRecord> {
      const row = await locked(tx, ctx, id);
      if (row.status === 'ended') return toDialogueRecord(row, ctx.settings);
      const updated = await repo.updateDialogue(tx, ctx.projectId, id, { status: 'ended' });
      const record = toDialogueRecord(updated, ctx.settings);
      await outbox.record(tx, ctx.projectId, [dialogueEvent('dialogue.ended', record)]);
      return record;
    },

    /**
     * POST /dialogue/{id}/fork (D160): a new dialogue holding copies of the original's messages up
     * to and including `upToMessageId` (all when absent), new ids, content and `created` as they
     * were. Its counters are set at its insert from the fork point, its messages copied in one
     * statement. The original may be ended, expired or in an immutable project: a fork only reads
     * it. Its `dialogue.created` event carries `forkedFrom`; the copies get no `message.created`
     * of their own (D161).
     */
    async fork(
      tx: Executor,
      ctx: ProjectContext,
      id: string,
      input: ForkDialogueInput,
    ): Promise<DialogueRecord> {
      const source = await repo.lockDialogue(tx, ctx.projectId, id, 'share');
      if (!source) throw dialogueNotFound(id);
      const point = await messages.forkPoint(tx, ctx, id, input.upToMessageId);
      const namespace = input.namespace ?? source.namespace;
      await namespaceGate.refuseIfErasing(tx, ctx.projectId, namespace);
      const label = input.label ?? source.label;
      const tags = input.tags ?? source.tags;
      const row = await repo.insertDialogue(tx, {
        projectId: ctx.projectId,
        id: newId('dlg'),
        namespace,
        label,
        tags,
        metadata: source.metadata,
        state: source.state,
        totalMessages: point?.count ?? 0,
        lastMessageCreated: point?.created ?? null,
        forkedFromDialogueId: id,
        forkedFromMessageId: point?.id ?? null,
        searchText: dialogueSearchText({ label, tags }),
      });
      // A fresh id is never taken; the row is there.
      if (!row) throw new AppError('RESOURCE_CONFLICT', 'The fork could not be stored; retry it');
      if (point) {
        await messages.copyForFork(tx, ctx, { fromDialogueId: id, toDialogueId: row.id, namespace }, point);
      }
      if (row.label !== null || row.tags.length > 0) {
        await embeddingQueue.enqueue(tx, {
          projectId: ctx.projectId,
          objectType: 'dialogue',
          objectId: row.id,
        });
      }
      const record = toDialogueRecord(row, ctx.settings);
      await outbox.record(tx, ctx.projectId, [dialogueEvent('dialogue.created', record)]);
      return record;
    },

    /** Records of found dialogues, for search results (read from the read database). */
    async searchItems(ctx: ProjectContext, ids: string[]): Promise<DialogueRecord[]> {
      return (await repo.findDialogues(readDb, ctx.projectId, ids)).map((row) =>
        toDialogueRecord(row, ctx.settings),
      );
    },

    /** DELETE /dialogue/{id} (D23): real deletion; threads survive as independent dialogues. */
    async remove(tx: Executor, ctx: ProjectContext, id: string): Promise<{ success: true; id: string }> {
      const row = await repo.findDialogue(tx, ctx.projectId, id);
      if (!row) throw dialogueNotFound(id);
      refuseIfImmutable(ctx);
      if (!(await erase(tx, ctx.projectId, row))) throw dialogueNotFound(id);
      return { success: true, id };
    },

    /**
     * D151, D153: the same erasure for a dialogue a retention rule or its expiry removes, expired
     * or not, whatever D25 says (a policy is the project's own rule). False when it is gone already.
     */
    async retire(tx: Executor, projectId: string, id: string, reason: DeletionReason): Promise<boolean> {
      const row = await repo.findForErasure(tx, projectId, id);
      return row !== undefined && (await erase(tx, projectId, row, reason));
    },

    /** D150, D151: the dialogues expiry and the idle rule cover (the sweep's batches, the preview's spans). */
    expiredRows: repo.expiredRows,
    idleRows: repo.idleRows,

    /**
     * D162: erases up to `limit` dialogues of a namespace whose erasure is pending (which reads no
     * longer see), each exactly as a deletion does; immutability (D25) yields to an erasure.
     * Returns how many dialogues and messages went.
     */
    async eraseNamespaceBatch(
      tx: Executor,
      projectId: string,
      namespace: string,
      limit: number,
    ): Promise<{ dialogues: number; messages: number }> {
      const counts = { dialogues: 0, messages: 0 };
      for (const row of await repo.namespaceDialogues(tx, projectId, namespace, limit)) {
        // D164: a batch stays short: past ERASE_BATCH_MESSAGES messages the rest wait for the next.
        if (counts.dialogues > 0 && counts.messages + row.totalMessages > ERASE_BATCH_MESSAGES) break;
        if (!(await erase(tx, projectId, row))) continue;
        counts.dialogues += 1;
        counts.messages += row.totalMessages;
      }
      return counts;
    },
  };
}

export type DialogueService = ReturnType<typeof createDialogueService>;
