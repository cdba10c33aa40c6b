import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import type { Executor } from '../db/client.js';
import type { ProjectContext } from '../core/context.js';
import {
  type Idempotency,
  type StagedStatus,
  type StagedWrite,
  type StandaloneWrite,
  type WriteOutcome,
  runStagedWrite,
  runWrite,
} from '../db/unit-of-work.js';

// REST glue of the unit of work (src/db/unit-of-work.ts): the Idempotency-Key header, the
// project of the request, and sending the outcome.

const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The Idempotency-Key of a REST request, validated (1-255 characters, D36). */
function idempotencyOf(request: FastifyRequest): Idempotency | undefined {
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
  return { key, requestHash, ttlHours: request.server.config.IDEMPOTENCY_TTL_HOURS };
}

/** The project a REST request acts for, as services take it. */
export const contextOf = (request: FastifyRequest): ProjectContext => ({
  projectId: request.auth.projectId,
  settings: request.auth.settings,
});

function send(reply: FastifyReply, outcome: WriteOutcome): FastifyReply {
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.statusCode).type('application/json; charset=utf-8').send(outcome.body);
}

/**
 * A REST write: runs it through `runWrite` and sends the outcome. `standalone` is the same write
 * as one statement outside a transaction, tried first where it can be (D174).
 */
export async function sendWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  write: (tx: Executor) => Promise<unknown>,
  standalone?: StandaloneWrite,
): Promise<FastifyReply> {
  const { server } = request;
  const check = server.responseCheck;
  // Test mode: the result is checked against the route's schema before it is stringified.
  const checked =
    <A extends unknown[]>(run: (...args: A) => Promise<unknown>) =>
    async (...args: A) => {
      const body = await run(...args);
      if (body !== undefined) check?.(request, statusCode, body);
      return body;
    };
  const outcome = await runWrite(
    server.writeDeps,
    contextOf(request),
    statusCode,
    check ? checked(write) : write,
    idempotencyOf(request),
    standalone && check ? checked(standalone) : standalone,
  );
  return send(reply, outcome);
}

/**
 * A REST write whose transaction comes after slow work outside it (compact, continue and
 * `POST /summary`: a model writes the summary first, D22), run by the unit of work's
 * `runStagedWrite` as every staged write is, MCP's included.
 */
export async function sendStagedWrite<P, R>(
  request: FastifyRequest,
  reply: FastifyReply,
  status: StagedStatus,
  staged: StagedWrite<P, R>,
): Promise<FastifyReply> {
  const { server } = request;
  const check = server.responseCheck;
  const outcome = await runStagedWrite(
    server.writeDeps,
    contextOf(request),
    status,
    staged,
    idempotencyOf(request),
    // Test mode: each answer is checked against the route's schema before it is stringified.
    check && ((statusCode, body) => check(request, statusCode, body)),
  );
  return send(reply, outcome);
}
