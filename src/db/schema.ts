import { MESSAGE_ROLES } from '../core/fields.js';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ProjectSettings } from '../core/context.js';

// D49: every table holding a project's data carries project_id, and every primary key, unique
// constraint and foreign key of it includes project_id, so the tables can be distributed by
// project_id on Citus. projects and api_keys are small reference tables.

const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

/** A pgvector column of any dimension: each model's vectors are compared only with its own (D41). */
const anyVector = customType<{ data: number[]; driverData: string }>({
  dataType: () => 'vector',
  toDriver: (value) => `[${value.join(',')}]`,
  fromDriver: (value) => JSON.parse(value) as number[],
});

const timestamps = {
  created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  modified: timestamp('modified', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

/**
 * Embedding columns shared by every searchable table (D41): the vector has no fixed dimension
 * so that any model fits; `embedding_model` names the model that made it, and search compares
 * only vectors of the configured model through a partial HNSW index per model.
 */
const embeddingColumns = () => ({
  embedding: anyVector('embedding'),
  embeddingModel: text('embedding_model'),
});

export const projects = pgTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  settings: jsonb('settings').$type<ProjectSettings>().notNull().default({}),
  ...timestamps,
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    // D6: only a hash of the key is stored.
    keyHash: text('key_hash').notNull(),
    /** The first characters of the key, shown in listings so that people can tell keys apart. */
    keyPrefix: text('key_prefix').notNull(),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    /** D83: when the key last authenticated a request, to the minute (refreshed at most once a minute). */
    lastUsed: timestamp('last_used', { withTimezone: true, precision: 3 }),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), index('api_keys_project_idx').on(t.projectId)],
);

