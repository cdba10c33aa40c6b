import { and, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { keysetPage, seqPositionPlaceholders } from '../../db/keyset.js';
import { builtOnce } from '../../db/prepared.js';
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

const contextPageName = (shape: { before: boolean }) => (shape.before ? 'before' : 'first');

/**
 * Every context request reads its pages with it (src/db/prepared.ts, builtOnce): the first page,
 * and the pages after one (`before`).
 */
const newestQuery = builtOnce((db, shape: { before: boolean }) => {
  const before = shape.before ? seqPositionPlaceholders('before') : undefined;
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
        eq(messages.projectId, sql.placeholder('projectId')),
        eq(messages.dialogueId, sql.placeholder('dialogueId')),
        gt(messages.seq, sql.placeholder('afterSeq')),
        page.beyond,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(sql.placeholder('limit'))
    .prepare(`parley_context_page_${contextPageName(shape)}`);
}, contextPageName);

/**
 * The messages of a dialogue stored after insertion sequence `afterSeq` (those its summary does not
 * cover), newest first in dialogue order (D29), `limit` of them from just before `before`.
 */
export async function newestMessagesAfter(
  db: Executor,
  projectId: string,
  dialogueId: string,
  afterSeq: number,
  before: { created: Date; seq: number } | undefined,
  limit: number,
): Promise<ContextMessageRow[]> {
  return newestQuery(db, { before: before !== undefined }).execute({
    projectId,
    dialogueId,
    afterSeq,
    limit,
    beforeCreated: before?.created.toISOString(),
    beforeSeq: before?.seq,
  });
}
