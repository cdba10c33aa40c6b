import { type Placeholder, type SQL, and, eq, gte, lt, or, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { decodeColumns } from '../../db/decode.js';
import { keysetPage, seqPositionPlaceholders } from '../../db/keyset.js';
import { builtOnce, executePrepared } from '../../db/prepared.js';
import { isStandaloneRefusal, isUniqueViolation } from '../../db/errors.js';
import { dialogues, messages, retentionTime } from '../../db/schema.js';
import { changeTime } from '../dialogues/change-time-sql.js';
import { liveDialogueAs } from '../dialogues/expiry-sql.js';
import { type NamespaceScope, type RuleRows, inNamespaceScope, spanOf } from '../../db/retention-sql.js';
import { enqueueJobsFrom, jobValues } from '../embeddings/job-sql.js';
import { type EventReservation, insertEventsFrom, insertNumberedEventsFrom } from '../events/insert-sql.js';
import { notErasing } from '../erasures/erasing-sql.js';
import { recordColumns } from './record-sql.js';
import { countTermsFrom, countTexts, recountTerms, termBucket } from '../search/terms-sql.js';

// Drizzle queries of the messages table. Every query names project_id and dialogue_id (D46, D49).

const recordColumnsOf = (alias?: string) =>
  sql.raw(
    Object.values(recordColumns)
      .map((column) => (alias ? `${alias}.${column.name}` : column.name))
      .join(', '),
  );
const recordColumnNames = recordColumnsOf();

export type MessageRow = {
  [K in keyof typeof recordColumns]: (typeof messages.$inferSelect)[K];
};

const inDialogue = (projectId: string | Placeholder, dialogueId: string | Placeholder) =>
  and(eq(messages.projectId, projectId), eq(messages.dialogueId, dialogueId));

const byId = (projectId: string, dialogueId: string, id: string) =>
  and(inDialogue(projectId, dialogueId), eq(messages.id, id));

/** A message ready to be stored: checked, with its id and its search text (D27-D30). */
export interface NewMessage {
  id: string;
  role: MessageRow['role'];
  /** The JSON text of the content exactly as sent (D28). */
  content: string;
  contentLength: number;
  name: string | null;
  tags: string[];
  metadata: Record<string, unknown> | null;
  searchText: string;
  /** The client's own `created` (D30); null for the time of the append. */
  created: Date | null;
}

/** The dialogue an append goes to, with the conditions under which it takes messages. */
export interface AppendTarget {
  projectId: string;
  dialogueId: string;
  /** D34: the namespace the request names; a dialogue of another one is not a match. */
  namespace: string | null;
  /** D24: a dialogue last changed before this moment has expired; null when none expire. */
  expiredBefore: Date | null;
}

const counterColumns = {
  totalMessages: dialogues.totalMessages,
  lastMessageCreated: dialogues.lastMessageCreated,
  modified: dialogues.modified,
};

export interface Appended {
  /** The dialogue's counters after the append (D35). */
  counters: ReturnType<typeof decodeColumns<typeof counterColumns>>;
  /** The stored messages in order; fewer than given when some ids were taken already (D27). */
  messages: MessageRow[];
}

const messageTuple = (message: NewMessage, ord: number) => sql`(
  ${ord}::int, ${message.id}::text, ${message.role}::text, ${message.content}::text,
  ${message.contentLength}::int, ${message.name}::text, ${JSON.stringify(message.tags)}::jsonb,
  ${message.metadata === null ? null : JSON.stringify(message.metadata)}::jsonb,
  ${message.searchText}::text, ${message.created?.toISOString() ?? null}::timestamptz)`;

/**
 * The time of an append: the transaction's, never earlier than the dialogue's last change, read
 * on the locked row (changeTime). Appends to one dialogue then get non-decreasing times in commit
 * order, and their `seq` values, drawn after the lock, break ties in commit order too (D32).
 */
const appendTime = changeTime;

/**
 * The dialogue part of an append (D35): its row locked, its counters moved, when it takes
 * messages (not ended, not expired, in the named namespace). Returns the row, or nothing.
 */
function lockAndCount(target: AppendTarget, rows: NewMessage[]): SQL {
  const explicit = rows.flatMap((row) => (row.created ? [row.created.getTime()] : []));
  const latestExplicit = explicit.length > 0 ? new Date(Math.max(...explicit)).toISOString() : null;
  const anyAtAppendTime = explicit.length < rows.length;
  return sql`      UPDATE dialogues SET
        total_messages = total_messages + ${rows.length}::int,
        -- One time for both columns (and for the messages below).
        modified = ${appendTime},
        -- The append time counts only when a message takes it (not in a CASE: Citus refuses
        -- functions that are not immutable there).
        last_message_created = greatest(last_message_created, ${latestExplicit}::timestamptz${
          anyAtAppendTime ? sql`, ${appendTime}` : sql``
        })
      WHERE project_id = ${target.projectId} AND id = ${target.dialogueId}
        AND namespace IS NOT DISTINCT FROM ${target.namespace}::text AND status <> 'ended'
        AND (expires_at IS NULL OR expires_at > now())
        -- D163: a dialogue of a namespace being erased takes no messages.
        AND ${notErasing(target.projectId, sql`${target.namespace}::text`)}
        AND (${target.expiredBefore?.toISOString() ?? null}::timestamptz IS NULL OR status <> 'active'
             OR modified >= ${target.expiredBefore?.toISOString() ?? null}::timestamptz)`;
}

/**
 * D63, D64: the WITH items of the append that write a `message.created` event per message stored
 * (`m`), in the messages' order; numbered at once on the embedded store (D191).
 */
function messageEvents(projectId: string, events: EventReservation): SQL {
  const rows = sql`SELECT ${projectId}::text,
        (ARRAY[${sql.join(
          events.ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::text[])[row_number() OVER (ORDER BY m.seq)],
        'message.created', m.namespace, m.dialogue_id, m.id, NULL FROM m`;
  return events.numberAtInsert
    ? insertNumberedEventsFrom(projectId, rows)
    : sql`e AS (
      ${insertEventsFrom(rows)}
    )`;
}

/**
 * The append statement of `insertIntoDialogue`, built and not run. Exported so that the
 * benchmark's database ceiling (bench/baseline-server.ts) issues exactly this statement without
 * Parley's code around it: the two cannot drift apart. Without `queueEmbeddings` (no embedder,
 * D79) the statement has no jobs part: a text of its own, prepared under a name of its own
 * (src/db/prepared.ts names a statement by its text).
 */
export function appendStatement(
  target: AppendTarget,
  rows: NewMessage[],
  { queueEmbeddings, events }: Pick<AppendOptions, 'queueEmbeddings' | 'events'>,
  guards?: SQL[],
): SQL {
  // D174: standalone, the guards' parts come first and the dialogue's lock waits for them.
  const guardParts = guards?.map((part, i) => sql`${sql.raw(`g${i}`)} AS (${part}), `) ?? [];
  return sql`
    WITH ${sql.join(guardParts, sql``)}d AS (
${lockAndCount(target, rows)}${sql.join(
  (guards ?? []).map(
    (_, i) => sql`
        AND EXISTS (SELECT FROM ${sql.raw(`g${i}`)})`,
  ),
  sql``,
)}
      RETURNING project_id, id, namespace, total_messages, last_message_created, modified
    ), m AS (
      INSERT INTO messages (project_id, dialogue_id, id, namespace, role, content, content_length,
                            name, tags, metadata, search_text, created, modified)
      SELECT d.project_id, d.id, v.id, d.namespace, v.role, v.content, v.content_length, v.name,
             ARRAY(SELECT jsonb_array_elements_text(v.tags)), v.metadata, v.search_text,
             coalesce(v.created, d.modified), d.modified
      FROM d CROSS JOIN (VALUES ${sql.join(rows.map(messageTuple), sql`, `)})
        AS v(ord, id, role, content, content_length, name, tags, metadata, search_text, created)
      ORDER BY v.ord
      -- In a transaction a taken id is skipped, and the caller names it and rolls back (D27);
      -- standalone (D174) nothing rolls back after the statement, so a taken id aborts it.
      ${guards ? sql`` : sql`ON CONFLICT (project_id, dialogue_id, id) DO NOTHING`}
      RETURNING ${recordColumnNames}, search_vector
    ), terms AS (
      ${countTermsFrom(sql`SELECT namespace, ${termBucket(sql`dialogue_id`)}, search_vector FROM m`, {
        projectId: target.projectId,
        objectType: 'message',
        sign: 1,
      })}
    )${events ? sql`, ${messageEvents(target.projectId, events)}` : sql``}${
      queueEmbeddings
        ? sql`, jobs AS (
      ${enqueueJobsFrom(sql`SELECT ${target.projectId}, 'message', dialogue_id, id FROM m`)}
    )`
        : sql``
    }
    SELECT d.total_messages AS d_total_messages, d.last_message_created AS d_last_message_created,
           d.modified AS d_modified, ${recordColumnsOf('m')}
    FROM ${
      // D174: standalone, a statement that did not write aborts itself, guards' counts and all
      // (the one row of `written` is always read: it is the preserved side of the join).
      guards
        ? sql`(SELECT parley_abort_unless(EXISTS (SELECT FROM d))) AS written LEFT JOIN d ON true`
        : sql`d`
    } LEFT JOIN m ON true
    ORDER BY m.seq`;
}

/**
 * Appends messages to a dialogue that takes them (not ended, not expired: the rule of
 * dialogues/rules.ts assertAcceptsMessages) in one statement (D29, D31, D35, D40): the dialogue row
 * is locked and its counters moved, the messages inserted in the given order, and their embedding
 * jobs enqueued. Messages without a `created` get the time read after the row lock, the same
 * value as the dialogue's `modified`: appends to one dialogue then get `created` in commit
 * order, so a cursor walk cannot miss one (D32). Undefined when the dialogue does not take
 * messages (missing, another namespace, ended, expired); the caller finds out which.
 * Runs inside the caller's transaction, which must roll back when messages come back missing.
 */
export async function insertIntoDialogue(
  tx: Executor,
  target: AppendTarget,
  rows: NewMessage[],
  options: AppendOptions,
): Promise<Appended | undefined> {
  if (options.distributed) return insertRoutedIntoDialogue(tx, target, rows, options);
  return appendedOf(await executePrepared(tx, appendStatement(target, rows, options)));
}

/**
 * D174: the append as one statement run alone, outside any transaction, with the write's guards
 * in it (`guards`, see appendStatement): every message or none. Undefined when it changed nothing:
 * the dialogue does not take messages, or an id is taken (the statement aborts). Not on Citus,
 * whose append is several routed statements (insertRoutedIntoDialogue).
 */
export async function appendAlone(
  db: Executor,
  target: AppendTarget,
  rows: NewMessage[],
  options: Omit<AppendOptions, 'distributed'>,
  guards: SQL[],
): Promise<Appended | undefined> {
  try {
    return appendedOf(await executePrepared(db, appendStatement(target, rows, options, guards)));
  } catch (error) {
    if (isUniqueViolation(error) || isStandaloneRefusal(error)) return undefined;
    throw error;
  }
}

function appendedOf(result: unknown): Appended | undefined {
  const raw = rowsOf<Record<string, unknown>>(result);
  if (raw.length === 0) return undefined;
  return {
    counters: decodeColumns(counterColumns, raw[0]!, 'd_'),
    messages: raw
      .filter((row) => row.id !== null)
      .map((row) => decodeColumns(recordColumns, row) as MessageRow),
  };
}

export interface AppendOptions {
  /** False without an embedder (D79): no embedding jobs are queued. */
  queueEmbeddings: boolean;
  /**
   * D63, D64: the `message.created` events the append writes, one per message in order; none are
   * written without them. Their data is left to the message row (the events' `data` column).
   */
  events?: EventReservation;
  /** On Citus: the append in statements that are each routed to the project's shard. */
  distributed: boolean;
}

/**
 * The append of `insertIntoDialogue` on Citus, in two to four statements of the same
 * transaction: Citus routes none of a statement with an INSERT in a WITH clause to one shard (it
 * runs the parts one after the other through the coordinator), while each of these is one task
 * on the worker that holds the project (test/citus/routing.test.ts). Same rows, same order, same
 * locks: the dialogue row first, then the messages in the given order (their `seq` values drawn
 * after the lock), then their events, then the jobs.
 */
async function insertRoutedIntoDialogue(
  tx: Executor,
  target: AppendTarget,
  rows: NewMessage[],
  { queueEmbeddings, events }: AppendOptions,
): Promise<Appended | undefined> {
  const [dialogue] = rowsOf<Record<string, unknown>>(
    await executePrepared(
      tx,
      sql`${lockAndCount(target, rows)}
      RETURNING total_messages, last_message_created, modified, namespace`,
    ),
  );
  if (!dialogue) return undefined;
  const counters = decodeColumns(counterColumns, dialogue);
  const stored = await tx
    .insert(messages)
    .values(
      rows.map((row) => ({
        projectId: target.projectId,
        dialogueId: target.dialogueId,
        id: row.id,
        namespace: dialogue.namespace as string | null,
        role: row.role,
        content: row.content,
        contentLength: row.contentLength,
        name: row.name,
        tags: row.tags,
        metadata: row.metadata,
        searchText: row.searchText,
        created: row.created ?? counters.modified,
        modified: counters.modified,
      })),
    )
    .onConflictDoNothing()
    .returning(recordColumns);
  stored.sort((a, b) => a.seq - b.seq);
  if (events && stored.length > 0) {
    await tx.execute(
      insertEventsFrom(
        sql`VALUES ${sql.join(
          stored.map(
            (row, index) =>
              sql`(${target.projectId}, ${events.ids[index]}, 'message.created', ${row.namespace}, ${target.dialogueId}, ${row.id}, NULL)`,
          ),
          sql`, `,
        )}`,
      ),
    );
  }
  if (stored.length > 0) {
    const textOf = new Map(rows.map((row) => [row.id, row.searchText]));
    await countTexts(
      tx,
      target.projectId,
      'message',
      stored.map((row) => ({
        namespace: row.namespace,
        bucketKey: target.dialogueId,
        text: textOf.get(row.id)!,
      })),
    );
  }
  if (queueEmbeddings && stored.length > 0) {
    await tx.execute(
      enqueueJobsFrom(
        jobValues(
          stored.map((row) => ({
            projectId: target.projectId,
            objectType: 'message' as const,
            dialogueId: target.dialogueId,
            objectId: row.id,
          })),
        ),
      ),
    );
  }
  return { counters, messages: stored };
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

/** Deletes a message; its insertion sequence, or undefined when there was no such message. */
export async function deleteMessage(
  tx: Executor,
  projectId: string,
  dialogueId: string,
  id: string,
): Promise<{ seq: number; created: Date } | undefined> {
  // D140: its words leave the search's counts in the same transaction.
  await recountTerms(
    tx,
    sql`SELECT namespace, ${termBucket(sql`dialogue_id`)}, search_vector FROM messages
      WHERE project_id = ${projectId} AND dialogue_id = ${dialogueId} AND id = ${id}`,
    { projectId, objectType: 'message', sign: -1 },
  );
  const [row] = await tx
    .delete(messages)
    .where(byId(projectId, dialogueId, id))
    .returning({ seq: messages.seq, created: messages.created });
  return row;
}

export interface MessagePage {
  /** D58: creation times from `createdFrom` (included) to `createdBefore` (excluded). */
  createdFrom?: Date;
  createdBefore?: Date;
  order: 'asc' | 'desc';
  limit: number;
  /** The sort key of the last message of the previous page. */
  after?: { created: string; seq: number };
}

/** Which clauses a page's query has: one text per combination, sixteen in all. */
interface PageShape {
  order: 'asc' | 'desc';
  after: boolean;
  from: boolean;
  before: boolean;
}

const pageShapeName = (shape: PageShape) =>
  `${shape.order}_${shape.after ? 'after' : 'first'}${shape.from ? '_from' : ''}${shape.before ? '_before' : ''}`;

/** Every page read runs one of them (src/db/prepared.ts, builtOnce), named by its shape. */
export const pageQuery = builtOnce((db, shape: PageShape) => {
  const after = shape.after ? seqPositionPlaceholders('after') : undefined;
  const keyset = keysetPage(messages.created, messages.seq, after, shape.order);
  return db
    .select(recordColumns)
    .from(messages)
    .where(
      and(
        inDialogue(sql.placeholder('projectId'), sql.placeholder('dialogueId')),
        shape.from ? gte(messages.created, sql.placeholder('from')) : undefined,
        shape.before ? lt(messages.created, sql.placeholder('before')) : undefined,
        keyset.beyond,
      ),
    )
    .orderBy(...keyset.orderBy)
    .limit(sql.placeholder('limit'))
    .prepare(`parley_list_messages_${pageShapeName(shape)}`);
}, pageShapeName);

/** D29, D32: ordered by `created`, ties by insertion order, keyset-paginated on (created, seq). */
export async function listMessages(
  db: Executor,
  projectId: string,
  dialogueId: string,
  page: MessagePage,
): Promise<MessageRow[]> {
  const { createdFrom: from, createdBefore: before, after } = page;
  const shape = {
    order: page.order,
    after: after !== undefined,
    from: from !== undefined,
    before: before !== undefined,
  };
  return pageQuery(db, shape).execute({
    projectId,
    dialogueId,
    limit: page.limit,
    // Placeholders take the driver's values: the timestamps as Drizzle's column would send them.
    from: from?.toISOString(),
    before: before?.toISOString(),
    afterCreated: after?.created,
    afterSeq: after?.seq,
  });
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
        inLiveDialogue(),
        // D163: search finds nothing of a namespace being erased.
        notErasing(messages.projectId, messages.namespace),
      ),
    );
}

