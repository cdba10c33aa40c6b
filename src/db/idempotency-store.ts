import { and, arrayOverlaps, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { idempotencyKeys } from './schema.js';
import { PRUNE_BATCH_ROWS, keysByProject } from './project-batches.js';

// D36, D75: a stored response is replayed for IDEMPOTENCY_TTL_HOURS (24 by default, config.ts);
// every function takes that TTL, in hours.

export interface StoredResponse {
  requestHash: string;
  statusCode: number;
  /** Null for a tombstone: an object the response carried was deleted since (D73). */
  responseBody: string | null;
}

export interface ResponseToStore {
  requestHash: string;
  statusCode: number;
  responseBody: string;
  /** The objects whose content the response carries (src/core/object-refs.ts). */
  objectRefs: string[];
}

/** The moment before which a stored response has expired; fractions of an hour are kept. */
const expiredBefore = (ttlHours: number) => sql`now() - make_interval(secs => ${ttlHours * 3600})`;

export async function findStoredResponse(
  db: Executor,
  projectId: string,
  key: string,
  ttlHours: number,
): Promise<StoredResponse | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      statusCode: idempotencyKeys.statusCode,
      responseBody: idempotencyKeys.responseBody,
    })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.projectId, projectId),
        eq(idempotencyKeys.key, key),
        // An expired response is never replayed, pruned or not.
        gt(idempotencyKeys.created, expiredBefore(ttlHours)),
      ),
    );
  return row;
}

/**
 * Stores the response in the write's own transaction. Returns false when a live entry for the
 * key already exists (a concurrent request with the same key won): the caller rolls back.
 */
export async function storeResponse(
  tx: Executor,
  projectId: string,
  key: string,
  response: ResponseToStore,
  ttlHours: number,
): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values({ projectId, key, ...response })
    .onConflictDoUpdate({
      target: [idempotencyKeys.projectId, idempotencyKeys.key],
      // The time of the inserted row (its default), not now(): Citus refuses any function that is
      // not immutable in DO UPDATE (docs/scaling.md).
      set: { ...response, created: sql`excluded.created` },
      // An expired entry is replaced; a live one is left alone.
      // The cutoff is computed here: Citus refuses the database's interval arithmetic there too.
      setWhere: lt(idempotencyKeys.created, new Date(Date.now() - ttlHours * 3_600_000)),
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/**
 * Deletes up to `batchRows` expired responses and returns how many went. The batch is found
 * through the `created` index; it is then deleted one project at a time, each statement naming
 * its project_id (one shard on Citus, D49) and checking the expiry again, so that a key stored
 * anew in between is kept.
 */
export async function deleteExpiredResponses(
  db: Executor,
  ttlHours: number,
  batchRows = PRUNE_BATCH_ROWS,
  now = Date.now(),
): Promise<number> {
  // The cutoff comes from the caller's clock (the pruner's, which tests move), not the database's.
  const cutoff = new Date(now - ttlHours * 3_600_000);
  const expired = await db
    .select({ projectId: idempotencyKeys.projectId, key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(lt(idempotencyKeys.created, cutoff))
    .limit(batchRows);
  let deleted = 0;
  for (const [projectId, keys] of keysByProject(expired, (row) => row.key)) {
    const rows = await db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.projectId, projectId),
          inArray(idempotencyKeys.key, keys),
          lt(idempotencyKeys.created, cutoff),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    deleted += rows.length;
  }
  return deleted;
}

/**
 * D73: empties every stored response that carried one of `refs`, in the deleting write's own
 * transaction. A tombstone keeps the key, the request hash and the status, so a retry of the key
 * is answered 409 instead of running the write again; the content is gone.
 */
async function eraseStoredResponses(tx: Executor, projectId: string, refs: string[]): Promise<void> {
  if (refs.length === 0) return;
  await tx
    .update(idempotencyKeys)
    .set({ responseBody: null, objectRefs: [] })
    .where(and(eq(idempotencyKeys.projectId, projectId), arrayOverlaps(idempotencyKeys.objectRefs, refs)));
}

/** What a deleting service is handed (it empties the stored responses its deletion concerns). */
export interface StoredResponses {
  erase: typeof eraseStoredResponses;
}

export const storedResponses: StoredResponses = { erase: eraseStoredResponses };
