import type { ProjectSettings } from '../../core/context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Executor } from '../../db/client.js';
import { toDialogueRecord } from '../dialogues/records.js';
import type { EventOutbox } from '../events/outbox.js';
import { type NewEvent, dialogueEvent, memoryEvent, messageEvent } from '../events/records.js';
import { toMemoryView } from '../memories/records.js';
import { toMessageRecord } from '../messages/records.js';
import type { ProjectService } from '../projects/service.js';
import {
  type ExportedDialogue,
  type ExportedMemory,
  type ExportedMessage,
  type Position,
  dialoguePage,
  enqueueEmbeddings,
  insertDialogues,
  insertMemories,
  insertMessages,
  linkSummaryCoverage,
  linkThread,
  memoryPage,
  messagePage,
} from './repository.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type TransferCounts, bodyLineOf, headerLine } from './schemas.js';

// Backup and portability: a project's dialogues, messages, memories, state and
// summaries as JSON Lines (format in schemas.ts), and back into any database or project with
// ids, order, timestamps and content bytes preserved.

const PAGE = 500;

export class TransferError extends Error {
  override name = 'TransferError';
}

/**
 * What export and import use. D86: they are operator commands, not requests of a project: each
 * opens its own transaction (one read-only snapshot, one all-or-nothing import), outside the unit
 * of work; the caller numbers the events after the commit.
 */
export interface TransferDeps {
  /** The primary: only its transactions are used. */
  db: Pick<Database, 'transaction'>;
  /** The target project must exist; its settings shape the created events. */
  projects: Pick<ProjectService, 'settingsOf'>;
  /** D64: each imported object has its `created` event, written with it. */
  outbox: Pick<EventOutbox, 'record'>;
  /** D79: imported objects are queued for embedding only when an embedder is configured. */
  queueEmbeddings: boolean;
}

export function createTransferService({ db, projects, outbox, queueEmbeddings }: TransferDeps) {
  return {
    /** Writes a project as JSON Lines through `write` (one call per line, newline included). */
    exportProject: (projectId: string, write: (line: string) => Promise<void> | void) =>
      exportProject(db, projects, projectId, write),
    /**
     * Reads an export into `projectId` (which must exist; it may be another project, in another
     * database) in one transaction: all or nothing. Ids, timestamps, counters, state, summaries
     * and message content are kept as exported; messages keep their order. A truncated file (no
     * end line, or counts that differ) or an id that already exists in the project imports nothing.
     */
    async importProject(projectId: string, lines: AsyncIterable<string>): Promise<TransferCounts> {
      const settings = await projects.settingsOf(projectId);
      if (!settings) throw new TransferError(`Project ${projectId} does not exist`);
      const target = { projectId, settings, outbox };
      try {
        return await db.transaction((tx) => importLines(tx, target, lines, queueEmbeddings));
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new TransferError(
            `The export holds ids that already exist in project ${projectId}; nothing was imported`,
          );
        }
        throw error;
      }
    },
  };
}

export type TransferService = ReturnType<typeof createTransferService>;

async function exportProject(
  db: TransferDeps['db'],
  projects: TransferDeps['projects'],
  projectId: string,
  write: (line: string) => Promise<void> | void,
): Promise<TransferCounts> {
  if (!(await projects.settingsOf(projectId))) throw new TransferError(`Project ${projectId} does not exist`);
  const emit = (value: object) => write(`${JSON.stringify(value)}\n`);
  const counts: TransferCounts = { dialogues: 0, messages: 0, memories: 0 };
  // One snapshot for the whole export, so that counters and messages agree while writes go on.
  await db.transaction(
    async (tx) => {
      await emit({
        type: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        projectId,
        exportedAt: new Date().toISOString(),
      });
      for await (const dialogue of pages(
        (after) => dialoguePage(tx, projectId, after, PAGE),
        byCreatedAndId,
      )) {
        await emit({ type: 'dialogue', ...dialogue });
        counts.dialogues++;
        const messagesOf = (after?: { created: Date; seq: number }) =>
          messagePage(tx, projectId, dialogue.id, after, PAGE);
        for await (const { seq: _seq, ...message } of pages(messagesOf, (m) => ({
          created: m.created,
          seq: m.seq,
        }))) {
          await emit({ type: 'message', ...message });
          counts.messages++;
        }
      }
      for await (const memory of pages((after) => memoryPage(tx, projectId, after, PAGE), byCreatedAndId)) {
        await emit({ type: 'memory', ...memory });
        counts.memories++;
      }
      await emit({ type: 'end', counts });
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return counts;
}

const byCreatedAndId = (row: { created: Date; id: string }): Position => ({
  created: row.created,
  id: row.id,
});

/** Every row of a keyset-paged query. */
async function* pages<Row, Key>(
  page: (after: Key | undefined) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): AsyncGenerator<Row> {
  let after: Key | undefined;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < PAGE) return;
    after = keyOf(rows.at(-1)!);
  }
}