/**
 * D150: the message's dialogue has not expired. With `idleBefore` (D151), the dialogue also
 * changed since then: a dialogue the idle rule erases whole is not counted again by its messages.
 */
const inLiveDialogue = (idleBefore?: Date) => sql`EXISTS (SELECT 1 FROM dialogues d
  WHERE d.project_id = ${messages.projectId} AND d.id = ${messages.dialogueId} AND ${liveDialogueAs('d')}${
    idleBefore ? sql` AND d.modified >= ${idleBefore.toISOString()}::timestamptz` : sql``
  })`;

/** D151: the messages a rule covers: of the scope, created before `before`, in a live dialogue. */
export interface OldMessages {
  scope: NamespaceScope;
  before: Date;
  /** The idle-dialogue rule of the same scope, when there is one. */
  idleBefore?: Date;
}

const oldIn = (projectId: string, rule: OldMessages) =>
  and(
    eq(messages.projectId, projectId),
    inNamespaceScope(messages.namespace, rule.scope),
    // The sweeper's own index (D184) serves this expression, and only it.
    lt(retentionTime(messages.created), retentionTime(sql`${rule.before.toISOString()}::timestamptz`)),
    inLiveDialogue(rule.idleBefore),
  );

/** D151: a rule's old messages, oldest first, with what erasing one needs. */
export const oldRows = (
  projectId: string,
  rule: OldMessages,
): RuleRows<{ dialogueId: string; id: string; namespace: string | null }> => {
  const where = oldIn(projectId, rule);
  return {
    next: (db, limit) =>
      db
        .select({ dialogueId: messages.dialogueId, id: messages.id, namespace: messages.namespace })
        .from(messages)
        .where(where)
        .orderBy(retentionTime(messages.created))
        .limit(limit),
    span: (db) => spanOf(db, messages, messages.created, where),
  };
};

