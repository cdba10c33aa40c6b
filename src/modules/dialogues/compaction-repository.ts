import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { messages } from '../../db/schema.js';

// Queries of compaction (D22). A summary covers the messages stored up to the one its
// `upToMessageId` names: newer messages are those with a larger insertion sequence.

const inDialogue = (projectId: string, dialogueId: string) =>
  and(eq(messages.projectId, projectId), eq(messages.dialogueId, dialogueId));

export interface MessageText {
  id: string;
  seq: number;
  role: 'user' | 'assistant' | 'system';
  name: string | null;
  /** The plain text drawn from the content when it was stored. */
  text: string;
}

/** The insertion sequence of a message, when it still exists. */
export async function messageSeq(
  db: Executor,
  projectId: string,
  dialogueId: string,
  messageId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ seq: messages.seq })
    .from(messages)
    .where(and(inDialogue(projectId, dialogueId), eq(messages.id, messageId)));
  return row?.seq;
}

/** The messages stored after `afterSeq`, in dialogue order (D29): only the text a summary needs. */
export async function messagesAfter(
  db: Executor,
  projectId: string,
  dialogueId: string,
  afterSeq: number,
): Promise<MessageText[]> {
  return db
    .select({
      id: messages.id,
      seq: messages.seq,
      role: messages.role,
      name: messages.name,
      text: messages.searchText,
    })
    .from(messages)
    .where(and(inDialogue(projectId, dialogueId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.created), asc(messages.seq));
}

export async function hasMessagesAfter(
  db: Executor,
  projectId: string,
  dialogueId: string,
  afterSeq: number,
): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(messages)
    .where(and(inDialogue(projectId, dialogueId), gt(messages.seq, afterSeq)))
    .limit(1);
  return rows.length > 0;
}
