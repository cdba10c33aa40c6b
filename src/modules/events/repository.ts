import { type SQL, and, asc, eq, gt, inArray, isNotNull, isNull, like, or, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Executor, rowsOf } from '../../db/client.js';
import { eventSequences, events, messages, webhookAttempts, webhookDeliveries } from '../../db/schema.js';
import { messageRecordJson } from '../messages/record-sql.js';
import { PRUNE_BATCH_ROWS } from '../../db/project-batches.js';
import { stringifyWithRawJson } from '../../core/raw-json.js';
import { idBoundAt, newId } from '../../lib/ids.js';
import { executePrepared } from '../../db/prepared.js';
import type { NewEvent } from './records.js';

// Queries of the outbox (D63-D65, D70). Every statement names one project_id, so that on Citus it
// runs on the one shard holding the project (D49), except the two background look-ups for
// unnumbered and expired events, which find the projects to work on.

/** D63: writes a change's events in its transaction, in the order given (ids are monotonic). */
export async function insertEvents(tx: Executor, projectId: string, list: NewEvent[]): Promise<void> {
  if (list.length === 0) return;
  await tx.insert(events).values(
    list.map((event) => ({
      projectId,
      id: event.id ?? newId('evt'),
      type: event.type,
      namespace: event.namespace,
      dialogueId: event.dialogueId,
      objectId: event.objectId,
      data: stringifyWithRawJson(event.data),
    })),
  );
}

/** Events one numbering statement takes at most. */
export const NUMBER_BATCH = 1000;

/**
 * The next events to number: the project's oldest unnumbered ones with their place in the batch.
 * Ids compare byte by byte (COLLATE "C", the order they are made in), which is the order of
 * `events_unnumbered_idx`: the batch is read off the index, however long the backlog.
 */
export const nextUnnumberedBatch = (projectId: string) => sql`
  SELECT id, row_number() OVER (ORDER BY id COLLATE "C") AS n
  FROM events
  WHERE project_id = ${projectId} AND seq IS NULL
  ORDER BY id COLLATE "C"
  LIMIT ${NUMBER_BATCH}`;

export interface NumberingNotice {
  channel: string;
  payload: string;
  /** In a statement of its own (Citus: see the sequencer), rather than in the numbering's. */
  separate: boolean;
}

/**
 * D63: numbers the project's committed events that have no seq yet, in one transaction that
 * holds the project's counter row: numbering runs of one project follow each other, and each
 * gives numbers above every number given before it, so numbers appear in commit order. Events
 * of a transaction committed meanwhile are not visible to the statement and get the next run.
 * Tells the listeners (NOTIFY, delivered at commit) when it numbered any. Returns the types
 * numbered, one entry per event.
 *
 * The counter statement is prepared (it runs after most writes, and its plan is one key lookup).
 * The numbering statement is planned afresh each time: its best plan depends on how many events
 * the table holds, and a prepared one soon runs a generic plan made once. Made while the table
 * was near empty, that plan joined each of a batch's events to every event of the project, and
 * once the table had grown a batch took seconds, past the statement bound.
 */
export async function numberPendingEvents(
  db: Executor,
  projectId: string,
  notice: NumberingNotice,
): Promise<string[]> {
  return db.transaction((tx) => numberBatchIn(tx, projectId, notice));
}

/**
 * D191: numbers the project's events that have no seq yet in the caller's transaction, just
 * before it commits: on the embedded store, where that transaction is the only one running, they
 * are its own (and any a stopped writer left). Batch after batch, in the order of their ids.
 * Returns the types numbered, one entry per event.
 */
export async function numberEventsInTransaction(tx: Executor, projectId: string): Promise<string[]> {
  const types: string[] = [];
  let batch: string[];
  do {
    batch = await numberBatchIn(tx, projectId);
    types.push(...batch);
  } while (batch.length === NUMBER_BATCH);
  return types;
}

const notifyStatement = (notice: NumberingNotice) =>
  sql`SELECT pg_notify(${notice.channel}, ${notice.payload})`;