/** D35: after a deletion the count drops and the latest `created` is found again among the rest. */
export async function countDeletedMessages(tx: Executor, projectId: string, id: string, removed: number) {
  await tx.execute(sql`
    UPDATE dialogues SET
      total_messages = total_messages - ${removed},
      last_message_created = (
        SELECT max(created) FROM messages WHERE project_id = ${projectId} AND dialogue_id = ${id}
      ),
      modified = ${changeTime}
    WHERE project_id = ${projectId} AND id = ${id}`);
}

/** D160: where a fork ends: its last message, and how many messages reach up to it. */
export interface ForkPoint {
  id: string;
  created: Date;
  seq: number;
  count: number;
}

const forkPointColumns = { id: messages.id, created: messages.created, seq: messages.seq };

/**
 * D160: the message a fork copies up to (the dialogue's last when `upTo` is undefined) and the
 * number of messages up to and including it, in (created, seq) order (D29). Undefined when the
 * dialogue has no such message (or none at all).
 */
export async function findForkPoint(
  tx: Executor,
  projectId: string,
  dialogueId: string,
  upTo: string | undefined,
): Promise<ForkPoint | undefined> {
  const point =
    upTo === undefined
      ? sql`SELECT id, created, seq FROM messages
            WHERE project_id = ${projectId} AND dialogue_id = ${dialogueId}
            ORDER BY created DESC, seq DESC LIMIT 1`
      : sql`SELECT id, created, seq FROM messages
            WHERE project_id = ${projectId} AND dialogue_id = ${dialogueId} AND id = ${upTo}`;
  const [raw] = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      SELECT p.id, p.created, p.seq, count(*)::int AS count
      FROM (${point}) AS p
      JOIN messages m ON m.project_id = ${projectId} AND m.dialogue_id = ${dialogueId}
        AND (m.created, m.seq) <= (p.created, p.seq)
      GROUP BY p.id, p.created, p.seq`),
  );
  if (!raw) return undefined;
  return { ...decodeColumns(forkPointColumns, raw), count: Number(raw.count) };
}

/**
 * D160: copies a dialogue's messages up to `point` into `fork` in one statement (INSERT ...
 * SELECT): content, search text and vectors as they are, `created` kept, the insertion order
 * (seq) following the original's (created, seq) order. A copy's id is `idPrefix` (the `msg_` and
 * time part of a ULID, D5) and 16 characters of the md5 of the fork's and the original message's
 * ids (hex digits are of the ULID alphabet): unique within the fork as the originals are within
 * theirs, made in SQL without a window function, which Citus would not route to one shard. The
 * caller holds the original's row lock, so no message lands in between.
 */
export async function copyMessages(
  tx: Executor,
  target: { projectId: string; fromDialogueId: string; toDialogueId: string; namespace: string | null },
  point: ForkPoint,
  idPrefix: string,
): Promise<void> {
  await tx.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, namespace, role, content, content_length, name,
                          tags, metadata, search_text, embedding, embedding_model, created, modified)
    SELECT project_id, ${target.toDialogueId},
           ${idPrefix} || substr(md5(${target.toDialogueId} || '/' || id), 1, 16),
           ${target.namespace}::text, role, content, content_length, name, tags, metadata, search_text,
           embedding, embedding_model, created, modified
    FROM messages
    WHERE project_id = ${target.projectId} AND dialogue_id = ${target.fromDialogueId}
      AND (created, seq) <= (${point.created.toISOString()}::timestamptz, ${point.seq}::bigint)
    ORDER BY created, seq`);
  // D140: the copies' words join the search's counts, as appended messages' do (one statement).
  await recountTerms(
    tx,
    sql`SELECT namespace, ${termBucket(sql`dialogue_id`)}, search_vector FROM messages
      WHERE project_id = ${target.projectId} AND dialogue_id = ${target.toDialogueId}`,
    { projectId: target.projectId, objectType: 'message', sign: 1 },
  );
}

/** D160, D40: embedding jobs for the copies whose original had no vector yet. */
export async function enqueueUnembedded(tx: Executor, projectId: string, dialogueId: string): Promise<void> {
  await tx.execute(
    enqueueJobsFrom(sql`SELECT project_id, 'message', dialogue_id, id FROM messages
      WHERE project_id = ${projectId} AND dialogue_id = ${dialogueId} AND embedding IS NULL`),
  );
}
