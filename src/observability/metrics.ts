import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { type DatabaseHandle, rowsOf } from '../db/client.js';
import { packageVersion } from '../lib/package-info.js';

// Prometheus metrics (D2). One registry per app, so that tests can build several apps.
// Every metric is listed, with its labels and meaning, in docs/metrics.md.

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  httpErrors: Counter<'method' | 'route' | 'status' | 'code'>;
  /** Refusals by the rate limit (RATE_LIMIT_EXCEEDED) and the plan quota (PLAN_LIMIT_EXCEEDED). */
  rateLimitRefusals: Counter<'code'>;
  /**
   * Embeddings stored by the worker, by object type; `rate()` of it is embeddings per second.
   * The embedding worker increments it (see docs/metrics.md).
   */
  embeddings: Counter<'object'>;
  /** Embedding attempts that failed and were put back for a retry with backoff. */
  embeddingFailures: Counter<'object'>;
  /** D72: events committed, by type, counted once each when numbered (never for a rollback). */
  eventsWritten: Counter<'type'>;
  /** D72: webhook delivery attempts by outcome: succeeded, failed (retried later), dropped (last retry failed). */
  webhookDeliveries: Counter<'outcome'>;
  /** D72: time of a delivery attempt, by outcome (succeeded, failed). */
  webhookDeliverySeconds: Histogram<'outcome'>;
  // --- data lifecycle (D150-D154) ---
  /** D154: objects the retention sweeper erased, by object and reason (retention, expired). */
  retentionErased: Counter<'object' | 'reason'>;
  // --- end data lifecycle ---
}

export interface MetricSources {
  /** Pool use and the embedding queue are read from it at each scrape. */
  database?: DatabaseHandle;
  /** D72: the event streams open on this instance, read at each scrape. */
  openEventStreams?: () => number;
}

export function createMetrics(sources: MetricSources = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'parley_' });
  const { database, openEventStreams } = sources;

  if (openEventStreams) {
    new Gauge({
      name: 'parley_event_streams_open',
      help: 'Event streams (GET /api/v1/events/stream) open on this instance',
      registers: [registry],
      collect() {
        this.set(openEventStreams());
      },
    });
  }

  new Gauge({
    name: 'parley_build_info',
    help: 'Always 1; the version label names the running Parley version',
    labelNames: ['version'],
    registers: [registry],
    collect() {
      this.set({ version: packageVersion }, 1);
    },
  });

  if (database) {
    new Gauge({
      name: 'parley_db_pool_connections',
      help: 'Connections of the primary database pool: total open, idle, and clients waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = database.poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });

    // Both queue gauges come from one query per scrape.
    let queueRead: Promise<{ depth: number; due: number; oldestAgeSeconds: number }> | undefined;
    const readQueue = () => {
      queueRead ??= readEmbeddingQueue(database).finally(() => {
        queueRead = undefined;
      });
      return queueRead;
    };
    new Gauge({
      name: 'parley_embedding_queue_depth',
      help: 'Embedding jobs waiting in the queue: all of them, and those due now (not waiting for a retry)',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const queue = await readQueue().catch(() => undefined);
        if (!queue) return;
        this.set({ state: 'all' }, queue.depth);
        this.set({ state: 'due' }, queue.due);
      },
    });
    new Gauge({
      name: 'parley_embedding_queue_oldest_age_seconds',
      help: 'Age of the oldest job in the embedding queue (0 when it is empty)',
      registers: [registry],
      async collect() {
        const queue = await readQueue().catch(() => undefined);
        if (queue) this.set(queue.oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'parley_webhook_oldest_pending_seconds',
      help: 'Age of the oldest pending webhook delivery, by endpoint id (endpoints with none are not listed)',
      labelNames: ['endpoint'],
      registers: [registry],
      async collect() {
        const rows = await readOldestPendingDeliveries(database).catch(() => undefined);
        if (!rows) return;
        this.reset();
        for (const row of rows) this.set({ endpoint: row.endpoint }, Number(row.seconds));
      },
    });
  }

  return {
    registry,
    httpRequests: new Counter({
      name: 'parley_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    httpErrors: new Counter({
      name: 'parley_http_errors_total',
      help: 'Error responses (4xx and 5xx), by method, route pattern, status and error code',
      labelNames: ['method', 'route', 'status', 'code'],
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: 'parley_rate_limit_refusals_total',
      help: 'Requests refused with 429, by code: RATE_LIMIT_EXCEEDED (rate limit) or PLAN_LIMIT_EXCEEDED (quota)',
      labelNames: ['code'],
      registers: [registry],
    }),
    embeddings: new Counter({
      name: 'parley_embeddings_total',
      help: 'Embeddings computed and stored, by object type (message, dialogue, memory)',
      labelNames: ['object'],
      registers: [registry],
    }),
    embeddingFailures: new Counter({
      name: 'parley_embedding_failures_total',
      help: 'Embedding attempts that failed and were scheduled for a retry, by object type',
      labelNames: ['object'],
      registers: [registry],
    }),
    eventsWritten: new Counter({
      name: 'parley_events_written_total',
      help: 'Events committed to the feed, by type (counted by the instance that numbered them)',
      labelNames: ['type'],
      registers: [registry],
    }),
    // --- data lifecycle (D150-D154) ---
    retentionErased: new Counter({
      name: 'parley_retention_erased_total',
      help: 'Objects the retention sweeper erased, by object (message, dialogue, memory) and reason (retention, expired)',
      labelNames: ['object', 'reason'],
      registers: [registry],
    }),
    // --- end data lifecycle ---
    webhookDeliveries: new Counter({
      name: 'parley_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome: succeeded, failed (to be retried), dropped (no retry left)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookDeliverySeconds: new Histogram({
      name: 'parley_webhook_delivery_seconds',
      help: 'Time of a webhook delivery attempt, from connecting to the end of the answer, by outcome',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

/** D72: one aggregate over the pending deliveries, at a scrape (it reads every shard on Citus). */
async function readOldestPendingDeliveries(database: DatabaseHandle) {
  return rowsOf<{ endpoint: string; seconds: number }>(
    await database.db.execute(sql`
      SELECT endpoint_id AS endpoint, extract(epoch FROM now() - min(created))::float8 AS seconds
      FROM webhook_deliveries WHERE status = 'pending' GROUP BY endpoint_id`),
  );
}

/** One aggregate over the queue table; on Citus it fans out to every shard, which a scrape may do. */
async function readEmbeddingQueue(database: DatabaseHandle) {
  const result = await database.db.execute(sql`
    SELECT count(*)::int AS depth,
           (count(*) FILTER (WHERE run_at <= now()))::int AS due,
           coalesce(extract(epoch FROM now() - min(created)), 0)::float8 AS oldest
    FROM embedding_jobs`);
  const row = rowsOf<{ depth: number; due: number; oldest: number }>(result)[0];
  return {
    depth: Number(row?.depth ?? 0),
    due: Number(row?.due ?? 0),
    oldestAgeSeconds: Number(row?.oldest ?? 0),
  };
}
