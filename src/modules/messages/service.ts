import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { decodeCursor, invalidCursor, pageOf } from '../../http/cursor.js';
import { AppError, type ErrorCode, type ErrorDetail } from '../../http/errors.js';
import { RawJson } from '../../http/raw-json.js';
import type { WriteContext } from '../../http/writes.js';
import { contentText } from '../../lib/content-text.js';
import { newId } from '../../lib/ids.js';
import { isExpired } from '../dialogues/records.js';
import * as dialogueRepo from '../dialogues/repository.js';
import * as repo from './repository.js';
import { MAX_BATCH_MESSAGES, type MessageRecord, type Role } from './schemas.js';
import { deleteEmbeddingJob, enqueueEmbedding } from '../embeddings/repository.js';

// The rules of messages (D27-D36) as plain functions; REST and MCP both call them.

/** D28: 1 MiB. */
export const MAX_CONTENT_BYTES = 1_048_576;

export interface MessageInput {
  id?: string;
  role: Role;
  /** The exact JSON text of the content as the client sent it (D28). */
  content: RawJson;
  name?: string | null;
  created?: string;
  metadata?: Record<string, unknown> | null;
  tags?: string[];
}

/** A message to add, with the path of the field it came from, for error details (D12, D31). */
export interface FieldedInput {
  field: string;
  input: MessageInput;
}

export interface MessageLocator {
  dialogueId: string;
  namespace?: string;
  messageId: string;
}

