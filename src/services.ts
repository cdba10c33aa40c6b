import type { DatabaseHandle } from './db/client.js';
import { storedResponses } from './db/idempotency-store.js';
import type { Embedder } from './embedders/embedder.js';
import { createCompactionService } from './modules/dialogues/compaction.js';
import { createContextService } from './modules/dialogues/context-service.js';
import { dialogueScope } from './modules/dialogues/scope.js';
import { createDialogueService } from './modules/dialogues/service.js';
import { createSummaryErasure } from './modules/dialogues/summary-erasure.js';
import { createSummaryService } from './modules/dialogues/summary-service.js';
import { createEmbeddingQueue } from './modules/embeddings/queue.js';
import { createEventHub } from './modules/events/hub.js';
import type { EventOutbox } from './modules/events/outbox.js';
import { createSequencer } from './modules/events/sequencer.js';
import { createEventService } from './modules/events/service.js';
import { createMemoryService } from './modules/memories/service.js';
import { createMessageService } from './modules/messages/service.js';
import { createProjectService } from './modules/projects/service.js';
import { createSearchService } from './modules/search/service.js';
import { createUsageService } from './modules/usage/service.js';
import { createWebhookService } from './modules/webhooks/service.js';
import type { UrlPolicy } from './modules/webhooks/url-safety.js';
import type { Summarizer } from './summaries/summarizer.js';

// The one place that wires services to their dependencies (docs/architecture.md, "Services").
// Each factory's parameter type lists exactly what it uses; reads go to `readDb` (the replica
// when READ_DATABASE_URL is set), writes to the transaction the unit of work hands them.

export interface ServiceDeps {
  database: DatabaseHandle;
  /** The configured embedder (D41); undefined with EMBEDDINGS=none. */
  embedder?: Embedder;
  /** Where a failed query embedding is reported (search falls back to full text). */
  onEmbedError?: (error: unknown) => void;
  /** Writes dialogue summaries (D22). */
  summarizer: Summarizer;
  /** AUTH_CACHE_TTL_MS (D76). */
  keyCacheTtlMs: number;
  /** The store is a Citus cluster (src/db/citus.ts hasCitus). */
  distributed: boolean;
  /** Told the types of the events each numbering run gave numbers to (metrics, D72). */
  onEventsNumbered?: (types: string[]) => void;
  /** Where a failed numbering run after a commit is reported (the sweep numbers those events later). */
  onEventsError?: (error: unknown) => void;
  /** D69: which webhook URLs may be registered (WEBHOOK_ALLOW_PRIVATE, and a resolver in tests). */
  webhookUrlPolicy: UrlPolicy;
  /** Where writes record their events (D63). */
  outbox: EventOutbox;
}

export function createServices({
  database,
  embedder,
  onEmbedError,
  summarizer,
  keyCacheTtlMs,
  distributed,
  onEventsNumbered,
  onEventsError,
  webhookUrlPolicy,
  outbox: events,
}: ServiceDeps) {
  const { db, readDb } = database;
  // D63, D66: events are numbered after their commit; open streams of the project are woken then.
  const eventHub = createEventHub();
  const eventSequencer = createSequencer({
    db,
    distributed,
    onNumbered: (projectId, types) => {
      eventHub.wake(projectId);
      onEventsNumbered?.(types);
    },
    onError: onEventsError,
  });
  // D79: with EMBEDDINGS=none (no embedder) writes queue no embedding jobs.
  const embeddingQueue = createEmbeddingQueue({ enabled: embedder !== undefined });
  const projects = createProjectService({ db, keyCacheTtlMs });
  const usage = createUsageService({ db });
  const summaryErasure = createSummaryErasure({ embeddingQueue, storedResponses, events });
  const messages = createMessageService({
    readDb,
    dialogueScope,
    embeddingQueue,
    summaryErasure,
    storedResponses,
    distributed,
    events,
  });
  const dialogues = createDialogueService({ db, readDb, messages, embeddingQueue, storedResponses, events });
  const compaction = createCompactionService({ db, summarizer, dialogues, embeddingQueue, events });
  const context = createContextService({ readDb });
  const summaries = createSummaryService({ readDb, dialogueScope });
  const memories = createMemoryService({ readDb, embeddingQueue, storedResponses, events });
  const search = createSearchService({
    readDb,
    embedder,
    dialogueScope,
    onEmbedError,
    loaders: { message: messages.searchItems, dialogue: dialogues.searchItems, memory: memories.searchItems },
  });
  const eventFeed = createEventService({ db, sequencer: eventSequencer, hub: eventHub });
  const webhooks = createWebhookService({
    db,
    events: eventFeed,
    outbox: events,
    urlPolicy: webhookUrlPolicy,
  });
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
    webhooks,
  };
}

export type Services = ReturnType<typeof createServices>;