/** One numbering batch of `numberPendingEvents` in `tx`, telling the listeners when `notice` is given. */
async function numberBatchIn(tx: Executor, projectId: string, notice?: NumberingNotice): Promise<string[]> {
  // Takes (or creates) the counter row and its lock; a second numbering run waits here.
  const counter = rowsOf<{ last_seq: number | string }>(
    await executePrepared(
      tx,
      sql`
        INSERT INTO event_sequences (project_id) VALUES (${projectId})
        ON CONFLICT (project_id) DO UPDATE SET last_seq = event_sequences.last_seq
        RETURNING last_seq`,
    ),
  );
  const last = Number(counter[0]!.last_seq);
  // A new statement: its snapshot sees every numbering committed before the lock was granted.
  // It numbers the events and moves the counter (and tells the listeners) in one round trip.
  const numbered = rowsOf<{ type: string }>(
    await tx.execute(
      sql`
        WITH pending AS (${nextUnnumberedBatch(projectId)}
        ), numbered AS (
          UPDATE events SET seq = ${last}::bigint + pending.n
          FROM pending
          WHERE events.project_id = ${projectId} AND events.id = pending.id
          RETURNING events.type
        ), counted AS (
          UPDATE event_sequences SET last_seq = ${last}::bigint + (SELECT count(*) FROM numbered)
          WHERE project_id = ${projectId} AND EXISTS (SELECT 1 FROM numbered)
        )${
          notice && !notice.separate
            ? // `notified` is read by the final SELECT: a SELECT in WITH runs only when read.
              sql`, notified AS (
          ${notifyStatement(notice)} WHERE EXISTS (SELECT 1 FROM numbered)
        )
        SELECT type FROM numbered WHERE (SELECT count(*) FROM notified) >= 0`
            : sql`
        SELECT type FROM numbered`
        }`,
    ),
  );
  if (notice?.separate && numbered.length > 0) await tx.execute(notifyStatement(notice));
  return numbered.map((row) => row.type);
}

/** Projects with committed events not numbered yet (a writer that stopped before numbering them). */
export async function projectsWithUnnumberedEvents(db: Executor, limit: number): Promise<string[]> {
  const rows = rowsOf<{ project_id: string }>(
    await db.execute(sql`SELECT DISTINCT project_id FROM events WHERE seq IS NULL LIMIT ${limit}`),
  );
  return rows.map((row) => row.project_id);
}

export async function hasUnnumberedEvents(db: Executor, projectId: string): Promise<boolean> {
  const rows = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.projectId, projectId), isNull(events.seq)))
    .limit(1);
  return rows.length > 0;
}

