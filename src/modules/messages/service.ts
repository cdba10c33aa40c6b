import type { Executor } from '../../db/client.js';
import { decodeCursor, invalidCursor, pageOf } from '../../core/cursor.js';
import { AppError } from '../../core/errors.js';
import type { ProjectContext } from '../../core/context.js';
import * as dialogueRepo from '../dialogues/repository.js';
import { deleteEmbeddingJob } from '../embeddings/repository.js';
import * as repo from './repository.js';
import {
  type DialogueRef,
  appendMessages,
  assertMessageCount,
  dialogueFor,
  refuseIfImmutable,
} from './append.js';
import { type MessageInput, toMessageRecord } from './records.js';
import { MAX_BATCH_MESSAGES, type MessageRecord } from './schemas.js';

// The rules of messages (D27-D36) as plain functions; REST and MCP both call them.

export interface MessageLocator {
  dialogueId: string;
  namespace?: string;
  messageId: string;
}

function messageNotFound(locator: MessageLocator): AppError {
  return new AppError(
    'MESSAGE_NOT_FOUND',
    `Message ${locator.messageId} not found in dialogue ${locator.dialogueId}`,
  );
}

const CURSOR_KIND = 'messages';

/** D25 for additions: refused in an immutable project, after the dialogue's own 404 (D34). */
async function refuseIfImmutableDialogue(tx: Executor, ctx: ProjectContext, dialogue: DialogueRef) {
  if (!ctx.settings.immutableDialogues) return;
  await dialogueFor(tx, ctx, dialogue.id, dialogue.namespace, false);
  refuseIfImmutable(ctx);
}

export interface ListMessagesQuery {
  dialogueId: string;
  namespace?: string;
  limit: number;
  order: 'asc' | 'desc';
  next?: string;
}

export function createMessageService() {
  return {
    /** POST /message: one message. */
    async create(
      tx: Executor,
      ctx: ProjectContext,
      input: { dialogueId: string; namespace?: string; message: MessageInput },
    ): Promise<MessageRecord> {
      const dialogue = { id: input.dialogueId, namespace: input.namespace ?? null };
      await refuseIfImmutableDialogue(tx, ctx, dialogue);
      const { messages } = await appendMessages(tx, ctx, dialogue, [{ field: '', input: input.message }]);
      return messages[0]!;
    },

    /** POST /messages (D31): 1-100 messages, all or nothing. */
    async createBatch(
      tx: Executor,
      ctx: ProjectContext,
      input: { dialogueId: string; namespace?: string; messages: MessageInput[] },
    ): Promise<{ dialogueId: string; items: MessageRecord[]; totalMessages: number }> {
      if (input.messages.length === 0) {
        throw new AppError('EMPTY_MESSAGE_ARRAY', 'messages must hold at least one message', [
          { field: 'messages', code: 'EMPTY_MESSAGE_ARRAY', message: 'at least one message' },
        ]);
      }
      assertMessageCount(input.messages.length, MAX_BATCH_MESSAGES);
      const dialogue = { id: input.dialogueId, namespace: input.namespace ?? null };
      await refuseIfImmutableDialogue(tx, ctx, dialogue);
      const items = input.messages.map((message, index) => ({ field: `messages[${index}]`, input: message }));
      const appended = await appendMessages(tx, ctx, dialogue, items);
      return {
        dialogueId: dialogue.id,
        items: appended.messages,
        totalMessages: appended.counters.totalMessages,
      };
    },

    /** GET /messages (D32): oldest first unless `order=desc`. */
    async list(
      db: Executor,
      ctx: ProjectContext,
      query: ListMessagesQuery,
    ): Promise<{ items: MessageRecord[]; next: string | null }> {
      const after = query.next ? decodeMessageCursor(query.next) : undefined;
      await dialogueFor(db, ctx, query.dialogueId, query.namespace, false);
      const rows = await repo.listMessages(db, ctx.projectId, query.dialogueId, {
        order: query.order,
        limit: query.limit + 1,
        after,
      });
      const { page, next } = pageOf(rows, query.limit, CURSOR_KIND, (row) => [
        row.created.toISOString(),
        row.seq,
      ]);
      return { items: page.map(toMessageRecord), next };
    },

    async get(db: Executor, ctx: ProjectContext, locator: MessageLocator): Promise<MessageRecord> {
      await dialogueFor(db, ctx, locator.dialogueId, locator.namespace, false);
      const row = await repo.findMessage(db, ctx.projectId, locator.dialogueId, locator.messageId);
      if (!row) throw messageNotFound(locator);
      return toMessageRecord(row);
    },

    /** D33: tags are the only thing about a message that changes. */
    async updateTags(
      tx: Executor,
      ctx: ProjectContext,
      locator: MessageLocator,
      tags: string[],
    ): Promise<MessageRecord> {
      await dialogueFor(tx, ctx, locator.dialogueId, locator.namespace, false);
      refuseIfImmutable(ctx);
      const row = await repo.updateMessageTags(
        tx,
        ctx.projectId,
        locator.dialogueId,
        locator.messageId,
        tags,
      );
      if (!row) throw messageNotFound(locator);
      return toMessageRecord(row);
    },

    async remove(
      tx: Executor,
      ctx: ProjectContext,
      locator: MessageLocator,
    ): Promise<{ success: true; id: string; dialogueId: string }> {
      const dialogue = await dialogueFor(tx, ctx, locator.dialogueId, locator.namespace, true);
      refuseIfImmutable(ctx);
      if (!(await repo.deleteMessage(tx, ctx.projectId, dialogue.id, locator.messageId))) {
        throw messageNotFound(locator);
      }
      // D23: the vector went with the row; a job still pending goes too.
      await deleteEmbeddingJob(tx, {
        projectId: ctx.projectId,
        objectType: 'message',
        dialogueId: dialogue.id,
        objectId: locator.messageId,
      });
      // D35: the count and the latest `created` move in the deletion's own transaction.
      await dialogueRepo.subtractFromCounters(tx, ctx.projectId, dialogue.id, 1);
      return { success: true, id: locator.messageId, dialogueId: dialogue.id };
    },
  };
}

function decodeMessageCursor(cursor: string): { created: string; seq: number } {
  const [created, seq] = decodeCursor(CURSOR_KIND, cursor);
  if (typeof created !== 'string' || Number.isNaN(Date.parse(created)) || typeof seq !== 'number') {
    throw invalidCursor();
  }
  return { created, seq };
}

export type MessageService = ReturnType<typeof createMessageService>;
