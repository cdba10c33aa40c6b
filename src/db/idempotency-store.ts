import { and, arrayOverlaps, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { idempotencyKeys } from './schema.js';

/** D36: a stored response lives for 24 hours. */
const IDEMPOTENCY_TTL_HOURS = 24;

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

const live = () => gt(idempotencyKeys.created, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`);

export async function findStoredResponse(
  db: Executor,
  projectId: string,
  key: string,
): Promise<StoredResponse | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      statusCode: idempotencyKeys.statusCode,
      responseBody: idempotencyKeys.responseBody,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.projectId, projectId), eq(idempotencyKeys.key, key), live()));
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
): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values({ projectId, key, ...response })
    .onConflictDoUpdate({
      target: [idempotencyKeys.projectId, idempotencyKeys.key],
      set: { ...response, created: sql`now()` },
      // An expired entry is replaced; a live one is left alone.
      setWhere: lt(idempotencyKeys.created, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`),
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
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