export interface EventFilter {
  /** Exact types. */
  types: string[];
  /** Type prefixes such as `message.` (from `message.*`). */
  prefixes: string[];
  dialogueId?: string;
  namespace?: string;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function filterConditions(filter: EventFilter): (SQL | undefined)[] {
  const typeConditions = [
    filter.types.length > 0 ? inArray(events.type, filter.types) : undefined,
    ...filter.prefixes.map((prefix) => like(events.type, `${escapeLike(prefix)}%`)),
  ].filter((condition) => condition !== undefined);
  return [
    typeConditions.length > 0 ? or(...typeConditions) : undefined,
    filter.dialogueId !== undefined ? eq(events.dialogueId, filter.dialogueId) : undefined,
    filter.namespace !== undefined ? eq(events.namespace, filter.namespace) : undefined,
  ];
}

/** Where a `message.created` event's data is found: columns of the events table, or of a page of it. */
interface EventDataSource {
  data: PgColumn;
  dialogueId: PgColumn;
  objectId: PgColumn;
}

/**
 * The event's data: its own, or for a `message.created` event whose message has not changed since
 * (data null), the message row as the REST API shows it, joined by `withMessageRow`.
 */
const dataOf = (source: EventDataSource) =>
  sql<string>`coalesce(${source.data}, ${messageRecordJson('"messages"')})`.as('data');

/**
 * The message of a `message.created` event that keeps no data of its own. The project is named as
 * a value, not only through the event: on Citus both tables are then restricted to that project's
 * shard, and the statement is routed there whole.
 */
const withMessageRow = (source: EventDataSource, projectId: string) =>
  and(
    isNull(source.data),
    eq(messages.projectId, projectId),
    eq(messages.dialogueId, source.dialogueId),
    eq(messages.id, source.objectId),
  );

/**
 * D65: numbered events after `after`, oldest first. The page is chosen on the events alone, and
 * only its rows are joined to their messages. After a burst of writes the table's statistics still
 * say it holds a few rows, and the planner then reads every event after `after` and sorts them:
 * with the join in the same step, every one of them was joined and had its message's JSON built
 * before the sort kept the page (2,451 events: 33 ms for a page of 100; 50,000: seconds).
 * Returns the query, which runs when awaited (test/events/feed-plan.test.ts explains it).
 */
export function listEvents(
  db: Executor,
  projectId: string,
  after: number,
  limit: number,
  filter: EventFilter,
) {
  const page = db
    .select()
    .from(events)
    .where(and(eq(events.projectId, projectId), gt(events.seq, after), ...filterConditions(filter)))
    .orderBy(asc(events.seq))
    .limit(limit)
    .as('page');
  return db
    .select({
      projectId: page.projectId,
      id: page.id,
      seq: page.seq,
      type: page.type,
      namespace: page.namespace,
      dialogueId: page.dialogueId,
      objectId: page.objectId,
      data: dataOf(page),
      created: page.created,
    })
    .from(page)
    .leftJoin(messages, withMessageRow(page, projectId))
    .orderBy(asc(page.seq));
}

/**
 * D63: a message is about to change (its tags): its events that read their data from its row
 * get `data`, the message as it is, written in first, so that they keep showing it as it was.
 * Written as text, not built from the row in the statement: Citus refuses stable functions over
 * columns in an UPDATE, and the caller has the record the REST API shows anyway.
 */
export async function keepMessageData(
  tx: Executor,
  projectId: string,
  dialogueId: string,
  messageId: string,
  data: unknown,
): Promise<void> {
  await tx
    .update(events)
    .set({ data: stringifyWithRawJson(data) })
    .where(
      and(
        eq(events.projectId, projectId),
        eq(events.dialogueId, dialogueId),
        eq(events.objectId, messageId),
        isNull(events.data),
      ),
    );
}

export interface FeedBounds {
  /** The last seq given in the project (0 before its first event). */
  lastSeq: number;
  /** The highest seq pruned (0 when nothing was): events up to it are gone (D65). */
  prunedThrough: number;
}

export async function feedBounds(db: Executor, projectId: string): Promise<FeedBounds> {
  const [row] = await db
    .select({ lastSeq: eventSequences.lastSeq, prunedThrough: eventSequences.prunedThrough })
    .from(eventSequences)
    .where(eq(eventSequences.projectId, projectId));
  return { lastSeq: Number(row?.lastSeq ?? 0), prunedThrough: Number(row?.prunedThrough ?? 0) };
}

/**
 * D65: deletes up to `batchRows` expired, numbered events and returns how many went. An event's
 * id begins with the time it was written, so the primary key finds a project's expired events
 * (no index on `created` to keep up at every insert). One project at a time, each statement
 * raising the project's `pruned_through` to the highest seq it deleted, so that a reader behind
 * it is told (410).
 */
export async function deleteExpiredEvents(
  db: Executor,
  retentionDays: number,
  batchRows = PRUNE_BATCH_ROWS,
  now = Date.now(),
): Promise<number> {
  const before = idBoundAt('evt', now - retentionDays * 86_400_000);
  const expired = (project: SQL) =>
    sql`events.project_id = ${project} AND events.id < ${before} AND events.seq IS NOT NULL`;
  const projects = rowsOf<{ project_id: string }>(
    await db.execute(sql`
      SELECT project_id FROM event_sequences
      WHERE EXISTS (SELECT 1 FROM events WHERE ${expired(sql`event_sequences.project_id`)})
      LIMIT ${batchRows}`),
  );
  let deleted = 0;
  for (const { project_id: projectId } of projects) {
    if (deleted >= batchRows) break;
    const rows = rowsOf<{ count: number | string }>(
      await db.execute(sql`
        WITH gone AS (
          DELETE FROM events
          WHERE project_id = ${projectId} AND id IN (
            SELECT id FROM events WHERE ${expired(sql`${projectId}`)}
            ORDER BY id LIMIT ${batchRows - deleted})
          RETURNING seq
        ), moved AS (
          UPDATE event_sequences SET pruned_through = greatest(pruned_through, (SELECT max(seq) FROM gone))
          WHERE project_id = ${projectId} AND EXISTS (SELECT 1 FROM gone)
        )
        SELECT count(*) AS count FROM gone`),
    );
    deleted += Number(rows[0]?.count ?? 0);
  }
  return deleted;
}

/** The columns that name an event's objects, in `events` and in the webhook tables that copy it. */
type EventColumns = Record<'projectId' | 'dialogueId' | 'objectId' | 'type', PgColumn>;

/** A column's text as a JSON string literal (backslashes and quotes escaped). */
const jsonString = (column: PgColumn) =>
  sql`'"' || replace(replace(${column}, '\\', '\\\\'), '"', '\\"') || '"'`;

/**
 * `{id, dialogueId?, deleted: true}` built by text concatenation: Citus refuses functions that are
 * not immutable (jsonb_build_object is only stable) inside CASE in an UPDATE (docs/scaling.md).
 */
const erasedData = (
  t: EventColumns,
) => sql`CASE WHEN ${t.dialogueId} IS NOT NULL AND ${t.dialogueId} <> ${t.objectId}
  THEN '{"id":' || ${jsonString(t.objectId)} || ',"dialogueId":' || ${jsonString(t.dialogueId)} || ',"deleted":true}'
  ELSE '{"id":' || ${jsonString(t.objectId)} || ',"deleted":true}' END`;

/**
 * D70: the content of earlier events goes: their `data` becomes `{id, dialogueId?, deleted: true}`
 * (`dialogueId` for an object inside a dialogue). The type, time and ids stay. The copies of those
 * events in webhook deliveries, pending or done, are erased alike, and the answers their receivers
 * gave (which may echo what they were sent) are emptied.
 */
async function eraseWhere(
  tx: Executor,
  projectId: string,
  condition: (t: EventColumns) => SQL,
): Promise<void> {
  await tx
    .update(events)
    .set({ data: erasedData(events) })
    .where(and(eq(events.projectId, projectId), condition(events)));
  await tx
    .update(webhookDeliveries)
    .set({ data: erasedData(webhookDeliveries) })
    .where(and(eq(webhookDeliveries.projectId, projectId), condition(webhookDeliveries)));
  await tx
    .update(webhookAttempts)
    .set({ responseBody: null })
    .where(
      and(
        eq(webhookAttempts.projectId, projectId),
        condition(webhookAttempts),
        isNotNull(webhookAttempts.responseBody),
      ),
    );
}

/** Every event of the dialogue: its own (their dialogueId is the dialogue's id) and its messages'. */
export const eraseDialogueEvents = (tx: Executor, projectId: string, dialogueId: string) =>
  eraseWhere(tx, projectId, (t) => eq(t.dialogueId, dialogueId));

export const eraseMessageEvents = (tx: Executor, projectId: string, dialogueId: string, messageId: string) =>
  eraseWhere(
    tx,
    projectId,
    (t) => and(eq(t.dialogueId, dialogueId), eq(t.objectId, messageId), like(t.type, 'message.%'))!,
  );

/** A memory's events: they belong to no dialogue (which the erasure index's order needs said). */
export const eraseMemoryEvents = (tx: Executor, projectId: string, memoryId: string) =>
  eraseWhere(
    tx,
    projectId,
    (t) => and(isNull(t.dialogueId), eq(t.objectId, memoryId), like(t.type, 'memory.%'))!,
  );

/**
 * D70: a summary that drew on a deleted message leaves the dialogue's earlier events: their
 * `data.summary` becomes null (the key stays). Called when the dialogue's current summary drew on
 * the message; every earlier summary that did is in an event made since the last clearing. All of
 * them are cleared, also older ones that stopped short of the message: telling those apart would
 * need each summary's coverage in the event, and clearing too much errs on the side of the
 * deletion (docs/events.md).
 */
export async function clearSummariesInEvents(
  tx: Executor,
  projectId: string,
  dialogueId: string,
): Promise<void> {
  // The webhook deliveries' copies of the events too (D70: pending deliveries included).
  for (const t of [events, webhookDeliveries] as const) {
    await tx
      .update(t)
      .set({ data: sql`jsonb_set(${t.data}::jsonb, '{summary}', 'null'::jsonb)::text` })
      .where(
        and(
          eq(t.projectId, projectId),
          eq(t.dialogueId, dialogueId),
          like(t.type, 'dialogue.%'),
          sql`jsonb_typeof(${t.data}::jsonb -> 'summary') = 'object'`,
        ),
      );
  }
}

/**
 * D70: the current `data` of the given events, their rows locked (FOR SHARE) until the caller's
 * transaction ends, for a copy made in it (webhook deliveries). An erasure that rewrote them first
 * is waited for and its result read; one that comes later waits for the copy to commit, and then
 * finds the copy and erases it too. Events pruned meanwhile are missing from the answer.
 */
export async function lockEventData(
  tx: Executor,
  projectId: string,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: events.id, data: dataOf(events) })
    .from(events)
    .leftJoin(messages, withMessageRow(events, projectId))
    .where(and(eq(events.projectId, projectId), inArray(events.id, ids)))
    .for('share', { of: events });
  return new Map(rows.map((row) => [row.id, row.data]));
}
