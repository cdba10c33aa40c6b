import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { keysetPage } from '../../db/keyset.js';
import { dialogues, embeddingJobs, memories, messages } from '../../db/schema.js';
import { liveDialogue } from '../dialogues/expiry-sql.js';
import { recordColumns as dialogueRecord } from '../dialogues/record-sql.js';
import { liveMemory } from '../memories/expiry-sql.js';
import { recordColumns as memoryRecord } from '../memories/record-sql.js';
import { recordColumns as messageRecordColumns } from '../messages/record-sql.js';
import { countTexts } from '../search/terms-sql.js';

// Queries of `parley export` / `parley import`: keyset pages in the order the API lists things
// (D26, D29), and plain inserts that keep every stored value as it is.

type DialogueRow = typeof dialogues.$inferSelect;
type MessageRow = typeof messages.$inferSelect;
type MemoryRow = typeof memories.$inferSelect;

// The columns copied: a record's columns (the project is the one imported into) plus the search
// text, never generated columns or embeddings (remade by the queue).
// A summary's coverage is an insertion sequence of this database: it is found again after import.
// Summary records (D56) are not carried over: an imported summary links to none.
const {
  projectId: _dialogueProject,
  summaryCoversSeq: _coverage,
  summaryId: _summaryRecord,
  ...dialogueRecordColumns
} = dialogueRecord;
const dialogueColumns = { ...dialogueRecordColumns, searchText: dialogues.searchText };
export type ExportedDialogue = { [K in keyof typeof dialogueColumns]: DialogueRow[K] };

const messageColumns = { ...messageRecordColumns, searchText: messages.searchText };
export type ExportedMessage = { [K in keyof typeof messageColumns]: MessageRow[K] };

const { projectId: _memoryProject, ...memoryRecordColumns } = memoryRecord;
const memoryColumns = { ...memoryRecordColumns, searchText: memories.searchText };
export type ExportedMemory = { [K in keyof typeof memoryColumns]: MemoryRow[K] };

export interface Position {
  created: Date;
  id: string;
}

export async function dialoguePage(
  db: Executor,
  projectId: string,
  after: Position | undefined,
  limit: number,
) {
  const page = keysetPage(
    dialogues.created,
    dialogues.id,
    after && { created: after.created, tiebreak: after.id },
  );
  return (
    db
      .select(dialogueColumns)
      .from(dialogues)
      // D150: an expired dialogue is not exported (its messages are read per exported dialogue).
      .where(and(eq(dialogues.projectId, projectId), liveDialogue, page.beyond))
      .orderBy(...page.orderBy)
      .limit(limit)
  );
}

/** Messages of one dialogue in their order (D29: `created`, ties by insertion order). */
export async function messagePage(
  db: Executor,
  projectId: string,
  dialogueId: string,
  after: { created: Date; seq: number } | undefined,
  limit: number,
) {
  const page = keysetPage(
    messages.created,
    messages.seq,
    after && { created: after.created, tiebreak: after.seq },
  );
  return db
    .select(messageColumns)
    .from(messages)
    .where(and(eq(messages.projectId, projectId), eq(messages.dialogueId, dialogueId), page.beyond))
    .orderBy(...page.orderBy)
    .limit(limit);
}

export async function memoryPage(
  db: Executor,
  projectId: string,
  after: Position | undefined,
  limit: number,
) {
  const page = keysetPage(
    memories.created,
    memories.id,
    after && { created: after.created, tiebreak: after.id },
  );
  return db
    .select(memoryColumns)
    .from(memories)
    .where(and(eq(memories.projectId, projectId), liveMemory, page.beyond))
    .orderBy(...page.orderBy)
    .limit(limit);
}

/**
 * D73: the imported summaries' coverage, as insertion sequences of this database: up to the
 * message each summary's `upToMessageId` names (none found: the summary counts as covering all).
 */
export async function linkSummaryCoverage(tx: Executor, projectId: string) {
  await tx.execute(sql`
    UPDATE dialogues AS d SET summary_covers_seq = m.seq
    FROM messages AS m
    WHERE d.project_id = ${projectId} AND d.summary IS NOT NULL AND d.summary_covers_seq IS NULL
      AND m.project_id = d.project_id AND m.dialogue_id = d.id AND m.id = d.summary->>'upToMessageId'`);
}

/** Threads are inserted without their parent link first, then linked (a thread may sort first). */
export async function insertDialogues(db: Executor, projectId: string, rows: ExportedDialogue[]) {
  if (rows.length === 0) return;
  await db.insert(dialogues).values(rows.map((row) => ({ ...row, threadOf: null, projectId })));
  await countTexts(
    db,
    projectId,
    'dialogue',
    rows.map((row) => ({ namespace: row.namespace, bucketKey: row.id, text: row.searchText })),
  );
}

export async function linkThread(db: Executor, projectId: string, id: string, threadOf: string) {
  await db
    .update(dialogues)
    .set({ threadOf })
    .where(and(eq(dialogues.projectId, projectId), eq(dialogues.id, id)));
}

/** `seq` is generated anew: inserting in exported order keeps the order of equal `created` values. */
export async function insertMessages(db: Executor, projectId: string, rows: Omit<ExportedMessage, 'seq'>[]) {
  if (rows.length === 0) return;
  await db.insert(messages).values(rows.map((row) => ({ ...row, projectId })));
  await countTexts(
    db,
    projectId,
    'message',
    rows.map((row) => ({ namespace: row.namespace, bucketKey: row.dialogueId, text: row.searchText })),
  );
}

export async function insertMemories(db: Executor, projectId: string, rows: ExportedMemory[]) {
  if (rows.length === 0) return;
  await db.insert(memories).values(rows.map((row) => ({ ...row, projectId })));
  await countTexts(
    db,
    projectId,
    'memory',
    rows.map((row) => ({ namespace: row.namespace, bucketKey: row.id, text: row.searchText })),
  );
}

/** D40: imported objects get their embeddings through the queue, like any write. */
export async function enqueueEmbeddings(
  db: Executor,
  projectId: string,
  jobs: { objectType: 'message' | 'dialogue' | 'memory'; dialogueId: string; objectId: string }[],
) {
  if (jobs.length === 0) return;
  await db
    .insert(embeddingJobs)
    .values(jobs.map((job) => ({ ...job, projectId })))
    .onConflictDoNothing();
}

/** Which of `ids` the project holds already (a resumed `import-dialoguedb` skips them). */
export async function existingIds(
  db: Executor,
  projectId: string,
  table: 'dialogues' | 'memories',
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const t = table === 'dialogues' ? dialogues : memories;
  const rows = await db
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.projectId, projectId), inArray(t.id, ids)));
  return new Set(rows.map((row) => row.id));
}
