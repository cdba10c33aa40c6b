import type { SQL } from 'drizzle-orm';
import type { Database, Executor } from './client.js';
import { type StoredResponse, findStoredResponse, storeResponse } from './idempotency-store.js';
import type { ProjectContext } from '../core/context.js';
import { AppError } from '../core/errors.js';
import { objectRefsOf } from '../core/object-refs.js';
import { stringifyWithRawJson } from '../core/raw-json.js';

// D36: every write, REST or MCP, runs through `runWrite`, so that an Idempotency-Key is honoured
// the same way everywhere and the stored response is committed in the write's own transaction:
// a crash can never leave a write without its record, or a record without its write (D48).

/**
 * A check run inside every write transaction, before the write (plan quotas count there, D44).
 * `inStatement`, when the guard has it, is the guard as the first part of a standalone write's
 * statement (D174): a data-modifying statement returning a row when the guard lets the write
 * through, run before the write's own parts (they wait for it, so locks are taken in the
 * transaction's order); the write's statement writes only when every guard's part returned its
 * row, and aborts itself when it does not write, taking the guards' changes with it. It answers
 * undefined when only the transaction can decide (a quota of 0 refuses every write).
 */
export type WriteGuard = ((tx: Executor, context: ProjectContext) => Promise<void>) & {
  inStatement?: (context: ProjectContext) => SQL | undefined;
};

/**
 * What one write's transaction carries besides its statements, made by `runWrite` for that write
 * alone and read after its commit.
 */
interface WriteScope {
  /** The write is one statement without a transaction (D174). */
  standalone: boolean;
  /** Set by the outbox when the write recorded events that have no number yet (D63). */
  eventsToNumber: boolean;
  /** The types of the events the write numbered itself (D191), one per event, in order. */
  eventsNumbered: string[];
}

const newWriteScope = (standalone: boolean): WriteScope => ({
  standalone,
  eventsToNumber: false,
  eventsNumbered: [],
});

/**
 * The transaction a write runs in (or, for a standalone write, D174, the database as that write
 * sees it). `runWrite` gives it the write's scope; a transaction opened elsewhere (an import, a
 * worker) has none, and whoever opened it numbers its events itself.
 */
export type WriteTx = Executor & { readonly writeScope?: WriteScope };

export interface WriteDeps {
  db: Database;
  guards: readonly WriteGuard[];
  /**
   * Run last in a write's transaction (not after a standalone write's statement, D174): the events
   * it recorded are numbered here on the embedded store (D191).
   */
  beforeCommit?: (tx: WriteTx, context: ProjectContext) => Promise<void>;
  /**
   * Told after the write committed (never after a rollback or a replay), with the write's scope:
   * the events it recorded are numbered just after their commit (D63,
   * src/modules/events/sequencer.ts), or announced when they were numbered at their insert (D191).
   */
  afterCommit?: (context: ProjectContext, scope: WriteScope) => void;
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
 * there is no key). `runStagedWrite` asks this before its slow work: a retry of a request that
 * already succeeded is then answered without calling the model again. `runWrite` asks again before
 * its transaction, and its transaction settles a race between two requests with one key.
 */
async function replayIfStored(
  db: Executor,
  context: ProjectContext,
  idempotency: Idempotency | undefined,
): Promise<WriteOutcome | undefined> {
  if (!idempotency) return undefined;
  const stored = await findStoredResponse(db, context.projectId, idempotency.key, idempotency.ttlHours);
  return stored && replayed(stored, idempotency.requestHash);
}

/**
 * D174: a write that can also be made one statement, run alone outside any transaction, with the
 * guards' parts (`WriteGuard.inStatement`) first in it: one round trip where a transaction takes
 * four. It answers undefined when it did not write, its statement having aborted itself (the
 * write would be refused, or would take an id already taken): the write then runs in its
 * transaction, which names the error.
 */
export type StandaloneWrite = (db: WriteTx, guards: SQL[]) => Promise<unknown>;

/** The guards as parts of a statement, or undefined when one of them cannot be (D174). */
function guardsInStatement(guards: readonly WriteGuard[], context: ProjectContext): SQL[] | undefined {
  const parts = guards.map((guard) => guard.inStatement?.(context));
  return parts.every((part) => part !== undefined) ? parts : undefined;
}

/**
 * Runs `write` in one transaction, with the guards and the idempotency record in it. With
 * `standalone`, and when neither an Idempotency-Key (its record must commit with the write) nor a
 * guard needs the transaction, the write is first tried as one statement (D174).
 */
export async function runWrite(
  deps: WriteDeps,
  context: ProjectContext,
  statusCode: number,
  write: (tx: Executor) => Promise<unknown>,
  idempotency?: Idempotency,
  standalone?: StandaloneWrite,
): Promise<WriteOutcome> {
  const guards = standalone && !idempotency ? guardsInStatement(deps.guards, context) : undefined;
  if (standalone && guards) {
    const scope = newWriteScope(true);
    // The write's scope rides on a view of the database made for this write alone, as it does on
    // a transaction (the outbox marks it when the statement writes events).
    const db: WriteTx = Object.create(deps.db, { writeScope: { value: scope } });
    const result = await standalone(db, guards);
    if (result !== undefined) {
      deps.afterCommit?.(context, scope);
      return { statusCode, body: stringifyWithRawJson(result), replayed: false };
    }
  }
  return transact(deps, context, async (tx) => ({ statusCode, result: await write(tx) }), idempotency);
}

