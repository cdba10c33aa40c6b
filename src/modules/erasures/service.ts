import type { ProjectContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import type { Database, Executor } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { DialogueService } from '../dialogues/service.js';
import type { EventOutbox } from '../events/outbox.js';
import type { Sequencer } from '../events/sequencer.js';
import type { MemoryService } from '../memories/service.js';
import { lockNamespace } from './erasing-sql.js';
import { type ErasureCounts, type ErasureRecord, emptyCounts, toErasureRecord } from './records.js';
import * as repo from './repository.js';

// D162-D165: forgetting an end user. A request records a pending erasure of the namespace (at
// once its data reads as gone and takes no new writes, D163); the erasure itself runs in the
// background, batch after batch, each one transaction that deletes dialogues and memories exactly
// as their deletions do (D23, D73) and adds to the counts, until nothing of the namespace is left.

export interface ErasureServiceDeps {
  db: Database;
  readDb: Database;
  dialogues: Pick<DialogueService, 'eraseNamespaceBatch'>;
  memories: Pick<MemoryService, 'eraseNamespaceBatch'>;
  outbox: Pick<EventOutbox, 'record' | 'numberBeforeCommit'>;
  /**
   * The batches run outside `runWrite`: their events are numbered after their commit (D63), or
   * announced then, numbered before it on the embedded store (D191).
   */
  sequencer: Pick<Sequencer, 'announce' | 'schedule' | 'settle'>;
  /** ERASURE_BATCH_SIZE: dialogues and memories per transaction. */
  batchSize: number;
  /** How long a claimed erasure is this instance's before another may take it over. */
  leaseMs?: number;
  now?: () => number;
}

const erasureNotFound = (id: string): AppError =>
  new AppError('RESOURCE_NOT_FOUND', `Erasure ${id} not found`);

export function createErasureService({
  db,
  readDb,
  dialogues,
  memories,
  outbox,
  sequencer,
  batchSize,
  leaseMs = 60_000,
  now = Date.now,
}: ErasureServiceDeps) {
  /**
   * One batch of an erasure whose lease this instance holds (`held`): deletes up to `batchSize`
   * objects, or completes the erasure when none is left (with its `namespace.erased` receipt,
   * D165). Returns the new lease to go on with, 'done', or 'taken over' (another instance has it).
   */
  async function runBatch(
    row: repo.ErasureRow,
    counts: ErasureCounts,
    held: Date,
  ): Promise<Date | 'done' | 'taken over'> {
    const key = { projectId: row.projectId, id: row.id };
    const leaseUntil = new Date(now() + leaseMs);
    let takenOver = false;
    /** The receipt's type once the transaction numbered it (D191), announced after the commit. */
    let numbered: string[] | undefined;
    const outcome = await db
      .transaction(async (tx) => {
        const erased = await dialogues.eraseNamespaceBatch(tx, row.projectId, row.namespace, batchSize);
        const memoriesErased =
          erased.dialogues < batchSize
            ? await memories.eraseNamespaceBatch(
                tx,
                row.projectId,
                row.namespace,
                batchSize - erased.dialogues,
              )
            : 0;
        const next = {
          dialogues: counts.dialogues + erased.dialogues,
          messages: counts.messages + erased.messages,
          memories: counts.memories + memoriesErased,
        };
        const done = erased.dialogues + memoriesErased === 0;
        const completedAt = done ? new Date(now()) : undefined;
        if (!(await repo.recordProgress(tx, key, held, { counts: next, leaseUntil, completedAt }))) {
          // The lease ran out and another instance took the erasure: this batch is undone.
          takenOver = true;
          tx.rollback();
        }
        if (completedAt) {
          const record = toErasureRecord({ ...row, counts: next, status: 'completed', completedAt });
          await outbox.record(tx, row.projectId, [
            {
              type: 'namespace.erased',
              namespace: row.namespace,
              dialogueId: null,
              objectId: row.id,
              data: record,
            },
          ]);
          numbered = await outbox.numberBeforeCommit(tx, row.projectId);
        }
        Object.assign(counts, next);
        return done ? ('done' as const) : ('more' as const);
      })
      .catch((error: unknown) => {
        if (takenOver) return 'taken over' as const;
        throw error;
      });
    if (numbered) sequencer.announce(row.projectId, numbered);
    else sequencer.schedule(row.projectId);
    return outcome === 'more' ? leaseUntil : outcome;
  }

  /** Claims one erasure and runs it to its end (unless `stopped`); true when it completed here. */
  async function runOne(key: { projectId: string; id: string }, stopped: () => boolean): Promise<boolean> {
    let held: Date | 'done' | 'taken over' = new Date(now() + leaseMs);
    const row = await repo.claimErasure(db, key, new Date(now()), held);
    if (!row) return false;
    const counts = { ...emptyCounts(), ...row.counts };
    while (held instanceof Date && !stopped()) held = await runBatch(row, counts, held);
    return held === 'done';
  }

  async function request(tx: Executor, ctx: ProjectContext, namespace: string): Promise<ErasureRecord> {
    await lockNamespace(tx, ctx.projectId, namespace, 'exclusive');
    const row =
      (await repo.insertErasure(tx, { projectId: ctx.projectId, id: newId('era'), namespace })) ??
      (await repo.findPendingErasure(tx, ctx.projectId, namespace));
    if (!row) throw new AppError('RESOURCE_CONFLICT', `The erasure of ${namespace} changed meanwhile; retry`);
    return toErasureRecord(row);
  }

  async function get(ctx: ProjectContext, id: string): Promise<ErasureRecord> {
    const row = await repo.findErasure(readDb, ctx.projectId, id);
    if (!row) throw erasureNotFound(id);
    return toErasureRecord(row);
  }

  return {
    /**
     * DELETE /namespaces/{namespace} (D162): the pending erasure of the namespace, new or the one
     * already pending (a retry). The namespace's lock, taken alone, waits for the writes creating
     * objects in it that got in first (D163).
     */
    request,

    /** GET /erasures/{id}: status and counts so far. */
    get,

    /**
     * `parley namespace erase` (D162): requests the erasure and runs it here to its end; when
     * another instance holds it already, the record as it stands (that instance completes it).
     */
    async eraseNow(ctx: ProjectContext, namespace: string): Promise<ErasureRecord> {
      const record = await db.transaction((tx) => request(tx, ctx, namespace));
      await runOne({ projectId: ctx.projectId, id: record.id }, () => false);
      // A command's process ends next: its events are numbered first (D63).
      await sequencer.settle(ctx.projectId);
      return get(ctx, record.id);
    },

    /**
     * D164: runs the pending erasures no instance holds, each to its end unless `stopped` says so
     * (its lease then runs out and any instance resumes it). Returns how many completed.
     */
    async runDue(stopped: () => boolean = () => false): Promise<number> {
      let completed = 0;
      for (const due of await repo.dueErasures(db, new Date(now()), 10)) {
        if (stopped()) break;
        if (await runOne(due, stopped)) completed += 1;
      }
      return completed;
    },
  };
}

export type ErasureService = ReturnType<typeof createErasureService>;
