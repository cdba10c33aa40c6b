import { and, eq, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { embeddingJobs } from '../../db/schema.js';
import type { Embedder } from '../../embedders/embedder.js';
import { type EmbeddingObjectType, type EmbeddingTarget, enqueueJobsFrom, jobValues } from './job-sql.js';

// D40: the durable embedding queue in Postgres.

export interface ClaimedJob {
  projectId: string;
  id: number;
  objectType: EmbeddingObjectType;
  dialogueId: string;
  objectId: string;
  attempts: number;
}

/**
 * Enqueues (or re-arms) the jobs of the given objects inside the caller's write transaction, so
 * that a job exists exactly when its write commits.
 */
export async function enqueueEmbedding(
  tx: Executor,
  targets: EmbeddingTarget | EmbeddingTarget[],
): Promise<void> {
  const list = Array.isArray(targets) ? targets : [targets];
  if (list.length === 0) return;
  await tx.execute(enqueueJobsFrom(jobValues(list)));
}

/** Removes the pending job of a deleted object (its vector goes with its row). */
export async function deleteEmbeddingJob(tx: Executor, target: EmbeddingTarget): Promise<void> {
  await tx
    .delete(embeddingJobs)
    .where(
      and(
        eq(embeddingJobs.projectId, target.projectId),
        eq(embeddingJobs.objectType, target.objectType),
        eq(embeddingJobs.dialogueId, target.dialogueId ?? ''),
        eq(embeddingJobs.objectId, target.objectId),
      ),
    );
}

/** Removes the pending jobs of a dialogue and of all its messages (D23: nothing derived survives). */
export async function deleteDialogueEmbeddingJobs(tx: Executor, projectId: string, dialogueId: string) {
  await tx.execute(sql`
    DELETE FROM embedding_jobs
    WHERE project_id = ${projectId}
      AND ((object_type = 'message' AND dialogue_id = ${dialogueId})
        OR (object_type = 'dialogue' AND object_id = ${dialogueId}))`);
}

/** Due and not leased to a live worker. */
const due = sql`run_at <= now() AND (locked_until IS NULL OR locked_until < now())`;

/** How many of the longest-due jobs the look for projects reads. */
const CLAIM_WINDOW = 1000;

/**
 * Up to `limit` projects with due jobs, those whose jobs are due longest first. Only the
 * CLAIM_WINDOW longest-due jobs are read (the run_at index, in order): the projects first in that
 * order are the ones among them, and a queue of a million jobs costs no more to claim from than
 * one of a thousand. Grouping the whole queue read all of it on every claim: about 5 ms at 20,000
 * jobs on PostgreSQL, and it grew with the queue.
 */
export const projectsWithDueJobs = (limit: number) => sql`
  SELECT project_id AS "projectId" FROM (
    SELECT project_id, run_at FROM embedding_jobs WHERE ${due} ORDER BY run_at LIMIT ${CLAIM_WINDOW}
  ) AS longest_due
  GROUP BY project_id ORDER BY min(run_at), project_id LIMIT ${limit}`;

/**
 * Claims due jobs: FOR UPDATE SKIP LOCKED lets any number of workers share the queue, and the
 * lease (`locked_until`) hands a job to another worker when its claimer dies mid-job. The claim
 * is made project by project, the projects whose jobs are due longest first: on Citus each claim
 * is then routed to the shard of its project, where SKIP LOCKED works (Citus refuses it in a
 * statement that spans shards); only the look for projects with due jobs, which locks nothing,
 * reads every shard (docs/scaling.md).
 */
export async function claimJobs(db: Executor, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
  const projects = rowsOf<{ projectId: string }>(await db.execute(projectsWithDueJobs(limit)));
  const claimed: ClaimedJob[] = [];
  for (const { projectId } of projects) {
    if (claimed.length >= limit) break;
    claimed.push(...(await claimProjectJobs(db, projectId, limit - claimed.length, leaseMs)));
  }
  return claimed;
}

/** Claims up to `limit` due jobs of one project (routed to its shard on Citus). */
async function claimProjectJobs(
  db: Executor,
  projectId: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedJob[]> {
  const result = await db.execute(sql`
    UPDATE embedding_jobs AS j
    SET locked_until = now() + make_interval(secs => ${leaseMs / 1000}), attempts = j.attempts + 1
    FROM (
      SELECT project_id, id FROM embedding_jobs
      WHERE project_id = ${projectId} AND ${due}
      -- In write order: consecutive messages share a batch, and so their context texts.
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE j.project_id = ${projectId} AND j.project_id = due.project_id AND j.id = due.id
    RETURNING j.project_id AS "projectId", j.id, j.object_type AS "objectType", j.dialogue_id AS "dialogueId",
      j.object_id AS "objectId", j.attempts`);
  return rowsOf<ClaimedJob>(result).map((job) => ({ ...job, id: Number(job.id) }));
}

export interface EmbeddingText {
  text: string;
  /** For a message: the text of the message before it in its dialogue, if any. */
  context: string | null;
  /** For a message: the text of the message after it in its dialogue, if any (D181). */
  next: string | null;
  /**
   * For a message: the message before it, whose vector holds this message's text as its `next`
   * (D181) and is made again with it; null when there is none or it has no text.
   */
  previous: { id: string; text: string; context: string | null } | null;
}

/**
 * The text each object is embedded from (D41): a message's plain text (with the messages before
 * and after it as context, D170, D181), a dialogue's label, tags and summary, a memory's label,
 * description and value. One statement per project and kind of object, however many jobs: on
 * the embedded store every statement runs on the main thread, beside the requests.
 */
export async function loadTexts(db: Executor, jobs: ClaimedJob[]): Promise<Map<number, EmbeddingText>> {
  const texts = new Map<number, EmbeddingText>();
  const trimmed = (text: string | null) => text?.trim() || null;
  for (const group of byProjectAndType(jobs)) {
    const rows = rowsOf<{
      dialogueId: string;
      objectId: string;
      text: string;
      context: string | null;
      contextId: string | null;
      contextContext: string | null;
      next: string | null;
    }>(await db.execute(textsQuery(group)));
    const jobOf = new Map(group.map((job) => [objectKey(job.dialogueId, job.objectId), job]));
    for (const row of rows) {
      const job = jobOf.get(objectKey(row.dialogueId, row.objectId));
      if (!job) continue;
      const context = trimmed(row.context);
      texts.set(job.id, {
        text: row.text.trim(),
        context,
        next: trimmed(row.next),
        previous:
          row.contextId !== null && context !== null
            ? { id: row.contextId, text: context, context: trimmed(row.contextContext) }
            : null,
      });
    }
  }
  return texts;
}

/** `items` in groups of one key, in the order each key first appears. */
function groupedBy<T>(items: T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}

/** The jobs of one claim by project and kind of object: one statement serves each group. */
const byProjectAndType = (jobs: ClaimedJob[]) =>
  groupedBy(jobs, (job) => `${job.projectId}\u0000${job.objectType}`);

const objectKey = (dialogueId: string, objectId: string) => `${dialogueId}\u0000${objectId}`;

/** A message's key across projects (ids are unique only within a project's dialogue, D27). */
export const messageKey = (projectId: string, dialogueId: string, id: string) =>
  `${projectId}\u0000${objectKey(dialogueId, id)}`;

/** The group's objects as (dialogue_id, object_id) rows; dialogue_id is '' but for messages. */
const objectValues = (jobs: ClaimedJob[]) =>
  sql`(VALUES ${sql.join(
    jobs.map((job) => sql`(${job.dialogueId}::text, ${job.objectId}::text)`),
    sql`, `,
  )}) AS j(dialogue_id, object_id)`;

/** One group's texts (byProjectAndType). */
function textsQuery(jobs: ClaimedJob[]) {
  const { projectId, objectType } = jobs[0]!;
  // The project as a value in every table's condition, not only through m: Citus then routes the
  // whole statement to one shard.
  const inDialogue = (alias: string) =>
    sql`${sql.raw(alias)}.project_id = ${projectId} AND ${sql.raw(alias)}.dialogue_id = m.dialogue_id`;
  switch (objectType) {
    case 'message':
      return sql`SELECT j.dialogue_id AS "dialogueId", j.object_id AS "objectId", m.search_text AS text,
          p.search_text AS context, p.id AS "contextId",
          (SELECT pp.search_text FROM messages pp
            WHERE ${inDialogue('pp')} AND (pp.created, pp.seq) < (p.created, p.seq)
            ORDER BY pp.created DESC, pp.seq DESC LIMIT 1) AS "contextContext",
          (SELECT n.search_text FROM messages n
            WHERE ${inDialogue('n')} AND (n.created, n.seq) > (m.created, m.seq)
            ORDER BY n.created, n.seq LIMIT 1) AS next
        FROM ${objectValues(jobs)}
        JOIN messages m ON m.project_id = ${projectId} AND m.dialogue_id = j.dialogue_id AND m.id = j.object_id
        LEFT JOIN LATERAL (SELECT p.id, p.search_text, p.created, p.seq FROM messages p
          WHERE ${inDialogue('p')} AND (p.created, p.seq) < (m.created, m.seq)
          ORDER BY p.created DESC, p.seq DESC LIMIT 1) AS p ON true`;
    case 'dialogue':
    case 'memory':
      // A dialogue's search_text holds label, tags and the summary (compaction adds it, D22); a
      // memory's its label, description and the text of the value (D57).
      return sql`SELECT j.dialogue_id AS "dialogueId", j.object_id AS "objectId", t.search_text AS text,
          NULL AS context, NULL AS "contextId", NULL AS "contextContext", NULL AS next
        FROM ${objectValues(jobs)}
        JOIN ${sql.raw(TABLE[objectType])} t ON t.project_id = ${projectId} AND t.id = j.object_id`;
  }
}

const TABLE: Record<EmbeddingObjectType, string> = {
  message: 'messages',
  dialogue: 'dialogues',
  memory: 'memories',
};

/** Objects and their vectors as (dialogue_id, id, embedding) rows; a null vector stays null. */
const vectorValues = (rows: { dialogueId: string; id: string; vector: number[] | undefined }[]) =>
  sql`(VALUES ${sql.join(
    rows.map(
      ({ dialogueId, id, vector }) =>
        sql`(${dialogueId}::text, ${id}::text, ${vector ? `[${vector.join(',')}]` : null}::text)`,
    ),
    sql`, `,
  )}) AS v(dialogue_id, id, embedding)`;

/**
 * Stores each job's vector (or, for an object with no text, the model id alone so that a reindex
 * does not pick it up again) and removes the jobs, but those re-armed meanwhile (they have a new
 * id). Two statements per project and kind of object, however many jobs.
 */
export async function completeJobs(
  tx: Executor,
  jobs: ClaimedJob[],
  embedder: Embedder,
  vectorOf: Map<number, number[]>,
): Promise<void> {
  for (const group of byProjectAndType(jobs)) {
    const { projectId, objectType } = group[0]!;
    const vectors = vectorValues(
      group.map((job) => ({ dialogueId: job.dialogueId, id: job.objectId, vector: vectorOf.get(job.id) })),
    );
    await tx.execute(sql`
      UPDATE ${sql.raw(TABLE[objectType])} AS t
      SET embedding = v.embedding::vector, embedding_model = ${embedder.id}
      FROM ${vectors}
      WHERE t.project_id = ${projectId} AND t.id = v.id${
        objectType === 'message' ? sql` AND t.dialogue_id = v.dialogue_id` : sql``
      }`);
    await tx.execute(sql`
      DELETE FROM embedding_jobs
      WHERE project_id = ${projectId} AND id IN (${sql.join(
        group.map((job) => sql`${job.id}`),
        sql`, `,
      )})`);
  }
}

/** A message's vector made again with the message after it (D181). */
export interface ReplacedVector {
  projectId: string;
  dialogueId: string;
  id: string;
  vector: number[];
}

/**
 * D181: messages' vectors made again with the message after each, written only where the vector
 * already there is this model's (a message not yet embedded gets it from its own job). One
 * statement per project; of two vectors for one message, the later in the list is kept.
 */
export async function replaceMessageVectors(
  tx: Executor,
  embedder: Embedder,
  replaced: ReplacedVector[],
): Promise<void> {
  // The later of two vectors for one message is kept, as writing them in turn would.
  const latest = [
    ...new Map(
      replaced.map((entry) => [messageKey(entry.projectId, entry.dialogueId, entry.id), entry]),
    ).values(),
  ];
  for (const group of groupedBy(latest, (entry) => entry.projectId)) {
    await tx.execute(sql`
      UPDATE messages AS t SET embedding = v.embedding::vector
      FROM ${vectorValues(group)}
      WHERE t.project_id = ${group[0]!.projectId} AND t.dialogue_id = v.dialogue_id AND t.id = v.id
        AND t.embedding_model = ${embedder.id}`);
  }
}

/** Puts a failed job back with exponential backoff (capped): a provider outage delays, never drops. */
export async function failJob(db: Executor, job: ClaimedJob, error: string, delayMs: number): Promise<void> {
  await db.execute(sql`
    UPDATE embedding_jobs
    SET locked_until = NULL, last_error = ${error.slice(0, 1000)},
      run_at = now() + make_interval(secs => ${delayMs / 1000})
    WHERE project_id = ${job.projectId} AND id = ${job.id}`);
}

/**
 * Enqueues every object whose vector was made by another model, or never made (D41: changing
 * the embedder re-embeds instead of mixing models). Returns the number of jobs added.
 */
export async function enqueueStaleObjects(db: Executor, embedder: Embedder): Promise<number> {
  let added = 0;
  const statements = [
    sql`INSERT INTO embedding_jobs (project_id, object_type, dialogue_id, object_id)
      SELECT project_id, 'message', dialogue_id, id FROM messages
      WHERE embedding_model IS DISTINCT FROM ${embedder.id}
      ON CONFLICT DO NOTHING`,
    sql`INSERT INTO embedding_jobs (project_id, object_type, object_id)
      SELECT project_id, 'dialogue', id FROM dialogues
      WHERE embedding_model IS DISTINCT FROM ${embedder.id}
      ON CONFLICT DO NOTHING`,
    sql`INSERT INTO embedding_jobs (project_id, object_type, object_id)
      SELECT project_id, 'memory', id FROM memories
      WHERE embedding_model IS DISTINCT FROM ${embedder.id}
      ON CONFLICT DO NOTHING`,
  ];
  for (const statement of statements) {
    const result = (await db.execute(statement)) as { rowCount?: number; affectedRows?: number };
    added += Number(result.rowCount ?? result.affectedRows ?? 0);
  }
  return added;
}
