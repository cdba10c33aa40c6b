import type { ProjectContext } from '../../core/context.js';
import { createdRange } from '../../core/created-range.js';
import { keysetCursor } from '../../core/cursor.js';
import { AppError, messageNotFound } from '../../core/errors.js';
import { messageRef } from '../../core/object-refs.js';
import type { Database, Executor } from '../../db/client.js';
import type { StoredResponses } from '../../db/idempotency-store.js';
import type { DialogueRef, DialogueScope } from '../dialogues/scope.js';
import type { SummaryErasure } from '../summaries/erasure.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import { type DeletionReason, deletionEvent, messageEvent } from '../events/records.js';
import { refuseIfImmutable } from '../dialogues/rules.js';
import { type AppendedMessages, appendMessages, appendMessagesAlone, assertMessageCount } from './append.js';
import type { WriteTx } from '../../db/unit-of-work.js';
import type { SQL } from 'drizzle-orm';
import { type FieldedInput, type MessageInput, toMessageRecord } from './records.js';
import { idBoundAt } from '../../lib/ids.js';
import * as repo from './repository.js';
import { MAX_BATCH_MESSAGES, type MessageRecord } from './schemas.js';

// The rules of messages (D27-D36) as plain functions; REST and MCP both call them.

export interface MessageServiceDeps {
  /** Where reads go: the replica when READ_DATABASE_URL is set. */
  readDb: Database;
  dialogueScope: DialogueScope;
  /**
   * `enabled` decides whether the append statement writes the new messages' embedding jobs: it
   * writes them itself, in SQL (embeddings/job-sql.ts), rather than through `enqueue` (D35, D40).
   */
  embeddingQueue: Pick<EmbeddingQueue, 'forget' | 'enabled'>;
  /** D73: what a deletion erases beyond the row. */
  summaryErasure: SummaryErasure;
  storedResponses: Pick<StoredResponses, 'erase'>;
  /** The store is a Citus cluster (src/db/citus.ts): appends take their routed form. */
  distributed: boolean;
  /**
   * D63, D70: each change writes its events; a deletion empties the message's earlier events. The
   * append statement writes its `message.created` events itself, in SQL (events/insert-sql.ts),
   * with the ids `reserve` hands out: no ids, no events.
   */
  outbox: Pick<EventOutbox, 'record' | 'reserve' | 'keepMessageData' | 'eraseMessage'>;
}

export interface MessageLocator {
  dialogueId: string;
  namespace?: string;
  messageId: string;
}

export interface ListMessagesQuery {
  dialogueId: string;
  namespace?: string;
  /** D58 */
  created?: string;
  startDate?: string;
  endDate?: string;
  limit: number;
  order: 'asc' | 'desc';
  next?: string;
}

type LockedDialogue = Awaited<ReturnType<DialogueScope['lock']>>;

export interface NewMessageInput {
  dialogueId: string;
  namespace?: string;
  message: MessageInput;
}

export interface NewBatchInput {
  dialogueId: string;
  namespace?: string;
  messages: MessageInput[];
  /** Where the messages sit in the request, for error details: `messages`, or '' for a bare array (D55). */
  field?: string;
}

export interface CreatedBatch {
  dialogueId: string;
  items: MessageRecord[];
  totalMessages: number;
}

/** An append of checked messages to a dialogue; undefined when a standalone one changed nothing. */
type Append = (dialogue: DialogueRef, items: FieldedInput[]) => Promise<AppendedMessages | undefined>;

/** D29, D32: keyset position (created, insertion order). */
const cursor = keysetCursor('messages', ['date', 'integer'], (row: repo.MessageRow) => [
  row.created.toISOString(),
  row.seq,
]);

const refOf = (input: { dialogueId: string; namespace?: string | null }): DialogueRef => ({
  id: input.dialogueId,
  namespace: input.namespace,
});

