import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Executor } from '../db/client.js';
import { findStoredResponse, storeResponse } from '../db/idempotency-store.js';
import type { ProjectSettings } from '../db/schema.js';
import { AppError } from './errors.js';
import { stringifyWithRawJson } from './raw-json.js';

// D36: every write, REST or MCP, runs through `runWrite`, so that an Idempotency-Key is honoured
// the same way everywhere and the stored response is committed in the write's own transaction:
// a crash can never leave a write without its record, or a record without its write (D48).

export interface WriteContext {
  projectId: string;
  settings: ProjectSettings;
}

/** A check run inside every write transaction, before the write (plan quotas count there, D44). */
export type WriteGuard = (tx: Executor, context: WriteContext) => Promise<void>;

export interface WriteDeps {
  db: Database;
  guards: readonly WriteGuard[];
}

export interface Idempotency {
  key: string;
  /** Hash of everything that makes the request what it is; the same key with another hash is a conflict. */
  requestHash: string;
}

export interface WriteOutcome {
  statusCode: number;
  /** The response body as JSON text (message content spliced in verbatim, D28). */
  body: string;
  replayed: boolean;
}

function replayed(
  stored: { requestHash: string; statusCode: number; responseBody: string },
  hash: string,
): WriteOutcome {
  if (stored.requestHash !== hash) {
    throw new AppError('RESOURCE_CONFLICT', 'This Idempotency-Key was already used with a different request');
  }
  return { statusCode: stored.statusCode, body: stored.responseBody, replayed: true };
}

/** Runs `write` in one transaction, with the guards and the idempotency record in it. */
export async function runWrite(
  deps: WriteDeps,
  context: WriteContext,
  statusCode: number,
  write: (tx: Executor) => Promise<unknown>,
  idempotency?: Idempotency,
): Promise<WriteOutcome> {
  if (idempotency) {
    const stored = await findStoredResponse(deps.db, context.projectId, idempotency.key);
    if (stored) return replayed(stored, idempotency.requestHash);
  }

  let lostRace = false;
  const body = await deps.db
    .transaction(async (tx) => {
      for (const guard of deps.guards) await guard(tx, context);
      const json = stringifyWithRawJson(await write(tx));
      if (idempotency) {
        const response = { requestHash: idempotency.requestHash, statusCode, responseBody: json };
        if (!(await storeResponse(tx, context.projectId, idempotency.key, response))) {
          // A concurrent request with the same key committed first: undo ours, answer with theirs.
          lostRace = true;
          tx.rollback();
        }
      }
      return json;
    })
    .catch((error: unknown) => {
      if (lostRace) return undefined;
      throw error;
    });

  if (body === undefined) {
    const stored = await findStoredResponse(deps.db, context.projectId, idempotency!.key);
    if (!stored)
      throw new AppError('RESOURCE_CONFLICT', 'A request with this Idempotency-Key is in progress');
    return replayed(stored, idempotency!.requestHash);
  }
  return { statusCode, body, replayed: false };
}

const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The Idempotency-Key of a REST request, validated (1-255 characters, D36). */
export function idempotencyOf(request: FastifyRequest): Idempotency | undefined {
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length < 1 || key.length > 255) {
    throw new AppError('INVALID_PARAMETER', 'Idempotency-Key must be 1-255 characters', [
      { field: 'Idempotency-Key', code: 'INVALID_PARAMETER', message: 'must be 1-255 characters' },
    ]);
  }
  const requestHash = createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(request.rawBody ?? '')
    .digest('hex');
  return { key, requestHash };
}

/** The project a REST request acts for, as services take it. */
export const contextOf = (request: FastifyRequest): WriteContext => ({
  projectId: request.auth.projectId,
  settings: request.auth.settings,
});

/** A REST write: runs it through `runWrite` and sends the outcome. */
export async function sendWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  write: (tx: Executor) => Promise<unknown>,
): Promise<FastifyReply> {
  const { server } = request;
  const outcome = await runWrite(
    { db: server.db, guards: server.writeGuards },
    contextOf(request),
    statusCode,
    write,
    idempotencyOf(request),
  );
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.statusCode).type('application/json; charset=utf-8').send(outcome.body);
}
