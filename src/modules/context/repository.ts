import { and, eq, gt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type KeysetPosition, keysetPage } from '../../db/keyset.js';
import { messages } from '../../db/schema.js';

// D81: the messages a context is made of, newest first, read page by page until the budget is spent.

export interface ContextMessageRow {
  id: string;
  seq: number;
  role: (typeof messages.role.enumValues)[number];
  name: string | null;
  /** The stored JSON text of the content (D28). */
  content: string;
  /** The plain text drawn from the content when it was stored. */
  text: string;
  created: Date;
}

/**
 * The messages of a dialogue stored after insertion sequence `afterSeq` (those its summary does not
 * cover), newest first in dialogue order (D29), `limit` of them from just before `before`.
 */
export async function newestMessagesAfter(
  db: Executor,
  projectId: string,
  dialogueId: string,
  afterSeq: number,
  before: KeysetPosition | undefined,
  limit: number,
): Promise<ContextMessageRow[]> {
  const page = keysetPage(messages.created, messages.seq, before, 'desc');
  return db
    .select({
      id: messages.id,
      seq: messages.seq,
      role: messages.role,
      name: messages.name,
      content: messages.content,
      text: messages.searchText,
      created: messages.created,
    })
    .from(messages)
    .where(
      and(
        eq(messages.projectId, projectId),
        eq(messages.dialogueId, dialogueId),
        gt(messages.seq, afterSeq),
        page.beyond,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(limit);
}
