import { setTimeout as sleep } from 'node:timers/promises';
import type { ErasureService } from './service.js';

// D164: the background side of namespace erasure, started by background.ts on every server and on
// `parley worker`. Instances share the work through the erasures' leases: one instance works on an
// erasure at a time, and an erasure whose instance stopped is resumed by any other once its lease
// runs out.

interface ErasureWorkerLogger {
  warn(object: object, message: string): void;
}

export interface ErasureWorker {
  /** Finishes the batch in hand, then stops. */
  stop(): Promise<void>;
}

export function startErasureWorker(options: {
  erasures: Pick<ErasureService, 'runDue'>;
  /** ERASURE_POLL_MS. */
  pollMs: number;
  logger?: ErasureWorkerLogger;
}): ErasureWorker {
  const stopped = new AbortController();
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      try {
        await options.erasures.runDue(() => stopped.signal.aborted);
      } catch (error) {
        // The database may be away for a moment (D77); the lease lets the next round resume.
        options.logger?.warn({ err: error }, 'namespace erasure failed; retrying');
      }
      await sleep(options.pollMs, undefined, { signal: stopped.signal }).catch(() => {});
    }
  })();
  return {
    async stop() {
      stopped.abort();
      await loop;
    },
  };
}
