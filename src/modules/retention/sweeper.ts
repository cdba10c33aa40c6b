import { setTimeout as sleep } from 'node:timers/promises';
import type { RetentionService } from './service.js';

// D154: the retention sweeper, run by the server and by `parley worker` alike (background.ts).
// Every RETENTION_SWEEP_INTERVAL_MS it sweeps every project; instances sweeping at once skip the
// projects another holds, so each object is erased once.

interface SweeperLogger {
  warn(object: object, message: string): void;
}

export interface RetentionSweeperOptions {
  retention: Pick<RetentionService, 'sweepAll'>;
  /** RETENTION_SWEEP_INTERVAL_MS: the pause between two sweeps. */
  intervalMs: number;
  logger?: SweeperLogger;
}

export interface RetentionSweeper {
  /** Finishes the batch in hand, then stops. */
  stop(): Promise<void>;
}

export function startRetentionSweeper({
  retention,
  intervalMs,
  logger,
}: RetentionSweeperOptions): RetentionSweeper {
  const stopped = new AbortController();
  const loop = (async () => {
    // The first sweep after one interval: a process that starts does not add its sweep to its start.
    for (;;) {
      await sleep(intervalMs, undefined, { signal: stopped.signal }).catch(() => {});
      if (stopped.signal.aborted) break;
      try {
        await retention.sweepAll(() => stopped.signal.aborted);
      } catch (error) {
        // The database may be away for a moment (D77): the batch rolled back whole; the next sweep retries.
        logger?.warn({ err: error }, 'retention sweep failed; retrying at the next one');
      }
    }
  })();
  return {
    async stop() {
      stopped.abort();
      await loop;
    },
  };
}
