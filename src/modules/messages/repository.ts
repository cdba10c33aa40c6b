import { type SQL, and, asc, desc, eq, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { beyondPosition } from '../../db/keyset.js';
import { messages } from '../../db/schema.js';
import { changeTime } from '../dialogues/repository.js';

// Drizzle queries of the messages table. Every query names project_id and dialogue_id (D46, D49).

const recordColumns = {
  dialogueId: messages.dialogueId,
  id: messages.id,
  seq: messages.seq,
  namespace: messages.namespace,
  role: messages.role,
  content: messages.content,
  contentLength: messages.contentLength,
  name: messages.name,
  tags: messages.tags,
  metadata: messages.metadata,
  created: messages.created,
  modified: messages.modified,
};

export type MessageRow = {
  [K in keyof typeof recordColumns]: (typeof messages.$inferSelect)[K];
};

/** `created` may be an SQL expression (the clock read inside the transaction). */
export type NewMessageRow = Omit<typeof messages.$inferInsert, 'seq' | 'created'> & { created: Date | SQL };

const inDialogue = (projectId: string, dialogueId: string) =>
  and(eq(messages.projectId, projectId), eq(messages.dialogueId, dialogueId));

const byId = (projectId: string, dialogueId: string, id: string) =>
  and(inDialogue(projectId, dialogueId), eq(messages.id, id));

/**
 * Inserts the rows in the given order (their `seq` follows it, D29). Rows whose id is already
 * taken in the dialogue are skipped: the caller compares what came back with what it sent.
 */
export async function insertMessages(tx: Executor, rows: NewMessageRow[]): Promise<MessageRow[]> {
  return tx
    .insert(messages)
    .values(rows)
    .onConflictDoNothing({ target: [messages.projectId, messages.dialogueId, messages.id] })
    .returning(recordColumns);
}

export async function findMessage(db: Executor, projectId: string, dialogueId: string, id: string) {
  const [row] = await db
    .select(recordColumns)
    .from(messages)
    .where(byId(projectId, dialogueId, id));
  return row;
}

export async function updateMessageTags(
  tx: Executor,
  projectId: string,
  dialogueId: string,
  id: string,
  tags: string[],
): Promise<MessageRow | undefined> {
  const [row] = await tx
    .update(messages)
    .set({ tags, modified: changeTime })
    .where(byId(projectId, dialogueId, id))
    .returning(recordColumns);
  return row;
}

export async function deleteMessage(tx: Executor, projectId: string, dialogueId: string, id: string) {
  const rows = await tx
    .delete(messages)
    .where(byId(projectId, dialogueId, id))
    .returning({ id: messages.id });
  return rows.length === 1;
}

export interface MessagePage {
  order: 'asc' | 'desc';
  limit: number;
  /** The sort key of the last message of the previous page. */
  after?: { created: string; seq: number };
}

/** D29, D32: ordered by `created`, ties by insertion order, keyset-paginated on (created, seq). */
export async function listMessages(
  db: Executor,
  projectId: string,
  dialogueId: string,
  page: MessagePage,
): Promise<MessageRow[]> {
  const conditions: (SQL | undefined)[] = [inDialogue(projectId, dialogueId)];
  const after = page.after && { created: page.after.created, tiebreak: page.after.seq };
  conditions.push(beyondPosition(messages.created, messages.seq, after, page.order));
  const direction = page.order === 'asc' ? asc : desc;
  return db
    .select(recordColumns)
    .from(messages)
    .where(and(...conditions))
    .orderBy(direction(messages.created), direction(messages.seq))
    .limit(page.limit);
}

/** Messages by (dialogue, id), for search results. */
export async function findMessagesByKeys(
  db: Executor,
  projectId: string,
  keys: { dialogueId: string; id: string }[],
): Promise<MessageRow[]> {
  if (keys.length === 0) return [];
  return db
    .select(recordColumns)
    .from(messages)
    .where(
      and(
        eq(messages.projectId, projectId),
        or(...keys.map((key) => and(eq(messages.dialogueId, key.dialogueId), eq(messages.id, key.id)))),
      ),
    );
}
