import { type SQL, and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { MessageRole } from '../../core/fields.js';
import type { Executor } from '../../db/client.js';
import { messages } from '../../db/schema.js';
import { contentTextOf } from '../../lib/content-text.js';
import type { MessageKey } from './repository.js';

// Queries of compaction (D22) and of summaries (D56). A summary of the whole dialogue covers the
// messages stored up to the one its `upToMessageId` names: newer messages are those with a larger
// insertion sequence. A summary of a range covers the messages between two, in dialogue order.

const inDialogue = (projectId: string, dialogueId: string) =>
  and(eq(messages.projectId, projectId), eq(messages.dialogueId, dialogueId));

export interface MessageText {
  id: string;
  seq: number;
  role: MessageRole;
  name: string | null;
  created: Date;
  /** The plain text drawn from the content when it was stored (without its speaker, D179). */
  text: string;
}

const textColumns = {
  id: messages.id,
  seq: messages.seq,
  role: messages.role,
  name: messages.name,
  created: messages.created,
  text: messages.searchText,
};

/** The messages of the dialogue that match `where`, in dialogue order (D29). */
const textsWhere = async (
  db: Executor,
  projectId: string,
  dialogueId: string,
  where: SQL | undefined,
): Promise<MessageText[]> => {
  const rows = await db
    .select(textColumns)
    .from(messages)
    .where(and(inDialogue(projectId, dialogueId), where))
    .orderBy(asc(messages.created), asc(messages.seq));
  // The search text ends with the speaker's name (D179); a summary names speakers on its own.
  return rows.map((row) => ({ ...row, text: contentTextOf(row.text, row.name) }));
};

/** The messages stored after `afterSeq`, in dialogue order (D29): only the text a summary needs. */
export async function messagesAfter(
  db: Executor,
  projectId: string,
  dialogueId: string,
  afterSeq: number,
): Promise<MessageText[]> {
  return textsWhere(db, projectId, dialogueId, gt(messages.seq, afterSeq));
}

/** Where the message stands in its dialogue's order; undefined when the dialogue does not hold it. */
export async function findMessageKey(
  db: Executor,
  projectId: string,
  dialogueId: string,
  id: string,
): Promise<MessageKey | undefined> {
  const [row] = await db
    .select({ created: messages.created, seq: messages.seq })
    .from(messages)
    .where(and(inDialogue(projectId, dialogueId), eq(messages.id, id)));
  return row;
}

/** The messages from `first` to `last` inclusive in dialogue order (D29); a missing end is open. */
export async function messagesBetween(
  db: Executor,
  projectId: string,
  dialogueId: string,
  first: MessageKey | undefined,
  last: MessageKey | undefined,
): Promise<MessageText[]> {
  const key = (at: MessageKey) => sql`(${at.created.toISOString()}::timestamptz, ${at.seq}::bigint)`;
  const position = sql`(${messages.created}, ${messages.seq})`;
  return textsWhere(
    db,
    projectId,
    dialogueId,
    and(first && sql`${position} >= ${key(first)}`, last && sql`${position} <= ${key(last)}`),
  );
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
