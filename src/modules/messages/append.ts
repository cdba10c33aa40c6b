import type { Executor } from '../../db/client.js';
import { AppError, type ErrorCode, type ErrorDetail } from '../../core/errors.js';
import type { RawJson } from '../../core/raw-json.js';
import type { ProjectContext } from '../../core/context.js';
import { messageSearchText } from '../../lib/content-text.js';
import { newId } from '../../lib/ids.js';
import { expiryCutoff } from '../dialogues/records.js';
import { assertAcceptsMessages } from '../dialogues/rules.js';
import type { DialogueRef, DialogueScope } from '../dialogues/scope.js';
import type { EventOutbox } from '../events/outbox.js';
import type { WriteTx } from '../../db/unit-of-work.js';
import type { SQL } from 'drizzle-orm';
import * as repo from './repository.js';
import type { MessageRecord } from './schemas.js';
import { type FieldedInput, toMessageRecord } from './records.js';

// Adding messages to a dialogue (D16, D19, D27-D31, D35): shared by message creation, batch
// creation, and dialogue creation and update. The common case costs one statement
// (repository.insertIntoDialogue); the lookups that name an error run only when something is wrong.

/** D28: 1 MiB. */
const MAX_CONTENT_BYTES = 1_048_576;

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
  /** The parsed content. */
  value: unknown;
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
  return { length, value };
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

/**
 * Why a dialogue refuses messages, as the error its decision names: not found (D34), ended, expired
 * (D24). The append statement only says that it refused; this runs on that rare path, and before
 * refusing messages that failed their checks, so that the dialogue's own error comes first.
 */
async function explainRefusal(
  scope: DialogueScope,
  tx: Executor,
  ctx: ProjectContext,
  target: DialogueRef,
): Promise<void> {
  assertAcceptsMessages(await scope.find(tx, ctx, target), ctx);
}

/** The dialogue's counters after an append and the stored messages, in order. */
export interface AppendedMessages {
  counters: repo.Appended['counters'];
  messages: MessageRecord[];
}

const targetOf = (ctx: ProjectContext, dialogue: DialogueRef): repo.AppendTarget => ({
  projectId: ctx.projectId,
  dialogueId: dialogue.id,
  namespace: dialogue.namespace ?? null,
  expiredBefore: expiryCutoff(ctx.settings),
});

/** The messages ready to store; throws their failed checks, after the dialogue's own error. */
async function checkedRows(
  scope: DialogueScope,
  db: Executor,
  ctx: ProjectContext,
  dialogue: DialogueRef,
  items: FieldedInput[],
): Promise<repo.NewMessage[]> {
  const { rows, details } = toNewMessages(items);
  if (details.length > 0) {
    await explainRefusal(scope, db, ctx, dialogue);
    throwDetails(details);
  }
  return rows;
}

function toNewMessages(items: FieldedInput[]): { rows: repo.NewMessage[]; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const seenIds = new Set<string>();
  const rows: repo.NewMessage[] = [];
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
      id: input.id ?? newId('msg'),
      role: input.role,
      content: input.content.text,
      contentLength: checked.length,
      name: input.name ?? null,
      tags: input.tags ?? [],
      metadata: input.metadata ?? null,
      searchText: messageSearchText(checked.value, input.name),
      created: input.created !== undefined ? new Date(input.created) : null,
    });
  }
  return { rows, details };
}

/**
 * Adds 1 or more messages to an active dialogue: all of them or none (D31), in the given order
 * (D29), with the dialogue's counters moved and the embedding jobs enqueued in the same
 * statement (D35, D40; no jobs without an embedder, D79). Returns the dialogue's counters after
 * the append and the stored messages. Immutability (D25) is the caller's rule: creating a
 * dialogue with messages is allowed.
 */
export async function appendMessages(
  scope: DialogueScope,
  tx: Executor,
  ctx: ProjectContext,
  dialogue: DialogueRef,
  items: FieldedInput[],
  options: Omit<repo.AppendOptions, 'events'>,
  outbox: Pick<EventOutbox, 'reserve'>,
): Promise<AppendedMessages> {
  const rows = await checkedRows(scope, tx, ctx, dialogue, items);
  // D63, D64: a `message.created` event per message, written by the append itself.
  const events = outbox.reserve(tx, rows.length);
  const appended = await repo.insertIntoDialogue(tx, targetOf(ctx, dialogue), rows, { ...options, events });
  if (!appended) {
    await explainRefusal(scope, tx, ctx, dialogue);
    // It refused a moment ago and takes messages now (it was changed in between): let the client retry.
    throw new AppError('RESOURCE_CONFLICT', `Dialogue ${dialogue.id} changed during this request; retry it`);
  }
  if (appended.messages.length < rows.length) {
    // D27: ids are unique within the dialogue. Throwing rolls the whole request back (D31).
    const stored = new Set(appended.messages.map((row) => row.id));
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
  return { counters: appended.counters, messages: appended.messages.map(toMessageRecord) };
}

/**
 * D174: `appendMessages` as one statement run alone on `db`, outside any transaction, with the
 * write's guards in it; not on Citus. Undefined when it changed nothing (the dialogue refuses, an
 * id is taken): the caller then runs `appendMessages` in a transaction, which names the error.
 * Messages that fail their checks are refused here as there, before any write.
 */
export async function appendMessagesAlone(
  scope: DialogueScope,
  db: WriteTx,
  ctx: ProjectContext,
  dialogue: DialogueRef,
  items: FieldedInput[],
  options: Omit<repo.AppendOptions, 'events' | 'distributed'>,
  outbox: Pick<EventOutbox, 'reserve'>,
  guards: SQL[],
): Promise<AppendedMessages | undefined> {
  const rows = await checkedRows(scope, db, ctx, dialogue, items);
  const events = outbox.reserve(db, rows.length);
  const appended = await repo.appendAlone(db, targetOf(ctx, dialogue), rows, { ...options, events }, guards);
  return appended && { counters: appended.counters, messages: appended.messages.map(toMessageRecord) };
}
