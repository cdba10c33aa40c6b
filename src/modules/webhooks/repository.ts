import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';
import { PRUNE_BATCH_ROWS, keysByProject } from '../../db/project-batches.js';
import { newId } from '../../lib/ids.js';

// Queries of webhook endpoints, deliveries and their log (D67-D69). Every statement names one
// project_id, so that on Citus it runs on the project's shard (D49; SKIP LOCKED works only
// there), except the look-up of projects with work, which locks nothing.

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export async function insertEndpoint(tx: Executor, row: typeof webhookEndpoints.$inferInsert) {
  const [created] = await tx.insert(webhookEndpoints).values(row).returning();
  return created!;
}

export async function countEndpoints(db: Executor, projectId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.projectId, projectId));
  return Number(row?.count ?? 0);
}

export const listEndpoints = (db: Executor, projectId: string) =>
  db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.projectId, projectId))
    .orderBy(webhookEndpoints.id);

export async function findEndpoint(db: Executor, projectId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)));
  return row;
}

export async function updateEndpoint(
  tx: Executor,
  projectId: string,
  id: string,
  patch: Partial<typeof webhookEndpoints.$inferInsert>,
) {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ ...patch, modified: sql`now()` })
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)))
    .returning();
  return row;
}

/** Its deliveries and log go with it (foreign keys with ON DELETE CASCADE). */
export async function deleteEndpoint(tx: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * Moves the endpoint's cursor from `from` to `to`, if nobody moved it meanwhile (another instance
 * queueing the same events): true when this caller may queue them, in the same transaction.
 */
export async function advanceCursor(
  tx: Executor,
  projectId: string,
  id: string,
  from: number,
  to: number,
): Promise<boolean> {
  const rows = await tx
    .update(webhookEndpoints)
    .set({ cursorSeq: to })
    .where(
      and(
        eq(webhookEndpoints.projectId, projectId),
        eq(webhookEndpoints.id, id),
        eq(webhookEndpoints.cursorSeq, from),
        eq(webhookEndpoints.enabled, true),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** An event as a delivery carries it (D63 record; `seq` null for `webhook.test`). */
export interface DeliveryEvent {
  id: string;
  seq: number | null;
  type: string;
  created: string;
  namespace: string | null;
  dialogueId: string | null;
  objectId: string;
  /** The event's `data` JSON text. */
  data: string;
}

/**
 * D68: queues deliveries of the events to the endpoint, each with the log row of its first
 * attempt (pending). Returns those log rows.
 */
export async function queueDeliveries(
  tx: Executor,
  projectId: string,
  endpointId: string,
  list: DeliveryEvent[],
): Promise<AttemptRow[]> {
  if (list.length === 0) return [];
  const deliveries = list.map((event) => ({
    projectId,
    id: newId('whd'),
    endpointId,
    eventId: event.id,
    seq: event.seq,
    type: event.type,
    namespace: event.namespace,
    dialogueId: event.dialogueId,
    objectId: event.objectId,
    data: event.data,
    eventCreated: new Date(event.created),
  }));
  await tx.insert(webhookDeliveries).values(deliveries);
  return tx
    .insert(webhookAttempts)
    .values(
      deliveries.map((delivery) => ({
        projectId,
        id: newId('wha'),
        endpointId,
        deliveryId: delivery.id,
        eventId: delivery.eventId,
        seq: delivery.seq,
        type: delivery.type,
        dialogueId: delivery.dialogueId,
        objectId: delivery.objectId,
        attempt: 1,
      })),
    )
    .returning();
}

/** D67: the log of an endpoint, newest first, before the attempt `before` (the `next` of a page). */
export function listAttempts(
  db: Executor,
  projectId: string,
  endpointId: string,
  limit: number,
  before: string | undefined,
) {
  return db
    .select()
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.projectId, projectId),
        eq(webhookAttempts.endpointId, endpointId),
        before === undefined ? undefined : lt(webhookAttempts.id, before),
      ),
    )
    .orderBy(desc(webhookAttempts.id))
    .limit(limit);
}

/** Pending deliveries due now, not leased, to an enabled endpoint (a test event goes anyway). */
const claimable = sql`
  w.status = 'pending' AND w.next_attempt_at <= now()
  AND (w.locked_until IS NULL OR w.locked_until < now())`;

