import type { Executor } from '../../db/client.js';
import { AppError, type ErrorCode, type ErrorDetail } from '../../http/errors.js';
import type { RawJson } from '../../http/raw-json.js';
import type { WriteContext } from '../../http/writes.js';
import { contentText } from '../../lib/content-text.js';
import { newId } from '../../lib/ids.js';
import { isExpired } from '../dialogues/records.js';
import * as dialogueRepo from '../dialogues/repository.js';
import { enqueueEmbedding } from '../embeddings/repository.js';
import * as repo from './repository.js';
import type { MessageRecord } from './schemas.js';
import { type FieldedInput, toMessageRecord } from './records.js';

// Adding messages to a dialogue (D16, D19, D27-D31, D35): shared by message creation, batch
// creation, and dialogue creation and update.

/** D28: 1 MiB. */
export const MAX_CONTENT_BYTES = 1_048_576;

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
      created: input.created !== undefined ? new Date(input.created) : dialogueRepo.changeTime,
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

/** D25: after creation, a dialogue of an immutable project and its messages do not change. */
export function refuseIfImmutable(ctx: WriteContext): void {
  if (ctx.settings.immutableDialogues) {
    throw new AppError('DIALOGUE_IMMUTABLE', 'Dialogues of this project cannot be changed after creation');
  }
}