async function importLines(
  tx: Executor,
  {
    projectId,
    settings,
    outbox,
  }: { projectId: string; settings: ProjectSettings; outbox: Pick<EventOutbox, 'record'> },
  lines: AsyncIterable<string>,
  queueEmbeddings: boolean,
) {
  const counts: TransferCounts = { dialogues: 0, messages: 0, memories: 0 };
  const batch = {
    dialogues: [] as ExportedDialogue[],
    messages: [] as Omit<ExportedMessage, 'seq'>[],
    memories: [] as ExportedMemory[],
  };
  const threads: { id: string; threadOf: string }[] = [];
  const jobs: Parameters<typeof enqueueEmbeddings>[2] = [];
  /** In the file's order: a dialogue before its messages (D63). */
  const created: NewEvent[] = [];
  let expected: TransferCounts | undefined;
  let lineNumber = 0;
  let version: keyof typeof bodyLineOf | undefined;

  // Dialogues first, so that a message's dialogue is always written before it.
  const flush = async () => {
    await insertDialogues(tx, projectId, batch.dialogues.splice(0));
    await insertMessages(tx, projectId, batch.messages.splice(0));
    await insertMemories(tx, projectId, batch.memories.splice(0));
    const queued = jobs.splice(0);
    if (queueEmbeddings) await enqueueEmbeddings(tx, projectId, queued);
    await outbox.record(tx, projectId, created.splice(0));
  };

  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === '') continue;
    if (expected) throw new TransferError(`line ${lineNumber}: data after the end line`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new TransferError(`line ${lineNumber}: not JSON`);
    }
    if (version === undefined) {
      const header = headerLine.safeParse(value);
      if (!header.success) {
        throw new TransferError(
          `line ${lineNumber}: not a ${EXPORT_FORMAT} file of version 1 to ${EXPORT_VERSION}`,
        );
      }
      version = header.data.version;
      continue;
    }
    const parsed = bodyLineOf[version].safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new TransferError(`line ${lineNumber}: ${issue.path.join('.') || 'line'}: ${issue.message}`);
    }
    const line = parsed.data;
    if (line.type === 'dialogue') {
      const { type: _type, ...dialogue } = line;
      batch.dialogues.push(dialogue);
      if (dialogue.threadOf) threads.push({ id: dialogue.id, threadOf: dialogue.threadOf });
      // Summary records are not part of an export: an imported summary is the dialogue's alone.
      created.push(
        dialogueEvent(
          'dialogue.created',
          toDialogueRecord({ ...dialogue, projectId, summaryId: null }, settings),
        ),
      );
      jobs.push({ objectType: 'dialogue', dialogueId: '', objectId: dialogue.id });
      counts.dialogues++;
    } else if (line.type === 'message') {
      const { type: _type, ...message } = line;
      batch.messages.push(message);
      created.push(messageEvent('message.created', toMessageRecord(message)));
      jobs.push({ objectType: 'message', dialogueId: message.dialogueId, objectId: message.id });
      counts.messages++;
    } else if (line.type === 'memory') {
      const { type: _type, ...memory } = line;
      batch.memories.push(memory);
      created.push(memoryEvent('memory.created', toMemoryView({ ...memory, projectId })));
      jobs.push({ objectType: 'memory', dialogueId: '', objectId: memory.id });
      counts.memories++;
    } else {
      expected = line.counts;
    }
    if (batch.dialogues.length + batch.messages.length + batch.memories.length >= PAGE) await flush();
  }

  if (version === undefined) throw new TransferError('the file is empty');
  if (!expected)
    throw new TransferError('the file ends without its end line: it is truncated; nothing was imported');
  await flush();
  for (const thread of threads) await linkThread(tx, projectId, thread.id, thread.threadOf);
  await linkSummaryCoverage(tx, projectId);
  if (JSON.stringify(expected) !== JSON.stringify(counts)) {
    throw new TransferError(
      `the end line announces ${JSON.stringify(expected)} but the file holds ${JSON.stringify(counts)}`,
    );
  }
  return counts;
}
