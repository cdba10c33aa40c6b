import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { storedResponses } from './db/idempotency-store.js';
import type { Embedder } from './embedders/embedder.js';
import { withQueryCache } from './embedders/query-cache.js';
import { createContextService } from './modules/context/service.js';
import { dialogueScope } from './modules/dialogues/scope.js';
import { createDialogueService } from './modules/dialogues/service.js';
import { dialogueSummarySlot } from './modules/dialogues/summary-slot.js';
import { createEmbeddingQueue } from './modules/embeddings/queue.js';
import { namespaceGate } from './modules/erasures/gate.js';
import { createErasureService } from './modules/erasures/service.js';
import { createEventHub } from './modules/events/hub.js';
import type { EventOutbox } from './modules/events/outbox.js';
import { createSequencer } from './modules/events/sequencer.js';
import { createEventService } from './modules/events/service.js';
import { createMemoryService } from './modules/memories/service.js';
import { createMessageService } from './modules/messages/service.js';
import { createProjectService } from './modules/projects/service.js';
import { createRetentionService } from './modules/retention/service.js';
import { createSearchService } from './modules/search/service.js';
import { createCompactionService } from './modules/summaries/compaction.js';
import { createSummaryErasure } from './modules/summaries/erasure.js';
import { createSummaryService } from './modules/summaries/service.js';
import { createDialogueDbImportService } from './modules/transfer/dialoguedb-import.js';
import { createTransferService } from './modules/transfer/service.js';
import { createUsageService } from './modules/usage/service.js';
import { createWebhookService } from './modules/webhooks/service.js';
import type { HostLookup } from './modules/webhooks/url-safety.js';
import type { Metrics } from './observability/metrics.js';
import type { Summarizer } from './summarizers/summarizer.js';

// The one place that wires services to their dependencies (docs/architecture.md, "Services"):
// the server (app.ts) and the `parley` commands (cli.ts) both build their services here.
// Each factory's parameter type lists exactly what it uses; reads go to `readDb` (the replica
// when READ_DATABASE_URL is set), writes to the transaction the unit of work hands them.

interface ServiceLogger {
  warn(object: object, message: string): void;
}

export interface ServiceDeps {
  config: Config;
  database: DatabaseHandle;
  /** The store is a Citus cluster (src/db/citus.ts hasCitus). */
  distributed: boolean;
  /** The configured embedder (D41); undefined with EMBEDDINGS=none. */
  embedder?: Embedder;
  /** Writes dialogue summaries (D22). */
  summarizer: Summarizer;
  /** Where writes record their events (D63). */
  outbox: EventOutbox;
  /** D69: resolves webhook host names at registration (tests control DNS). */
  webhookLookup?: HostLookup;
  /**
   * Where failures that answer no request are reported: a failed query embedding (search falls
   * back to full text), a failed numbering run after a commit (the sweep numbers those later).
   */
  logger: ServiceLogger;
  /** D72: events are counted by type as they are numbered; D154: what the sweeper erases. */
  metrics: Pick<Metrics, 'eventsWritten' | 'retentionErased'>;
}

export function createServices({
  config,
  database,
  distributed,
  embedder,
  summarizer,
  outbox,
  webhookLookup,
  logger,
  metrics,
}: ServiceDeps) {
  const { db, readDb } = database;
  // D63, D66: events are numbered after their commit; open streams of the project are woken then.
  const eventHub = createEventHub();
  const eventSequencer = createSequencer({
    db,
    distributed,
    onNumbered: (projectId, types) => {
      eventHub.wake(projectId);
      for (const type of types) metrics.eventsWritten.inc({ type });
    },
    onError: (error) =>
      logger.warn({ err: error }, 'could not number events after their commit; the sweep will'),
  });
  // D79: with EMBEDDINGS=none (no embedder) writes queue no embedding jobs.
  const embeddingQueue = createEmbeddingQueue({ enabled: embedder !== undefined });
  const projects = createProjectService({ db, keyCacheTtlMs: config.AUTH_CACHE_TTL_MS });
  const usage = createUsageService({ db });
  const summaryErasure = createSummaryErasure({
    embeddingQueue,
    storedResponses,
    outbox,
    dialogues: dialogueSummarySlot,
  });
  const messages = createMessageService({
    readDb,
    dialogueScope,
    embeddingQueue,
    summaryErasure,
    storedResponses,
    distributed,
    outbox,
  });
  const dialogues = createDialogueService({
    db,
    readDb,
    messages,
    embeddingQueue,
    storedResponses,
    outbox,
    namespaceGate,
  });
  const compaction = createCompactionService({
    db,
    summarizer,
    dialogues,
    summarySlot: dialogueSummarySlot,
    dialogueScope,
    embeddingQueue,
    outbox,
  });
  const context = createContextService({ readDb, dialogueScope });
  const summaries = createSummaryService({ readDb, dialogueScope });
  const memories = createMemoryService({ readDb, embeddingQueue, storedResponses, outbox, namespaceGate });
  const search = createSearchService({
    readDb,
    embedder: embedder && withQueryCache(embedder),
    storeKind: database.kind,
    distributed,
    dialogueScope,
    onEmbedError: (error) => logger.warn({ err: error }, 'query embedding failed; answering from full text'),
    exactScanMaxRows: config.SEARCH_EXACT_SCAN_MAX_ROWS,
    loaders: { message: messages.searchItems, dialogue: dialogues.searchItems, memory: memories.searchItems },
  });
  // D162-D165: forgetting a namespace, batch by batch through the deletions above.
  const erasures = createErasureService({
    db,
    readDb,
    dialogues,
    memories,
    outbox,
    sequencer: eventSequencer,
    batchSize: config.ERASURE_BATCH_SIZE,
  });
  const eventFeed = createEventService({ db, sequencer: eventSequencer, hub: eventHub });
  const webhooks = createWebhookService({
    db,
    events: eventFeed,
    outbox,
    urlPolicy: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, lookup: webhookLookup },
  });
  // D86: export and import are operator commands (`parley export`, `parley import`,
  // `parley import-dialoguedb`), with transactions of their own.
  const transfer = createTransferService({
    db,
    projects,
    outbox,
    // D79: without an embedder the imported objects are not queued for embedding.
    queueEmbeddings: config.EMBEDDINGS !== 'none',
  });
  const dialogueDbImport = createDialogueDbImportService({ db, projects, transfer });
  // --- data lifecycle (D150-D154) ---
  const retention = createRetentionService({
    db,
    projects,
    dialogues,
    messages,
    memories,
    sequencer: eventSequencer,
    onErased: (object, reason, count) => metrics.retentionErased.inc({ object, reason }, count),
  });
  // --- end data lifecycle ---
  return {
    projects,
    dialogues,
    messages,
    usage,
    compaction,
    context,
    summaries,
    memories,
    search,
    events: eventFeed,
    eventSequencer,
    eventHub,
    outbox,
    webhooks,
    transfer,
    dialogueDbImport,
    retention,
    erasures,
  };
}

export type Services = ReturnType<typeof createServices>;
