import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from './client.js';
import { idempotencyKeys } from './schema.js';

/** D36: a stored response lives for 24 hours. */
const IDEMPOTENCY_TTL_HOURS = 24;

export interface StoredResponse {
  requestHash: string;
  statusCode: number;
  responseBody: string;
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
  response: StoredResponse,
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