export function toMessageRecord(row: repo.MessageRow): MessageRecord {
  return {
    id: row.id,
    dialogueId: row.dialogueId,
    namespace: row.namespace,
    role: row.role,
    content: new RawJson(row.content),
    contentLength: row.contentLength,
    name: row.name,
    tags: row.tags,
    metadata: row.metadata ?? null,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function isEmptyContent(value: unknown): boolean {
  if (value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isPlainObject(value) && Object.keys(value).length === 0;
}

const hasContentShape = (value: unknown): boolean =>
  typeof value === 'string' || isPlainObject(value) || (Array.isArray(value) && value.every(isPlainObject));

interface CheckedContent {
  length: number;
  searchText: string;
}

/** D28: empty content, content of another shape and content over 1 MiB are refused. */
function checkContent(content: RawJson, field: string): CheckedContent | ErrorDetail {
  const path = field ? `${field}.content` : 'content';
  const value = content.parse();
  if (isEmptyContent(value)) {
    return { field: path, code: 'MESSAGE_CONTENT_EMPTY', message: 'content must not be empty' };
  }
  if (!hasContentShape(value)) {
    return {
      field: path,
      code: 'INVALID_INPUT',
      message: 'content must be a string, an object or an array of objects',
    };
  }
  // D28: string content counts the UTF-8 bytes of the string itself, other content its JSON text.
  const length = Buffer.byteLength(typeof value === 'string' ? value : content.text, 'utf8');
  if (length > MAX_CONTENT_BYTES) {
    return {
      field: path,
      code: 'MESSAGE_TOO_LARGE',
      message: `content is ${length} bytes; at most ${MAX_CONTENT_BYTES} bytes (1 MiB) are accepted`,
    };
  }
  return { length, searchText: contentText(value) };
}

/** Throws the first failure as the error and lists all of them in `details` (D12, D31). */
function throwDetails(details: ErrorDetail[]): never {
  const first = details[0]!;
  throw new AppError(first.code as ErrorCode, `${first.field}: ${first.message}`, details);
}

/** D16, D19, D31: how many messages one request may add. */
export function assertMessageCount(count: number, max: number, field = 'messages'): void {
  if (count > max) {
    throw new AppError('TOO_MANY_MESSAGES', `At most ${max} messages can be added at once; got ${count}`, [
      { field, code: 'TOO_MANY_MESSAGES', message: `at most ${max} messages` },
    ]);
  }
}

/** D24, D25, and the ended state: whether the dialogue may take new messages. */
export function assertAcceptsMessages(dialogue: dialogueRepo.DialogueRow, ctx: WriteContext): void {
  refuseIfImmutable(ctx);
  if (dialogue.status === 'ended') {
    throw new AppError('DIALOGUE_ENDED', `Dialogue ${dialogue.id} has ended and accepts no new messages`);
  }
  if (isExpired(dialogue, ctx.settings)) {
    throw new AppError('DIALOGUE_EXPIRED', `Dialogue ${dialogue.id} has expired and accepts no new messages`);
  }
}

/**
 * Adds messages to a dialogue whose row the caller has locked (or just created): all of them or
 * none (D31), in the given order (D29), with the dialogue's counters moved in the same
 * transaction (D35). Returns the dialogue as updated and the stored messages.
 */
export async function appendMessages(
  tx: Executor,
  dialogue: dialogueRepo.DialogueRow,
  items: FieldedInput[],
): Promise<{ dialogue: dialogueRepo.DialogueRow; messages: MessageRecord[] }> {
  if (items.length === 0) return { dialogue, messages: [] };
  const details: ErrorDetail[] = [];
  const seenIds = new Set<string>();
  const rows: repo.NewMessageRow[] = [];
  for (const { field, input } of items) {
    const checked = checkContent(input.content, field);
    if ('code' in checked) {
      details.push(checked);
      continue;
    }
    if (input.id !== undefined) {
      if (seenIds.has(input.id)) {
        const message = `id ${input.id} is given twice in this request`;
        details.push({ field: field ? `${field}.id` : 'id', code: 'DUPLICATE_ID', message });
      }
      seenIds.add(input.id);
    }
    rows.push({
      projectId: dialogue.projectId,
      dialogueId: dialogue.id,
      id: input.id ?? newId('msg'),
      namespace: dialogue.namespace,
      role: input.role,
      content: input.content.text,
      contentLength: checked.length,
      name: input.name ?? null,
      tags: input.tags ?? [],
      metadata: input.metadata ?? null,
      searchText: checked.searchText,
      // Read from the clock after the dialogue row is locked, not at transaction start: appends to
      // one dialogue then get `created` in commit order, so a cursor walk cannot miss one (D32).
      created: input.created !== undefined ? new Date(input.created) : sql`clock_timestamp()`,
    });
  }
  if (details.length > 0) throwDetails(details);

  const inserted = await repo.insertMessages(tx, rows);
  if (inserted.length < rows.length) {
    // D27: ids are unique within the dialogue. Throwing rolls the whole request back (D31).
    const stored = new Set(inserted.map((row) => row.id));
    const taken = items.flatMap(({ field, input }, index) =>
      !stored.has(rows[index]!.id)
        ? [
            {
              field: field ? `${field}.id` : 'id',
              code: 'DUPLICATE_ID',
              message: `id ${input.id} already exists`,
            },
          ]
        : [],
    );
    throwDetails(taken);
  }
  inserted.sort((a, b) => a.seq - b.seq);
  // D40: the embedding jobs commit with the messages; the vectors are made after the write.
  await enqueueEmbedding(
    tx,
    inserted.map((row) => ({
      projectId: dialogue.projectId,
      objectType: 'message' as const,
      dialogueId: dialogue.id,
      objectId: row.id,
    })),
  );
  const latest = new Date(Math.max(...inserted.map((row) => row.created.getTime())));
  const updated = await dialogueRepo.addToCounters(
    tx,
    dialogue.projectId,
    dialogue.id,
    inserted.length,
    latest,
  );
  return { dialogue: updated, messages: inserted.map(toMessageRecord) };
}

function dialogueNotFound(dialogueId: string): AppError {
  return new AppError('DIALOGUE_NOT_FOUND', `Dialogue ${dialogueId} not found`);
}

/**
 * D34, D46: the dialogue of a message operation. A wrong or missing namespace answers exactly like
 * a dialogue that does not exist, and so does another project's dialogue.
 */
async function dialogueFor(
  db: Executor,
  ctx: WriteContext,
  dialogueId: string,
  namespace: string | undefined,
  lock: boolean,
): Promise<dialogueRepo.DialogueRow> {
  const find = lock ? dialogueRepo.lockDialogue : dialogueRepo.findDialogue;
  const dialogue = await find(db, ctx.projectId, dialogueId);
  if (!dialogue || dialogue.namespace !== (namespace ?? null)) throw dialogueNotFound(dialogueId);
  return dialogue;
}

function messageNotFound(locator: MessageLocator): AppError {
  return new AppError(
    'MESSAGE_NOT_FOUND',
    `Message ${locator.messageId} not found in dialogue ${locator.dialogueId}`,
  );
}

/** D25: after creation, a dialogue of an immutable project and its messages do not change. */
export function refuseIfImmutable(ctx: WriteContext): void {
  if (ctx.settings.immutableDialogues) {
    throw new AppError('DIALOGUE_IMMUTABLE', 'Dialogues of this project cannot be changed after creation');
  }
}

const CURSOR_KIND = 'messages';

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
      ctx: WriteContext,
      input: { dialogueId: string; namespace?: string; message: MessageInput },
    ): Promise<MessageRecord> {
      const dialogue = await dialogueFor(tx, ctx, input.dialogueId, input.namespace, true);
      assertAcceptsMessages(dialogue, ctx);
      const { messages } = await appendMessages(tx, dialogue, [{ field: '', input: input.message }]);
      return messages[0]!;
    },

    /** POST /messages (D31): 1-100 messages, all or nothing. */
    async createBatch(
      tx: Executor,
      ctx: WriteContext,
      input: { dialogueId: string; namespace?: string; messages: MessageInput[] },
    ): Promise<{ dialogueId: string; items: MessageRecord[]; totalMessages: number }> {
      if (input.messages.length === 0) {
        throw new AppError('EMPTY_MESSAGE_ARRAY', 'messages must hold at least one message', [
          { field: 'messages', code: 'EMPTY_MESSAGE_ARRAY', message: 'at least one message' },
        ]);
      }
      assertMessageCount(input.messages.length, MAX_BATCH_MESSAGES);
      const dialogue = await dialogueFor(tx, ctx, input.dialogueId, input.namespace, true);
      assertAcceptsMessages(dialogue, ctx);
      const items = input.messages.map((message, index) => ({ field: `messages[${index}]`, input: message }));
      const appended = await appendMessages(tx, dialogue, items);
      return {
        dialogueId: dialogue.id,
        items: appended.messages,
        totalMessages: appended.dialogue.totalMessages,
      };
    },

    /** GET /messages (D32): oldest first unless `order=desc`. */
    async list(
      db: Executor,
      ctx: WriteContext,
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

    async get(db: Executor, ctx: WriteContext, locator: MessageLocator): Promise<MessageRecord> {
      await dialogueFor(db, ctx, locator.dialogueId, locator.namespace, false);
      const row = await repo.findMessage(db, ctx.projectId, locator.dialogueId, locator.messageId);
      if (!row) throw messageNotFound(locator);
      return toMessageRecord(row);
    },

    /** D33: tags are the only thing about a message that changes. */
    async updateTags(
      tx: Executor,
      ctx: WriteContext,
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
      ctx: WriteContext,
      locator: MessageLocator,
    ): Promise<{ success: true; id: string; dialogueId: string }> {
      const dialogue = await dialogueFor(tx, ctx, locator.dialogueId, locator.namespace, true);
      refuseIfImmutable(ctx);
      if (!(await repo.deleteMessage(tx, ctx.projectId, dialogue.id, locator.messageId))) {
        throw messageNotFound(locator);
      }
      // D35: the count and the latest `created` move in the deletion's own transaction.
      await dialogueRepo.subtractFromCounters(tx, ctx.projectId, dialogue.id, 1);
      // D23: the vector went with the row; a job still pending goes too.
      await deleteEmbeddingJob(tx, {
        projectId: ctx.projectId,
        objectType: 'message',
        dialogueId: dialogue.id,
        objectId: locator.messageId,
      });
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