/**
 * One write transaction whose answer's status the write itself chooses. With `undo`, the write
 * found its answer without writing: the transaction is rolled back (no quota counted, D44; no
 * Idempotency-Key record) and the answer given all the same.
 */
async function transact(
  deps: WriteDeps,
  context: ProjectContext,
  write: (tx: Executor) => Promise<{ statusCode: number; result: unknown; undo?: boolean }>,
  idempotency?: Idempotency,
): Promise<WriteOutcome> {
  const stored = await replayIfStored(deps.db, context, idempotency);
  if (stored) return stored;

  let lostRace = false;
  let undone: WriteOutcome | undefined;
  const scope = newWriteScope(false);
  const answer = await deps.db
    .transaction(async (tx) => {
      Object.defineProperty(tx, 'writeScope', { value: scope });
      for (const guard of deps.guards) await guard(tx, context);
      const { statusCode, result, undo } = await write(tx);
      const json = stringifyWithRawJson(result);
      if (undo) {
        undone = { statusCode, body: json, replayed: false };
        tx.rollback();
      }
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
      await deps.beforeCommit?.(tx, context);
      return { statusCode, body: json };
    })
    .catch((error: unknown) => {
      if (lostRace || undone) return undefined;
      throw error;
    });

  if (undone) return undone;
  if (answer === undefined) {
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
  deps.afterCommit?.(context, scope);
  return { ...answer, replayed: false };
}

/**
 * What a staged write's step gives: its object, either written by it (`created`) or found stored
 * already (`existing`: a client-given id that a summary has, D56), which is answered without a
 * write: an `existing` from `apply` rolls its transaction back.
 */
export type Applied<R> = { kind: 'created'; result: R } | { kind: 'existing'; result: R };

/**
 * Thrown by a staged write's `apply` when what `prepare` read changed before the transaction: the
 * transaction is undone and a new round starts. `reusable` says whether the next `prepare` may build
 * on this round's preparation (it is handed back as `carried`) or must start afresh.
 */
export class Overtaken extends Error {
  constructor(readonly reusable = true) {
    super('overtaken by a concurrent write');
  }
}

/**
 * D85: a write whose transaction comes after slow work that must hold none open (a model writing a
 * summary, D22). The domain states the two steps; `runStagedWrite` alone runs them, for REST and
 * MCP alike, so that no domain function is handed a transport's reply or a continuation.
 */
export interface StagedWrite<P, R> {
  /**
   * Outside any transaction: reads and the slow work. `carried` is the previous round's
   * preparation when that round was overtaken (`Overtaken.reusable`); `round` counts from 1. May
   * answer `existing` at once, without a transaction.
   */
  prepare(carried: P | undefined, round: number): Promise<{ kind: 'prepared'; prepared: P } | Applied<R>>;
  /** In the write's transaction, with its guards (D44) and Idempotency-Key record (D36). */
  apply(tx: Executor, prepared: P): Promise<Applied<R>>;
  /** How many rounds may be overtaken before the write gives up with `overtakenTooOften`. */
  rounds: number;
  overtakenTooOften(): AppError;
}

/**
 * A staged write of one round, never overtaken: `prepare` does the slow part (a DNS check, a read of
 * the feed, D69) and gives the transaction's work.
 */
export function oneRound<R>(
  prepare: () => Promise<(tx: Executor) => Promise<R>>,
): StagedWrite<(tx: Executor) => Promise<R>, R> {
  return {
    prepare: async () => ({ kind: 'prepared', prepared: await prepare() }),
    apply: async (tx, write) => ({ kind: 'created', result: await write(tx) }),
    rounds: 1,
    overtakenTooOften: () => new AppError('RESOURCE_CONFLICT', 'The write was overtaken by another; retry'),
  };
}

/** The status of each kind of answer: a summary created is 201, one found stored is 200 (D56). */
export interface StagedStatus {
  created: number;
  existing: number;
}

/**
 * Runs a staged write: a retry whose key already has a response is answered before `prepare`, so
 * it costs no model call; then rounds of `prepare` and `apply` (in `runWrite`'s transaction, which
 * checks the key again) until one is not overtaken. `check` sees every answer before it is
 * stringified (the test-mode response check).
 */
export async function runStagedWrite<P, R>(
  deps: WriteDeps,
  context: ProjectContext,
  status: StagedStatus,
  staged: StagedWrite<P, R>,
  idempotency?: Idempotency,
  check?: (statusCode: number, result: R) => void,
): Promise<WriteOutcome> {
  const stored = await replayIfStored(deps.db, context, idempotency);
  if (stored) return stored;
  const answer = ({ kind, result }: Applied<R>) => {
    const statusCode = status[kind];
    check?.(statusCode, result);
    return { statusCode, result, undo: kind === 'existing' };
  };
  let carried: P | undefined;
  for (let round = 1; ; round++) {
    const step = await staged.prepare(carried, round);
    if (step.kind !== 'prepared') {
      const { statusCode, result } = answer(step);
      return { statusCode, body: stringifyWithRawJson(result), replayed: false };
    }
    carried = step.prepared;
    try {
      return await transact(
        deps,
        context,
        async (tx) => answer(await staged.apply(tx, step.prepared)),
        idempotency,
      );
    } catch (error) {
      if (!(error instanceof Overtaken)) throw error;
      if (!error.reusable) carried = undefined;
      if (round === staged.rounds) throw staged.overtakenTooOften();
    }
  }
}
