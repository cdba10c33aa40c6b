import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';

// Load shedding: an overloaded process answers 503 SERVICE_UNAVAILABLE with Retry-After at once
// (D14), so that clients back off and retry elsewhere, instead of letting requests time out.

/** Liveness and metrics stay answered: an instance shedding load is alive and should be watched. */
const NEVER_SHED = new Set(['/healthz', '/metrics']);

/** Default heap ceiling: 90% of V8's limit, where garbage collection starts to eat the process. */
const defaultMaxHeapUsedBytes = (): number => Math.floor(getHeapStatistics().heap_size_limit * 0.9);

/**
 * Default event-loop delay ceiling: 1 s on PostgreSQL. On the embedded database every query runs
 * on the event loop itself (PGlite is WebAssembly in this thread), so the delay measures the
 * database's work, not overload: a few concurrent 1 MiB messages hold the loop for seconds while
 * every request is still answered. There the check is off unless configured.
 */
const defaultMaxEventLoopDelayMs = (databaseKind: 'postgres' | 'pglite'): number =>
  databaseKind === 'postgres' ? 1000 : 0;

export async function registerLoadShedding(app: FastifyInstance, config: Config): Promise<void> {
  const retryAfter = config.LOAD_SHED_RETRY_AFTER_SECONDS;
  await app.register(underPressure, {
    maxEventLoopDelay:
      config.LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS ?? defaultMaxEventLoopDelayMs(app.database.kind),
    maxHeapUsedBytes: config.LOAD_SHED_MAX_HEAP_USED_BYTES ?? defaultMaxHeapUsedBytes(),
    maxRssBytes: config.LOAD_SHED_MAX_RSS_BYTES,
    maxEventLoopUtilization: config.LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION,
    sampleInterval: config.LOAD_SHED_SAMPLE_INTERVAL_MS,
    retryAfter,
    pressureHandler: async (request: FastifyRequest, _reply, type: string) => {
      if (NEVER_SHED.has(request.routeOptions.url ?? '')) return;
      request.log.debug({ pressure: type }, 'shedding load');
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The server is overloaded; retry after the delay in Retry-After',
        undefined,
        retryAfter,
      );
    },
  });
}
