import { PRUNE_BATCH_ROWS } from '../../db/project-batches.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Executor } from '../../db/client.js';
import { deleteExpiredEvents } from './repository.js';
import type { Sequencer } from './sequencer.js';

// The background work of the outbox, run by the server and by `parley worker`: numbering events
// whose writer stopped between its commit and numbering them (D63), and deleting events older
// than EVENTS_RETENTION_DAYS in small batches (D65). Several instances doing it at once only find
// less to do.

interface UpkeepLogger {
  warn(object: object, message: string): void;
}

export interface EventUpkeepOptions {
  db: Executor;
  sequencer: Pick<Sequencer, 'sweep'>;
  /** EVENTS_RETENTION_DAYS. */
  retentionDays: number;
  /** EVENTS_SWEEP_INTERVAL_MS: pause between sweeps for unnumbered events. */
  sweepIntervalMs: number;
  logger?: UpkeepLogger;
  /** The clock that ages events and paces the rounds; tests move it instead of waiting. */
  now?: () => number;
}

export interface EventUpkeep {
  /** Finishes the round in hand, then stops. */
  stop(): Promise<void>;
}

/** Pruning runs once a minute, or twice per retention period when that is shorter (at most once a second). */
const pruneIntervalMs = (retentionDays: number): number =>
  Math.min(60_000, Math.max(1_000, Math.floor((retentionDays * 86_400_000) / 2)));

export function startEventUpkeep(options: EventUpkeepOptions): EventUpkeep {
  const { sweepIntervalMs } = options;
  const now = options.now ?? Date.now;
  const pruneEveryMs = pruneIntervalMs(options.retentionDays);
  const stopped = new AbortController();
  let sweptAt = 0;
  let prunedAt = 0;

  const loop = (async () => {
    while (!stopped.signal.aborted) {
      // Each task runs on its own period: a long sweep interval is not cut short by pruning's.
      let pauseMs: number;
      try {
        if (now() - sweptAt >= sweepIntervalMs) {
          await options.sequencer.sweep();
          sweptAt = now();
        }
        if (now() - prunedAt >= pruneEveryMs) {
          // Batch after batch, each statement its own short transaction, until the backlog is gone.
          while (!stopped.signal.aborted) {
            const deleted = await deleteExpiredEvents(
              options.db,
              options.retentionDays,
              PRUNE_BATCH_ROWS,
              now(),
            );
            if (deleted < PRUNE_BATCH_ROWS) break;
          }
          prunedAt = now();
        }
        pauseMs = Math.min(sweptAt + sweepIntervalMs, prunedAt + pruneEveryMs) - now();
      } catch (error) {
        // The database may be away for a moment (D77): the next round tries again.
        options.logger?.warn({ err: error }, 'event upkeep failed; retrying');
        pauseMs = Math.min(sweepIntervalMs, pruneEveryMs);
      }
      await sleep(Math.max(0, pauseMs), undefined, { signal: stopped.signal }).catch(() => {});
    }
  })();

  return {
    async stop() {
      stopped.abort();
      await loop;
    },
  };
}