export function createMessageService({
  readDb,
  dialogueScope,
  embeddingQueue,
  summaryErasure,
  storedResponses,
  distributed,
  outbox,
}: MessageServiceDeps) {
  /** D25 for additions: refused in an immutable project, after the dialogue's own 404 (D34). */
  async function refuseIfImmutableDialogue(tx: Executor, ctx: ProjectContext, dialogue: DialogueRef) {
    if (!ctx.settings.immutableDialogues) return;
    await dialogueScope.find(tx, ctx, dialogue);
    refuseIfImmutable(ctx);
  }

  /** D73: a message of a dialogue the caller locked, and every copy of its content; false when gone. */
  async function erase(
    tx: Executor,
    ctx: ProjectContext,
    dialogue: LockedDialogue,
    messageId: string,
    reason?: DeletionReason,
  ): Promise<boolean> {
    const deleted = await repo.deleteMessage(tx, ctx.projectId, dialogue.id, messageId);
    if (deleted === undefined) return false;
    // D23: the vector went with the row; a job still pending goes too.
    await embeddingQueue.forget(tx, {
      projectId: ctx.projectId,
      objectType: 'message',
      dialogueId: dialogue.id,
      objectId: messageId,
    });
    // D35: the count and the latest `created` move in the deletion's own transaction.
    await repo.countDeletedMessages(tx, ctx.projectId, dialogue.id, 1);
    // D73: no copy of the content survives the deletion's commit.
    await summaryErasure.forgetIfDrawnOn(tx, ctx, dialogue, deleted);
    await storedResponses.erase(tx, ctx.projectId, [messageRef(dialogue.id, messageId)]);
    await outbox.eraseMessage(tx, ctx.projectId, dialogue.id, messageId);
    await outbox.record(tx, ctx.projectId, [
      deletionEvent(
        'message.deleted',
        { id: messageId, dialogueId: dialogue.id, namespace: dialogue.namespace },
        reason,
      ),
    ]);
    return true;
  }

  /**
   * D79: the append statement queues embedding jobs only when an embedder is configured. On
   * Citus the append takes a form whose statements are each routed to one shard.
   */
  const appendOptions = { queueEmbeddings: embeddingQueue.enabled, distributed };

  /** Appends in the caller's transaction. */
  const inTransaction =
    (tx: Executor, ctx: ProjectContext): Append =>
    (dialogue, items) =>
      appendMessages(dialogueScope, tx, ctx, dialogue, items, appendOptions, outbox);

  /**
   * D174: appends as one statement run alone, with the write's guards in it. Not on Citus, where
   * the append is several routed statements and needs its transaction.
   */
  const alone = distributed
    ? undefined
    : (db: WriteTx, ctx: ProjectContext, guards: SQL[]): Append =>
        (dialogue, items) =>
          appendMessagesAlone(dialogueScope, db, ctx, dialogue, items, appendOptions, outbox, guards);

  async function addOne(db: Executor, ctx: ProjectContext, input: NewMessageInput, append: Append) {
    const dialogue = refOf(input);
    await refuseIfImmutableDialogue(db, ctx, dialogue);
    const appended = await append(dialogue, [{ field: '', input: input.message }]);
    return appended?.messages[0];
  }

  async function addBatch(
    db: Executor,
    ctx: ProjectContext,
    input: NewBatchInput,
    append: Append,
  ): Promise<CreatedBatch | undefined> {
    const at = input.field ?? 'messages';
    if (input.messages.length === 0) {
      throw new AppError('EMPTY_MESSAGE_ARRAY', 'messages must hold at least one message', [
        { field: 'messages', code: 'EMPTY_MESSAGE_ARRAY', message: 'at least one message' },
      ]);
    }
    assertMessageCount(input.messages.length, MAX_BATCH_MESSAGES);
    const dialogue = refOf(input);
    await refuseIfImmutableDialogue(db, ctx, dialogue);
    const items = input.messages.map((message, index) => ({ field: `${at}[${index}]`, input: message }));
    // D64: the append writes one event per message, in the batch's order.
    const appended = await append(dialogue, items);
    return (
      appended && {
        dialogueId: dialogue.id,
        items: appended.messages,
        totalMessages: appended.counters.totalMessages,
      }
    );
  }

  return {
    /**
     * Adds messages to a dialogue in the caller's transaction (D16, D19, D31): also how dialogue
     * creation and update add theirs. Immutability (D25) is the caller's rule.
     */
    append: (tx: Executor, ctx: ProjectContext, dialogue: DialogueRef, items: FieldedInput[]) =>
      appendMessages(dialogueScope, tx, ctx, dialogue, items, appendOptions, outbox),

    /**
     * D160: the message a fork of `dialogueId` copies up to (the last when `upToMessageId` is
     * absent) and how many messages it copies; undefined for a dialogue without messages. Run
     * under the original's row lock, which keeps its messages still until the copy is made.
     */
    async forkPoint(
      tx: Executor,
      ctx: ProjectContext,
      dialogueId: string,
      upToMessageId: string | undefined,
    ): Promise<repo.ForkPoint | undefined> {
      const point = await repo.findForkPoint(tx, ctx.projectId, dialogueId, upToMessageId);
      if (!point && upToMessageId !== undefined) {
        throw new AppError(
          'MESSAGE_NOT_FOUND',
          `Message ${upToMessageId} not found in dialogue ${dialogueId}`,
          [
            {
              field: 'upToMessageId',
              code: 'MESSAGE_NOT_FOUND',
              message: 'no such message in this dialogue',
            },
          ],
        );
      }
      return point;
    },

    /**
     * D160: the copies of a fork, in one statement whatever their number, with new ids; then the
     * embedding jobs of the copies whose original had no vector yet (D40, none without an
     * embedder, D79). The fork's own row must exist (the copies reference it).
     */
    async copyForFork(
      tx: Executor,
      ctx: ProjectContext,
      target: { fromDialogueId: string; toDialogueId: string; namespace: string | null },
      point: repo.ForkPoint,
    ): Promise<void> {
      const idPrefix = idBoundAt('msg', Date.now());
      await repo.copyMessages(tx, { projectId: ctx.projectId, ...target }, point, idPrefix);
      if (embeddingQueue.enabled) await repo.enqueueUnembedded(tx, ctx.projectId, target.toDialogueId);
    },

    /** POST /message: one message. */
    create: async (tx: Executor, ctx: ProjectContext, input: NewMessageInput): Promise<MessageRecord> =>
      (await addOne(tx, ctx, input, inTransaction(tx, ctx)))!,

    /** D174: `create` as one statement, outside any transaction; undefined when it changed nothing. */
    createAlone: async (db: WriteTx, guards: SQL[], ctx: ProjectContext, input: NewMessageInput) =>
      alone && addOne(db, ctx, input, alone(db, ctx, guards)),

    /** POST /messages (D31): 1-100 messages, all or nothing. */
    createBatch: async (tx: Executor, ctx: ProjectContext, input: NewBatchInput): Promise<CreatedBatch> =>
      (await addBatch(tx, ctx, input, inTransaction(tx, ctx)))!,

    /** D174: `createBatch` as one statement, outside any transaction; undefined when it changed nothing. */
    createBatchAlone: async (db: WriteTx, guards: SQL[], ctx: ProjectContext, input: NewBatchInput) =>
      alone && addBatch(db, ctx, input, alone(db, ctx, guards)),

    /** GET /messages (D32): oldest first unless `order=desc`. */
    async list(
      ctx: ProjectContext,
      query: ListMessagesQuery,
    ): Promise<{ items: MessageRecord[]; next: string | null }> {
      const after = query.next ? cursor.decode(query.next) : undefined;
      const range = createdRange(query);
      await dialogueScope.find(readDb, ctx, refOf(query));
      const rows = await repo.listMessages(readDb, ctx.projectId, query.dialogueId, {
        createdFrom: range.from,
        createdBefore: range.before,
        order: query.order,
        limit: query.limit + 1,
        after: after && { created: after[0], seq: after[1] },
      });
      const { page, next } = cursor.page(rows, query.limit);
      return { items: page.map(toMessageRecord), next };
    },

    /**
     * D18: the first or last `limit` messages of a dialogue the caller has already found, oldest
     * first either way.
     */
    async edge(ctx: ProjectContext, dialogueId: string, end: 'first' | 'last', limit: number) {
      const rows = await repo.listMessages(readDb, ctx.projectId, dialogueId, {
        order: end === 'first' ? 'asc' : 'desc',
        limit,
      });
      if (end === 'last') rows.reverse();
      return rows.map(toMessageRecord);
    },

    async get(ctx: ProjectContext, locator: MessageLocator): Promise<MessageRecord> {
      await dialogueScope.find(readDb, ctx, refOf(locator));
      const row = await repo.findMessage(readDb, ctx.projectId, locator.dialogueId, locator.messageId);
      if (!row) throw messageNotFound(locator.messageId, locator.dialogueId);
      return toMessageRecord(row);
    },

    /** D33: tags are the only thing about a message that changes. */
    async updateTags(
      tx: Executor,
      ctx: ProjectContext,
      locator: MessageLocator,
      tags: string[],
    ): Promise<MessageRecord> {
      await dialogueScope.find(tx, ctx, refOf(locator));
      refuseIfImmutable(ctx);
      const before = await repo.findMessage(tx, ctx.projectId, locator.dialogueId, locator.messageId);
      if (!before) throw messageNotFound(locator.messageId, locator.dialogueId);
      await outbox.keepMessageData(
        tx,
        ctx.projectId,
        locator.dialogueId,
        locator.messageId,
        toMessageRecord(before),
      );
      const row = await repo.updateMessageTags(
        tx,
        ctx.projectId,
        locator.dialogueId,
        locator.messageId,
        tags,
      );
      if (!row) throw messageNotFound(locator.messageId, locator.dialogueId);
      const record = toMessageRecord(row);
      await outbox.record(tx, ctx.projectId, [messageEvent('message.updated', record)]);
      return record;
    },

    async remove(
      tx: Executor,
      ctx: ProjectContext,
      locator: MessageLocator,
    ): Promise<{ success: true; id: string; dialogueId: string }> {
      const dialogue = await dialogueScope.lock(tx, ctx, refOf(locator));
      refuseIfImmutable(ctx);
      if (!(await erase(tx, ctx, dialogue, locator.messageId))) {
        throw messageNotFound(locator.messageId, locator.dialogueId);
      }
      return { success: true, id: locator.messageId, dialogueId: dialogue.id };
    },

    /**
     * D151, D153: the same erasure for a message a retention rule removes, whatever D25 says (a
     * policy is the project's own rule). False when it or its live dialogue is gone already.
     */
    async retire(
      tx: Executor,
      ctx: ProjectContext,
      message: { dialogueId: string; namespace: string | null; id: string },
      reason: DeletionReason,
    ): Promise<boolean> {
      const ref = { id: message.dialogueId, namespace: message.namespace };
      // Its dialogue was erased (or expired) since the message was found: nothing left to do here.
      const dialogue = await dialogueScope.lock(tx, ctx, ref).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'DIALOGUE_NOT_FOUND') return undefined;
        throw error;
      });
      return dialogue !== undefined && erase(tx, ctx, dialogue, message.id, reason);
    },

    /** D151: the messages a retention rule covers (the sweep's next batch, the preview's span). */
    oldRows: repo.oldRows,

    /** Records of found messages, for search results (read from the read database). */
    async searchItems(
      ctx: ProjectContext,
      keys: { dialogueId: string; id: string }[],
    ): Promise<MessageRecord[]> {
      return (await repo.findMessagesByKeys(readDb, ctx.projectId, keys)).map(toMessageRecord);
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
