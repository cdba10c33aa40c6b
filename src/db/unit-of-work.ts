import type { Database, Executor } from './client.js';
import { type StoredResponse, findStoredResponse, storeResponse } from './idempotency-store.js';
import type { ProjectContext } from '../core/context.js';
import { AppError } from '../core/errors.js';
import { objectRefsOf } from '../core/object-refs.js';
import { stringifyWithRawJson } from '../core/raw-json.js';

// D36: every write, REST or MCP, runs through `runWrite`, so that an Idempotency-Key is honoured
// the same way everywhere and the stored response is committed in the write's own transaction:
// a crash can never leave a write without its record, or a record without its write (D48).

/** A check run inside every write transaction, before the write (plan quotas count there, D44). */
export type WriteGuard = (tx: Executor, context: ProjectContext) => Promise<void>;

export interface WriteDeps {
  db: Database;
  guards: readonly WriteGuard[];
  /**
   * Told after the write committed (never after a rollback or a replay), with the transaction it
   * ran in: the events it wrote are numbered just after their commit (D63,
   * src/modules/events/sequencer.ts).
   */
  afterCommit?: (context: ProjectContext, tx: Executor) => void;
}

export interface Idempotency {
  key: string;
  /** Hash of everything that makes the request what it is; the same key with another hash is a conflict. */
  requestHash: string;
  /** How long a stored response is replayed (IDEMPOTENCY_TTL_HOURS, D75). */
  ttlHours: number;
}

export interface WriteOutcome {
  statusCode: number;
  /** The response body as JSON text (message content spliced in verbatim, D28). */
  body: string;
  replayed: boolean;
}

function replayed(stored: StoredResponse, hash: string): WriteOutcome {
  if (stored.requestHash !== hash) {
    throw new AppError('RESOURCE_CONFLICT', 'This Idempotency-Key was already used with a different request');
  }
  if (stored.responseBody === null) {
    // D73: the response carried content that has been deleted since; the write is not run again.
    throw new AppError('RESOURCE_CONFLICT', 'The object this request wrote has since been deleted');
  }
  return { statusCode: stored.statusCode, body: stored.responseBody, replayed: true };
}

/**
 * The response stored for `idempotency`, as its replay; undefined when the key has none (or when
 * there is no key). A staged write, whose transaction comes after slow work outside it (a model
 * writing a summary, D22), asks this before that work: a retry of a request that already
 * succeeded is then answered without calling the model again. `runWrite` asks again before its
 * transaction, and its transaction settles a race between two requests with one key.
 */
export async function replayIfStored(
  db: Executor,
  context: ProjectContext,
  idempotency: Idempotency | undefined,
): Promise<WriteOutcome | undefined> {
  if (!idempotency) return undefined;
  const stored = await findStoredResponse(db, context.projectId, idempotency.key, idempotency.ttlHours);
  return stored && replayed(stored, idempotency.requestHash);
}

/** Runs `write` in one transaction, with the guards and the idempotency record in it. */
export async function runWrite(
  deps: WriteDeps,
  context: ProjectContext,
  statusCode: number,
  write: (tx: Executor) => Promise<unknown>,
  idempotency?: Idempotency,
): Promise<WriteOutcome> {
  const stored = await replayIfStored(deps.db, context, idempotency);
  if (stored) return stored;

  let lostRace = false;
  let committed: Executor | undefined;
  const body = await deps.db
    .transaction(async (tx) => {
      committed = tx;
      for (const guard of deps.guards) await guard(tx, context);
      const result = await write(tx);
      const json = stringifyWithRawJson(result);
      if (idempotency) {
        const response = {
          requestHash: idempotency.requestHash,
          statusCode,
          responseBody: json,
          objectRefs: objectRefsOf(result),
        };
        if (!(await storeResponse(tx, context.projectId, idempotency.key, response, idempotency.ttlHours))) {
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
    const stored = await findStoredResponse(
      deps.db,
      context.projectId,
      idempotency!.key,
      idempotency!.ttlHours,
    );
    if (!stored)
      throw new AppError('RESOURCE_CONFLICT', 'A request with this Idempotency-Key is in progress');
    return replayed(stored, idempotency!.requestHash);
  }
  deps.afterCommit?.(context, committed!);
  return { statusCode, body, replayed: false };
}