export const dialogues = pgTable(
  'dialogues',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    namespace: text('namespace'),
    /**
     * The parent of a thread. Deleting the parent keeps the thread as an independent dialogue
     * (D23): the deleting transaction clears this column first (repository.clearThreadLinks), since
     * Citus refuses the `ON DELETE SET NULL (thread_of)` that did it before (docs/scaling.md).
     */
    threadOf: text('thread_of'),
    label: text('label'),
    status: text('status', { enum: ['active', 'ended', 'canceled', 'expired', 'deleted'] })
      .notNull()
      .default('active'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
    summary: jsonb('summary').$type<DialogueSummary>(),
    /**
     * D73: the insertion sequence (messages.seq) of the last message the summary covers, so that
     * deleting a message the summary drew on removes the summary in the same transaction.
     */
    summaryCoversSeq: bigint('summary_covers_seq', { mode: 'number' }),
    /**
     * The summary record (table `summaries`) that `summary` copies: D73 erases the dialogue's
     * summary when that record is erased. Null for a summary made before records were kept.
     */
    summaryId: text('summary_id'),
    totalMessages: integer('total_messages').notNull().default(0),
    /**
     * D160: a fork's origin, the dialogue and the last message it copied (null when that dialogue
     * had none). Plain text, no foreign key: deleting the original leaves the fork whole.
     */
    forkedFromDialogueId: text('forked_from_dialogue_id'),
    forkedFromMessageId: text('forked_from_message_id'),
    threadCount: integer('thread_count').notNull().default(0),
    lastMessageCreated: timestamp('last_message_created', { withTimezone: true, precision: 3 }),
    /** D150: past this moment the dialogue answers 404 everywhere and the sweeper erases it; null: never. */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
    /** Label, tags and summary as one text, kept by the service, for full-text search (D41). */
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, search_text)`,
    ),
    ...embeddingColumns(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    foreignKey({
      columns: [t.projectId, t.threadOf],
      foreignColumns: [t.projectId, t.id],
      name: 'dialogues_thread_of_fk',
    }),
    index('dialogues_list_idx').on(t.projectId, t.created, t.id),
    // D185: one namespace's dialogues (one end user's) in list order, without reading the rest.
    index('dialogues_namespace_idx')
      .on(t.projectId, t.namespace, t.created, t.id)
      .where(sql`namespace IS NOT NULL`),
    index('dialogues_thread_idx').on(t.projectId, t.threadOf, t.created, t.id),
    // D160: the `forkedFrom` list filter; partial, so that dialogues that are no fork cost nothing.
    index('dialogues_forked_idx')
      .on(t.projectId, t.forkedFromDialogueId, t.created, t.id)
      .where(sql`forked_from_dialogue_id IS NOT NULL`),
    index('dialogues_search_idx').using('gin', t.searchVector).with({ gin_pending_list_limit: 256 }),
    // D186: a search (or list) by tag counts and finds the tagged rows without reading the rest.
    index('dialogues_tags_idx').using('gin', t.tags).with({ gin_pending_list_limit: 256 }),
    // D150: the sweeper finds expired dialogues through it; most rows never expire.
    index('dialogues_expires_idx').on(t.projectId, t.expiresAt).where(sql`expires_at IS NOT NULL`),
    // D151: the sweeper finds idle dialogues by their last change.
    index('dialogues_modified_idx').on(t.projectId, t.modified),
  ],
);

export interface DialogueSummary {
  text: string;
  model: string;
  messageCount: number;
  upToMessageId: string | null;
  created: string;
}

/**
 * D56: the history of a dialogue's summaries, one row per summary made (`POST /summary`,
 * `compact`, `continue`). D73: a row records which messages it covers, so that deleting one of
 * them removes every summary that drew on it: the messages with `seq <= covers_seq` and, for a
 * summary of a range, whose (created, seq) lies between the range's first and last message.
 */
export const summaries = pgTable(
  'summaries',
  {
    projectId: text('project_id').notNull(),
    id: text('id').notNull(),
    dialogueId: text('dialogue_id').notNull(),
    namespace: text('namespace'),
    status: text('status', { enum: ['completed', 'failed'] }).notNull(),
    content: text('content'),
    contentTokenCount: integer('content_token_count'),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    fromCreated: timestamp('from_created', { withTimezone: true, precision: 3 }),
    toCreated: timestamp('to_created', { withTimezone: true, precision: 3 }),
    messageCount: integer('message_count').notNull(),
    summarizedCount: integer('summarized_count').notNull(),
    skippedCount: integer('skipped_count').notNull(),
    error: text('error'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** Null when the summary drew on no message (failed, or nothing to summarize). */
    coversSeq: bigint('covers_seq', { mode: 'number' }),
    /** A range's first message (null: from the dialogue's first). */
    rangeStartCreated: timestamp('range_start_created', { withTimezone: true, precision: 3 }),
    rangeStartSeq: bigint('range_start_seq', { mode: 'number' }),
    /** A range's last message (null: to the dialogue's last). */
    rangeEndCreated: timestamp('range_end_created', { withTimezone: true, precision: 3 }),
    rangeEndSeq: bigint('range_end_seq', { mode: 'number' }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    foreignKey({
      columns: [t.projectId, t.dialogueId],
      foreignColumns: [dialogues.projectId, dialogues.id],
      name: 'summaries_dialogue_fk',
    }).onDelete('cascade'),
    index('summaries_dialogue_idx').on(t.projectId, t.dialogueId, t.created, t.id),
  ],
);

/**
 * The time the retention sweeper orders a project's messages by (D151): `created` as UTC time, an
 * expression of its own so that only the sweeper's statements can use its index. An index on
 * (project_id, created) also offers every page of one dialogue its order, and PostgreSQL sometimes
 * took it (stale statistics, a generic plan): it then read the project's newer messages backwards,
 * all of them, to find a dialogue's ten most recent (D184).
 */
export const retentionTime = (created: AnyPgColumn | SQL) => sql`(${created} AT TIME ZONE 'UTC')`;

export const messages = pgTable(
  'messages',
  {
    projectId: text('project_id').notNull(),
    dialogueId: text('dialogue_id').notNull(),
    id: text('id').notNull(),
    /**
     * Insertion order: ties between equal `created` values are broken by it (D29). A sequence
     * default rather than an identity column: Citus distributes no table with an identity column
     * (docs/scaling.md, "What changed for Citus").
     */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    namespace: text('namespace'),
    role: text('role', { enum: MESSAGE_ROLES }).notNull(),
    // D28: the JSON text of the content exactly as the client sent it, never re-serialized.
    content: text('content').notNull(),
    contentLength: integer('content_length').notNull(),
    name: text('name'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    /** Plain text drawn from the content, for full-text search and embeddings. */
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, search_text)`,
    ),
    ...embeddingColumns(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.dialogueId, t.id] }),
    foreignKey({
      columns: [t.projectId, t.dialogueId],
      foreignColumns: [dialogues.projectId, dialogues.id],
      name: 'messages_dialogue_fk',
    }).onDelete('cascade'),
    index('messages_order_idx').on(t.projectId, t.dialogueId, t.created, t.seq),
    // A search within one namespace (one end user) reads that namespace's rows exactly instead of
    // walking the HNSW graph past every other namespace's neighbours.
    index('messages_namespace_idx').on(t.projectId, t.namespace),
    // D151: the retention sweeper finds a project's oldest messages without reading the rest.
    index('messages_retention_idx').on(t.projectId, retentionTime(t.created)),
    index('messages_search_idx').using('gin', t.searchVector).with({ gin_pending_list_limit: 256 }),
    // D186: a search by tag counts and finds the tagged rows without reading the rest.
    index('messages_tags_idx').using('gin', t.tags).with({ gin_pending_list_limit: 256 }),
  ],
);

