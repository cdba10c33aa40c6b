import { PRUNE_BATCH_ROWS } from './project-batches.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Executor } from './client.js';
import { deleteExpiredResponses } from './idempotency-store.js';

// D75: expired idempotent responses are deleted in the background, in small batches, at least
// once a minute. The server runs this, and so does `parley worker`; several instances pruning at
// once only find less to delete.

interface PrunerLogger {
  warn(object: object, message: string): void;
}

export interface IdempotencyPrunerOptions {
  db: Executor;
  /** IDEMPOTENCY_TTL_HOURS. */
  ttlHours: number;
  /** Rows per statement. */
  batchRows?: number;
  /** Pause between rounds; by default `pruneIntervalMs(ttlHours)`. */
  intervalMs?: number;
  logger?: PrunerLogger;
  /** The clock that ages the records; tests move it instead of waiting for the TTL. */
  now?: () => number;
}

export interface IdempotencyPruner {
  /** Finishes the batch in hand, then stops. */
  stop(): Promise<void>;
}

/** Once a minute, or twice per TTL when the TTL is shorter than two minutes (at most once a second). */
export const pruneIntervalMs = (ttlHours: number): number =>
  Math.min(60_000, Math.max(1_000, Math.floor((ttlHours * 3_600_000) / 2)));

/** Starts pruning now and then every interval until `stop()`. A failing round is logged and retried next time. */
export function startIdempotencyPruner(options: IdempotencyPrunerOptions): IdempotencyPruner {
  const batchRows = options.batchRows ?? PRUNE_BATCH_ROWS;
  const intervalMs = options.intervalMs ?? pruneIntervalMs(options.ttlHours);
  const stopped = new AbortController();

  const loop = (async () => {
    while (!stopped.signal.aborted) {
      try {
        // Batch after batch, each statement its own short transaction, until the backlog is gone.
        while (!stopped.signal.aborted) {
          const deleted = await deleteExpiredResponses(
            options.db,
            options.ttlHours,
            batchRows,
            (options.now ?? Date.now)(),
          );
          if (deleted < batchRows) break;
        }
      } catch (error) {
        // The database may be away for a moment (D77): the next round tries again.
        options.logger?.warn({ err: error }, 'could not delete expired idempotency records');
      }
      await sleep(intervalMs, undefined, { signal: stopped.signal }).catch(() => {});
    }
  })();

  return {
    async stop() {
      stopped.abort();
      await loop;
    },
  };
}
