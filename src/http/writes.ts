import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.js';
import { findStoredResponse, storeResponse } from '../db/idempotency-store.js';
import { AppError } from './errors.js';
import { stringifyWithRawJson } from './raw-json.js';

// D36: every write route runs through `sendWrite`, so that an Idempotency-Key is honoured the
// same way everywhere and the stored response is committed in the write's own transaction: a
// crash can never leave a write without its record, or a record without its write (D48).

const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A hook that runs inside every write transaction (plan quotas count there, D44). */
export type WriteGuard = (tx: Executor, request: FastifyRequest) => Promise<void>;

function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length < 1 || value.length > 255) {
    throw new AppError('INVALID_PARAMETER', 'Idempotency-Key must be 1-255 characters', [
      { field: 'Idempotency-Key', code: 'INVALID_PARAMETER', message: 'must be 1-255 characters' },
    ]);
  }
  return value;
}

/** The same key may only ever mean the same request: method, path, query and body. */
function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(request.rawBody ?? '')
    .digest('hex');
}

function replay(
  reply: FastifyReply,
  stored: { requestHash: string; statusCode: number; responseBody: string },
  hash: string,
) {
  if (stored.requestHash !== hash) {
    throw new AppError('RESOURCE_CONFLICT', 'This Idempotency-Key was already used with a different request');
  }
  return reply
    .code(stored.statusCode)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(stored.responseBody);
}

/**
 * Runs `write` in one transaction and sends its result as JSON with `statusCode`.
 * With an Idempotency-Key, a retry of the same request gets the first response again.
 */
export async function sendWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  write: (tx: Executor) => Promise<unknown>,
): Promise<FastifyReply> {
  const { db } = request.server;
  const projectId = request.auth.projectId;
  const key = idempotencyKey(request);
  const hash = key === undefined ? '' : requestHash(request);

  if (key !== undefined) {
    const stored = await findStoredResponse(db, projectId, key);
    if (stored) return replay(reply, stored, hash);
  }

  const outcome = await db
    .transaction(async (tx) => {
      for (const guard of request.server.writeGuards) await guard(tx, request);
      const body = stringifyWithRawJson(await write(tx));
      if (key !== undefined) {
        const stored = await storeResponse(tx, projectId, key, {
          requestHash: hash,
          statusCode,
          responseBody: body,
        });
        // A concurrent request with the same key committed first: undo ours, answer with theirs.
        if (!stored) tx.rollback();
      }
      return { body };
    })
    .catch(async (error: unknown) => {
      if (key !== undefined && (error as Error)?.name === 'TransactionRollbackError') return undefined;
      throw error;
    });

  if (outcome === undefined) {
    const stored = await findStoredResponse(db, projectId, key!);
    if (!stored)
      throw new AppError('RESOURCE_CONFLICT', 'A request with this Idempotency-Key is in progress');
    return replay(reply, stored, hash);
  }
  return reply.code(statusCode).type('application/json; charset=utf-8').send(outcome.body);
}