/**
 * Projects with work: a due delivery, or an enabled endpoint behind the project's feed. Locks
 * nothing; on Citus it reads every shard, as the embedding queue's look-up does (docs/scaling.md).
 */
export async function projectsWithWork(db: Executor, limit: number): Promise<string[]> {
  const rows = rowsOf<{ project_id: string }>(
    await db.execute(sql`
      SELECT project_id FROM (
        SELECT w.project_id FROM webhook_deliveries w WHERE ${claimable}
        UNION
        SELECT e.project_id FROM webhook_endpoints e
        JOIN event_sequences s ON s.project_id = e.project_id
        WHERE e.enabled AND e.cursor_seq < s.last_seq
      ) AS work LIMIT ${limit}`),
  );
  return rows.map((row) => row.project_id);
}

export interface ClaimedDelivery {
  projectId: string;
  id: string;
  endpointId: string;
  eventId: string;
  seq: number | null;
  type: string;
  namespace: string | null;
  dialogueId: string | null;
  objectId: string;
  data: string;
  eventCreated: Date;
  attempts: number;
}

/**
 * D68: claims up to `limit` due deliveries of one project (one shard on Citus) with FOR UPDATE
 * SKIP LOCKED, so that instances share the work, and a lease, so that a dead instance's claims
 * come back. A delivery waits while an earlier one of its dialogue to the same endpoint is
 * pending (being sent, or waiting for its retry): per-dialogue order. Deliveries of a disabled
 * endpoint wait, except a test event.
 */
export async function claimDeliveries(
  db: Executor,
  projectId: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const rows = rowsOf<ClaimedDelivery & { eventCreated: Date | string; seq: number | string | null }>(
    await db.execute(sql`
      UPDATE webhook_deliveries AS d
      SET locked_until = now() + make_interval(secs => ${leaseMs / 1000}), attempts = d.attempts + 1
      FROM (
        SELECT w.project_id, w.id FROM webhook_deliveries w
        WHERE w.project_id = ${projectId} AND ${claimable}
          AND EXISTS (
            SELECT 1 FROM webhook_endpoints e
            WHERE e.project_id = ${projectId} AND e.id = w.endpoint_id
              AND (e.enabled OR w.type = 'webhook.test'))
          AND (w.dialogue_id IS NULL OR NOT EXISTS (
            SELECT 1 FROM webhook_deliveries b
            WHERE b.project_id = ${projectId} AND b.endpoint_id = w.endpoint_id
              AND b.dialogue_id = w.dialogue_id AND b.status = 'pending'
              AND (b.seq, b.id) < (w.seq, w.id)))
        ORDER BY w.next_attempt_at, w.id
        LIMIT ${limit}
        FOR UPDATE OF w SKIP LOCKED
      ) AS due
      WHERE d.project_id = ${projectId} AND d.project_id = due.project_id AND d.id = due.id
      RETURNING d.project_id AS "projectId", d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId",
        d.seq, d.type, d.namespace, d.dialogue_id AS "dialogueId", d.object_id AS "objectId", d.data,
        d.event_created AS "eventCreated", d.attempts`),
  );
  return rows.map((row) => ({
    ...row,
    seq: row.seq === null ? null : Number(row.seq),
    eventCreated: new Date(row.eventCreated),
  }));
}