export const memories = pgTable(
  'memories',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    namespace: text('namespace'),
    label: text('label'),
    // D57: the JSON text of the value exactly as the client sent it (any JSON type), as for
    // message content (D28).
    value: text('value').notNull(),
    description: text('description'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    /** D150: past this moment the memory answers 404 everywhere and the sweeper erases it; null: never. */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
    /** Label, description and the text drawn from the value, for full-text search and embeddings. */
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, search_text)`,
    ),
    ...embeddingColumns(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index('memories_list_idx').on(t.projectId, t.created, t.id),
    // D185: one namespace's memories in list order, without reading the rest.
    index('memories_namespace_idx')
      .on(t.projectId, t.namespace, t.created, t.id)
      .where(sql`namespace IS NOT NULL`),
    index('memories_search_idx').using('gin', t.searchVector).with({ gin_pending_list_limit: 256 }),
    // D186: as dialogues_tags_idx.
    index('memories_tags_idx').using('gin', t.tags).with({ gin_pending_list_limit: 256 }),
    // D150: as dialogues_expires_idx.
    index('memories_expires_idx').on(t.projectId, t.expiresAt).where(sql`expires_at IS NOT NULL`),
    // D151: the sweeper finds memories not updated for N days.
    index('memories_modified_idx').on(t.projectId, t.modified),
  ],
);

/**
 * D40: the durable embedding queue. A write enqueues a job in its own transaction; workers
 * claim with FOR UPDATE SKIP LOCKED. `dialogue_id` is set for message jobs, whose ids are
 * unique only within their dialogue (D27).
 */
/**
 * D140: the document frequencies that weigh the query's words in search (BM25), kept on write in
 * the transaction that stores, changes or deletes the searchable text, so that a search reads only
 * its own words' rows whatever the project's size. Per object kind (message, dialogue, memory):
 * for each lexeme, how many rows hold it (`documents`) and how often (`occurrences`); the row of
 * lexeme '' counts every row and every lexeme of the kind (the collection size and total length).
 * Spread over 8 buckets (picked from the dialogue or object id) so that concurrent writes to a
 * project's dialogues rarely wait on the same row; a search sums them. A row whose count falls to
 * zero is deleted in the same statement's transaction: only words of live text are counted (D73).
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    projectId: text('project_id').notNull(),
    objectType: text('object_type', { enum: ['message', 'dialogue', 'memory'] }).notNull(),
    /** '' for the whole project, else a namespace: a search within one is weighed by its own words. */
    scope: text('scope').notNull(),
    bucket: integer('bucket').notNull(),
    lexeme: text('lexeme').notNull(),
    documents: bigint('documents', { mode: 'number' }).notNull(),
    occurrences: bigint('occurrences', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.objectType, t.scope, t.lexeme, t.bucket] })],
);

export const embeddingJobs = pgTable(
  'embedding_jobs',
  {
    projectId: text('project_id').notNull(),
    // A sequence default, not an identity column, for the reason given at messages.seq.
    id: bigserial('id', { mode: 'number' }).notNull(),
    objectType: text('object_type', { enum: ['message', 'dialogue', 'memory'] }).notNull(),
    dialogueId: text('dialogue_id').notNull().default(''),
    objectId: text('object_id').notNull(),
    attempts: integer('attempts').notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 3 }),
    lastError: text('last_error'),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex('embedding_jobs_object_key').on(t.projectId, t.objectType, t.dialogueId, t.objectId),
    index('embedding_jobs_due_idx').on(t.runAt),
  ],
);

/** D36: the first response to a write with an Idempotency-Key, stored with the write itself. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    projectId: text('project_id').notNull(),
    key: text('key').notNull(),
    /** Hash of method, route and body: the same key with another request is a conflict. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    /** The response as sent; NULL once an object it carried was deleted (a tombstone, D73). */
    responseBody: text('response_body'),
    /**
     * D73: the objects whose content the response carries (`dialogue:<id>`, `message:<dialogue>/<id>`,
     * `summary:<dialogue>`, `summary:<dialogue>/<id>`, `memory:<id>`), so that a deletion can find and empty it.
     */
    objectRefs: text('object_refs').array().notNull().default(sql`'{}'::text[]`),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.key] }),
    index('idempotency_keys_created_idx').on(t.created),
    index('idempotency_keys_object_refs_idx').using('gin', t.objectRefs),
  ],
);

/**
 * D44: write counters per project and UTC month, spread over shards so that concurrent writers
 * of one project do not all queue on one row.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    projectId: text('project_id').notNull(),
    month: text('month').notNull(),
    shard: integer('shard').notNull(),
    writes: bigint('writes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.month, t.shard] })],
);

/**
 * D63: the outbox. Every change of a project's data writes its event here in the change's own
 * transaction, without a `seq`: numbers are given after commit by the sequencer
 * (src/modules/events/sequencer.ts), in commit order per project (on the embedded store by the
 * write itself, D191), so that a reader who has seen
 * seq n never later finds a new event below n. Writers never touch a shared row; `data` is the
 * JSON text of the object as the REST API returns it (message content verbatim, D28).
 */
export const events = pgTable(
  'events',
  {
    projectId: text('project_id').notNull(),
    /** `evt_` + a monotonic ULID: within a transaction, the order of the changes. */
    id: text('id').notNull(),
    /** Null until the sequencer numbers the committed event (on the embedded store the write does, D191). */
    seq: bigint('seq', { mode: 'number' }),
    type: text('type').notNull(),
    namespace: text('namespace'),
    dialogueId: text('dialogue_id'),
    objectId: text('object_id').notNull(),
    /**
     * Null for a `message.created` event whose message has not changed since: its data is the
     * message row, read with the event (src/modules/events/repository.ts); the message's first
     * change writes it in. Every message would otherwise be stored twice, and its copy rewritten
     * once more at the numbering (docs/events.md).
     */
    data: text('data'),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // Numbered events only: an event enters it at its numbering, not also at its insert.
    uniqueIndex('events_seq_key').on(t.projectId, t.seq).where(sql`seq IS NOT NULL`),
    // The sequencer's work list, in the order it numbers (ids in byte order, COLLATE "C"): a pass
    // reads its batch off the index and stops. Ordered by the column's own collation instead, a
    // backlog (a burst of writes, a writer that stopped) was sorted whole for every batch of 1,000,
    // so each pass grew slower the further numbering fell behind, until it hit the statement bound.
    index('events_unnumbered_idx').on(t.projectId, sql`id COLLATE "C"`).where(sql`seq IS NULL`),
    // D70: the events of a dialogue (its messages' with it) or of one object, found when its
    // content is erased; memory events have no dialogue (dialogue_id IS NULL). One index rather
    // than one per column: every index is paid twice per event, at its insert and its numbering.
    // Pruning (D65) needs none of its own: event ids begin with their time (primary key).
    index('events_erasure_idx').on(t.projectId, t.dialogueId, t.objectId),
  ],
);

/**
 * D63: per project, the last seq given and the highest seq pruned (D65: reading from before it
 * answers 410 EVENTS_EXPIRED). Only the sequencer and the pruner lock a row of it, never a write,
 * except on the embedded store, where writes run one at a time and number their own events (D191).
 */
export const eventSequences = pgTable('event_sequences', {
  projectId: text('project_id').primaryKey(),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  prunedThrough: bigint('pruned_through', { mode: 'number' }).notNull().default(0),
});

/**
 * D67: a project's webhook endpoints. `cursor_seq` is the last event seq considered for the
 * endpoint: the worker queues the events after it (webhook_deliveries) and moves it in the same
 * transaction, holding the endpoint's row, so two instances never queue an event twice.
 * `previous_secret` signs too until `previous_secret_expires` (D68: 24 h after a rotation).
 * `failing_since` is the time of the first failure since the last success (D68: 5 days of
 * failures disable the endpoint, with `disabled_reason`).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    url: text('url').notNull(),
    /** Empty: every type. */
    types: text('types').array().notNull().default(sql`'{}'::text[]`),
    namespace: text('namespace'),
    description: text('description'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpires: timestamp('previous_secret_expires', { withTimezone: true, precision: 3 }),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    failingSince: timestamp('failing_since', { withTimezone: true, precision: 3 }),
    cursorSeq: bigint('cursor_seq', { mode: 'number' }).notNull().default(0),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/**
 * D68: one event to deliver to one endpoint, with a copy of the event (erased with it, D70).
 * Pending rows are claimed with FOR UPDATE SKIP LOCKED, one project per statement; `locked_until`
 * is the lease of the instance sending it (a dead instance's claim returns after it). A pending
 * delivery of a dialogue holds back the later ones of that dialogue to the same endpoint (D68:
 * per-dialogue order). `seq` is null for a `webhook.test` event.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    projectId: text('project_id').notNull(),
    id: text('id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    eventId: text('event_id').notNull(),
    seq: bigint('seq', { mode: 'number' }),
    type: text('type').notNull(),
    namespace: text('namespace'),
    dialogueId: text('dialogue_id'),
    objectId: text('object_id').notNull(),
    /** The event's `data` as stored in `events.data` (D28: message content verbatim). */
    data: text('data').notNull(),
    eventCreated: timestamp('event_created', { withTimezone: true, precision: 3 }).notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 3 }),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    foreignKey({
      columns: [t.projectId, t.endpointId],
      foreignColumns: [webhookEndpoints.projectId, webhookEndpoints.id],
    }).onDelete('cascade'),
    // The claim's work list and the per-dialogue order check (D68).
    index('webhook_deliveries_pending_idx')
      .on(t.projectId, t.endpointId, t.dialogueId, t.seq)
      .where(sql`status = 'pending'`),
    // Finding the projects with due deliveries (locks nothing; it may read every shard).
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    // D70: the copies of a deleted object's events.
    index('webhook_deliveries_object_idx').on(t.projectId, t.objectId),
    index('webhook_deliveries_dialogue_idx').on(t.projectId, t.dialogueId),
  ],
);

/**
 * D67: the delivery log, one row per attempt. The row of an attempt is written `pending` when it
 * is scheduled (at queueing, or after a failure with its retry) and completed when it is made.
 * `response_body` keeps the first 1 KiB of the answer (D69); it is emptied with the event's
 * content (D70), since a receiver may echo what it was sent.
 */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    projectId: text('project_id').notNull(),
    id: text('id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    deliveryId: text('delivery_id').notNull(),
    eventId: text('event_id').notNull(),
    seq: bigint('seq', { mode: 'number' }),
    type: text('type').notNull(),
    dialogueId: text('dialogue_id'),
    objectId: text('object_id').notNull(),
    attempt: integer('attempt').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    foreignKey({
      columns: [t.projectId, t.endpointId],
      foreignColumns: [webhookEndpoints.projectId, webhookEndpoints.id],
    }).onDelete('cascade'),
    // The log of an endpoint, newest first.
    index('webhook_attempts_endpoint_idx').on(t.projectId, t.endpointId, t.id),
    index('webhook_attempts_delivery_idx').on(t.projectId, t.deliveryId, t.attempt),
    index('webhook_attempts_object_idx').on(t.projectId, t.objectId),
    index('webhook_attempts_dialogue_idx').on(t.projectId, t.dialogueId),
  ],
);

/**
 * D162: one erasure of a namespace's data, its receipt. A pending erasure hides its namespace from
 * reads and refuses writes into it (D163); a background worker deletes the namespace's dialogues
 * and memories in batches, holding the row's lease (`lease_until`) so that one instance works on
 * it at a time and another takes over after a crash, and adds what it deleted to `counts`. At most
 * one erasure of a namespace is pending (a retry finds it).
 */
export const erasures = pgTable(
  'erasures',
  {
    projectId: text('project_id').notNull(),
    /** `era_` + a time-sortable id. */
    id: text('id').notNull(),
    namespace: text('namespace').notNull(),
    status: text('status', { enum: ['pending', 'completed'] })
      .notNull()
      .default('pending'),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // One pending erasure per namespace; also what reads and writes look up (D163).
    uniqueIndex('erasures_pending_key').on(t.projectId, t.namespace).where(sql`status = 'pending'`),
    // The worker's work list across projects (locks nothing; it may read every shard).
    index('erasures_due_idx').on(t.created).where(sql`status = 'pending'`),
  ],
);

/**
 * D166: the record of a project's erasure (D74), its receipt. It outlives the project: its column
 * is `erased_project_id`, not `project_id`, so it is no tenant table and the erasure it records
 * leaves it alone. A running erasure holds the row's lease (`lease_until`), renewed as it goes, so
 * that a second request waits for nothing and answers the record as it stands, and a request after
 * a crash resumes the erasure once the lease has run out. At most one erasure of a project is
 * pending. `counts` are the objects erased (as a namespace erasure counts them); `rows`, the rows
 * removed per table.
 */
export const projectErasures = pgTable(
  'project_erasures',
  {
    /** `era_` + a time-sortable id, as a namespace erasure's. */
    id: text('id').primaryKey(),
    erasedProjectId: text('erased_project_id').notNull(),
    status: text('status', { enum: ['pending', 'completed'] })
      .notNull()
      .default('pending'),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    rows: jsonb('rows').$type<Record<string, number>>().notNull().default({}),
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('project_erasures_pending_key').on(t.erasedProjectId).where(sql`status = 'pending'`),
    // A retry after the erasure finds the latest record of the project.
    index('project_erasures_project_idx').on(t.erasedProjectId, t.created),
  ],
);
