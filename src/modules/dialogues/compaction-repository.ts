import type { MessageRole } from '../../core/fields.js';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { messages } from '../../db/schema.js';

// Queries of compaction (D22). A summary covers the messages stored up to the one its
// `upToMessageId` names: newer messages are those with a larger insertion sequence.

const inDialogue = (projectId: string, dialogueId: string) =>
  and(eq(messages.projectId, projectId), eq(messages.dialogueId, dialogueId));

export interface MessageText {
  id: string;
  seq: number;
  role: MessageRole;
  name: string | null;
  /** The plain text drawn from the content when it was stored. */
  text: string;
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

/** How many of the given insertion sequences still name a message of the dialogue. */
export async function countMessagesBySeq(
  db: Executor,
  projectId: string,
  dialogueId: string,
  seqs: number[],
): Promise<number> {
  if (seqs.length === 0) return 0;
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(inDialogue(projectId, dialogueId), inArray(messages.seq, seqs)));
  return Number(row?.count ?? 0);
}
