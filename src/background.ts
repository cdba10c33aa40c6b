import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { startEmbeddedVacuum } from './db/embedded-vacuum.js';
import { startIdempotencyPruner } from './db/idempotency-pruner.js';
import type { Embedder } from './embedders/embedder.js';
import { ensureVectorIndexes } from './modules/embeddings/vector-sql.js';
import { drainEmbeddingQueue, reindexEmbeddings, startEmbeddingWorker } from './modules/embeddings/worker.js';
import { startErasureWorker } from './modules/erasures/worker.js';
import { EVENTS_CHANNEL } from './modules/events/sequencer.js';
import { startEventUpkeep } from './modules/events/upkeep.js';
import { startRetentionSweeper } from './modules/retention/sweeper.js';
import type { HostLookup } from './modules/webhooks/url-safety.js';
import { startWebhookWorker, webhookSettings } from './modules/webhooks/worker.js';
import type { Metrics } from './observability/metrics.js';
import type { Services } from './services.js';

// The one place that starts the work a process does besides answering requests: the embedding
// worker (D40), webhook deliveries (D68), the LISTEN connection that wakes event streams and the
// webhook worker (D66), the event upkeep (numbering what a stopped writer left, pruning, D63, D65)
// the idempotency pruner (D75), the retention sweeper (D154) and, on the embedded store, its vacuum
// and analyze (D192). The server (app.ts) and `parley worker` (cli.ts) both call it, so that both
// run the same work with the same error reporting and metrics.

interface BackgroundLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface BackgroundDeps {
  config: Config;
  database: DatabaseHandle;
  /** The process's event plumbing and feed, as services.ts wired them. */
  services: Pick<Services, 'eventHub' | 'eventSequencer' | 'events' | 'outbox' | 'retention' | 'erasures'>;
  /** The configured embedder (D41); undefined with EMBEDDINGS=none: no embeddings to make. */
  embedder: Embedder | undefined;
  logger: BackgroundLogger;
  metrics: Metrics;
  /**
   * Which workers run in this process. A server runs those its configuration keeps
   * (EMBEDDING_WORKER, WEBHOOK_WORKER); `parley worker` runs both.
   */
  workers: { embeddings: boolean; webhooks: boolean };
  /** D69: resolves webhook host names (tests control DNS). */
  webhookLookup?: HostLookup;
  /** WEBHOOK_CA_FILE's certificates, read before anything starts. */
  webhookCa?: string;
}

export interface BackgroundWork {
  /**
   * Ends the streams' wake-ups and the workers' rounds in hand (unfinished embedding jobs keep
   * their lease and return to the queue; webhook attempts in hand are due again at once), then
   * closes the LISTEN connection. Call it before the database closes.
   */
  stop(): Promise<void>;
}

export async function startBackgroundWork(deps: BackgroundDeps): Promise<BackgroundWork> {
  const { config, database, services, embedder, logger, metrics } = deps;
  const { eventHub, eventSequencer } = services;
  const stoppers: (() => Promise<void>)[] = [];

  // D41: the configured model's vector indexes exist before anything is embedded or searched.
  if (embedder) await ensureVectorIndexes(database, embedder);
  if (embedder && deps.workers.embeddings) {
    const worker = startEmbeddingWorker({
      db: database.db,
      embedder,
      logger,
      idleMs: 500,
      metrics,
      longRunning: (fn) => database.withDedicatedConnection(fn),
    });
    stoppers.push(() => worker.stop());
  }

  // D66: one LISTEN connection per process wakes the open streams (and the webhook worker) when
  // another instance numbered events.
  const listening = await database.listen(EVENTS_CHANNEL, {
    onNotification: (payload) => {
      const projectId = eventSequencer.notifiedProject(payload);
      if (projectId !== undefined) eventHub.wake(projectId);
    },
    onListening: () => eventHub.wakeAll(),
  });

  if (deps.workers.webhooks) {
    const worker = startWebhookWorker({
      ...webhookSettings(config),
      db: database.db,
      events: services.events,
      outbox: services.outbox,
      hub: eventHub,
      lookup: deps.webhookLookup,
      trustedCa: deps.webhookCa,
      logger,
      metrics,
    });
    stoppers.push(() => worker.stop());
  }

  const upkeep = startEventUpkeep({
    db: database.db,
    sequencer: eventSequencer,
    retentionDays: config.EVENTS_RETENTION_DAYS,
    sweepIntervalMs: config.EVENTS_SWEEP_INTERVAL_MS,
    logger,
  });
  stoppers.push(() => upkeep.stop());

  // D164: every process works on pending namespace erasures; their leases share the work.
  const erasureWorker = startErasureWorker({
    erasures: services.erasures,
    pollMs: config.ERASURE_POLL_MS,
    logger,
  });
  stoppers.push(() => erasureWorker.stop());

  const pruner = startIdempotencyPruner({
    db: database.db,
    ttlHours: config.IDEMPOTENCY_TTL_HOURS,
    logger,
  });
  stoppers.push(() => pruner.stop());

  // D192: the embedded store has no autovacuum; PostgreSQL runs its own.
  if (database.kind === 'pglite' && config.EMBEDDED_VACUUM_INTERVAL_MS > 0) {
    const vacuum = startEmbeddedVacuum({
      db: database.db,
      intervalMs: config.EMBEDDED_VACUUM_INTERVAL_MS,
      logger,
    });
    stoppers.push(() => vacuum.stop());
  }

  // --- data lifecycle (D150-D154) ---
  const sweeper = startRetentionSweeper({
    retention: services.retention,
    intervalMs: config.RETENTION_SWEEP_INTERVAL_MS,
    logger,
  });
  stoppers.push(() => sweeper.stop());
  // --- end data lifecycle ---

  return {
    async stop() {
      await Promise.all(stoppers.map((stop) => stop()));
      await listening.close();
    },
  };
}

/**
 * `parley reindex` (D41): queues every object the configured model has not embedded, then (unless
 * `queueOnly`, when a running worker does it) embeds them all.
 */
export async function reindex(
  database: DatabaseHandle,
  embedder: Embedder,
  { queueOnly = false } = {},
): Promise<{ queued: number; embedded: number }> {
  await ensureVectorIndexes(database, embedder);
  const queued = await reindexEmbeddings(database.db, embedder);
  const embedded = queueOnly ? 0 : await drainEmbeddingQueue({ db: database.db, embedder });
  return { queued, embedded };
}