export interface AttemptOutcome {
  ok: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * Records an attempt and what follows from it, in one transaction: the log row, the delivery
 * (done, retried after `retryInMs`, or dropped when that is undefined), and the endpoint's run of
 * failures (D68: disabled once it has failed for `disableAfterMs` without a success). Returns
 * whether the endpoint was disabled by it.
 */
export async function recordAttempt(
  tx: Executor,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  retryInMs: number | undefined,
  disableAfterMs: number,
): Promise<{ disabled: boolean; dropped: boolean }> {
  const { projectId } = delivery;
  await tx
    .update(webhookAttempts)
    .set({
      status: outcome.ok ? 'succeeded' : 'failed',
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      durationMs: outcome.durationMs,
      error: outcome.error?.slice(0, 1000) ?? null,
      created: sql`now()`,
    })
    .where(
      and(
        eq(webhookAttempts.projectId, projectId),
        eq(webhookAttempts.deliveryId, delivery.id),
        eq(webhookAttempts.attempt, delivery.attempts),
      ),
    );
  const where = and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, delivery.id));
  const endpoint = and(
    eq(webhookEndpoints.projectId, projectId),
    eq(webhookEndpoints.id, delivery.endpointId),
  );
  if (outcome.ok) {
    await tx.update(webhookDeliveries).set({ status: 'succeeded', lockedUntil: null }).where(where);
    await tx.update(webhookEndpoints).set({ failingSince: null }).where(endpoint);
    return { disabled: false, dropped: false };
  }
  const dropped = retryInMs === undefined;
  if (dropped) {
    await tx.update(webhookDeliveries).set({ status: 'failed', lockedUntil: null }).where(where);
  } else {
    await tx
      .update(webhookDeliveries)
      .set({ lockedUntil: null, nextAttemptAt: sql`now() + make_interval(secs => ${retryInMs / 1000})` })
      .where(where);
    await tx.insert(webhookAttempts).values({
      projectId,
      id: newId('wha'),
      endpointId: delivery.endpointId,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      seq: delivery.seq,
      type: delivery.type,
      dialogueId: delivery.dialogueId,
      objectId: delivery.objectId,
      attempt: delivery.attempts + 1,
    });
  }
  // A test event says nothing of the endpoint's health.
  if (delivery.type === 'webhook.test') return { disabled: false, dropped };
  // Read, then written with plain values: Citus refuses now() beside column references in an
  // UPDATE's SET (docs/scaling.md). The row lock keeps a concurrent attempt's update out meanwhile.
  const [state] = rowsOf<{ enabled: boolean; failing_since: Date | string | null; now: Date | string }>(
    await tx.execute(sql`
      SELECT enabled, failing_since, now() AS now FROM webhook_endpoints
      WHERE project_id = ${projectId} AND id = ${delivery.endpointId}
      FOR UPDATE`),
  );
  if (!state) return { disabled: false, dropped };
  const now = new Date(state.now);
  const failingSince = state.failing_since === null ? now : new Date(state.failing_since);
  const disabled = state.enabled && now.getTime() - failingSince.getTime() >= disableAfterMs;
  await tx
    .update(webhookEndpoints)
    .set({
      failingSince,
      ...(disabled
        ? {
            enabled: false,
            disabledReason:
              `every delivery failed for ${Math.round(disableAfterMs / 1000)} s; last error: ${outcome.error ?? 'none'}`.slice(
                0,
                1000,
              ),
          }
        : {}),
    })
    .where(endpoint);
  return { disabled, dropped };
}

/** The lease of a claim ended without an answer recorded (shutdown): the delivery is due again. */
export async function releaseClaim(db: Executor, delivery: ClaimedDelivery): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ lockedUntil: null, attempts: sql`${webhookDeliveries.attempts} - 1` })
    .where(and(eq(webhookDeliveries.projectId, delivery.projectId), eq(webhookDeliveries.id, delivery.id)));
}

/**
 * Deletes up to `batchRows` finished deliveries and attempts older than the retention (they would
 * otherwise grow without bound; the events they copied are pruned after the same time, D65).
 * Found across projects by a read that locks nothing, then deleted one project per statement.
 * Returns how many rows went.
 */
export async function pruneDeliveryLog(
  db: Executor,
  retentionDays: number,
  batchRows = PRUNE_BATCH_ROWS,
): Promise<number> {
  const cutoff = sql`now() - make_interval(secs => ${retentionDays * 86_400})`;
  let deleted = 0;
  for (const table of ['webhook_deliveries', 'webhook_attempts'] as const) {
    const found = rowsOf<{ projectId: string; id: string }>(
      await db.execute(sql`SELECT project_id AS "projectId", id FROM ${sql.raw(table)}
        WHERE created < ${cutoff} AND status <> 'pending' LIMIT ${batchRows}`),
    );
    for (const [projectId, ids] of keysByProject(found, (row) => row.id)) {
      const result = (await db.execute(sql`DELETE FROM ${sql.raw(table)}
        WHERE project_id = ${projectId} AND id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`)) as { rowCount?: number; affectedRows?: number };
      deleted += Number(result.rowCount ?? result.affectedRows ?? 0);
    }
  }
  return deleted;
}
