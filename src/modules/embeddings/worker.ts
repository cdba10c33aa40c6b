import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.js';
import { isTransientConnectionError } from '../../db/errors.js';
import type { Embedder } from '../../embedders/embedder.js';
import type { Metrics } from '../../observability/metrics.js';
import { normalize } from '../../embedders/embedder.js';
import {
  type EmbeddingText,
  type ReplacedVector,
  claimJobs,
  completeJobs,
  enqueueStaleObjects,
  failJob,
  loadTexts,
  messageKey,
  replaceMessageVectors,
} from './repository.js';

// D40: embeddings are made after the write, by workers that share the Postgres queue. The server
// runs one in-process (EMBEDDING_WORKER); `parley worker` runs one on its own.

interface WorkerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface EmbeddingWorkerOptions {
  db: Database;
  embedder: Embedder;
  logger?: WorkerLogger;
  /** Jobs per claim: one embed call serves them all. */
  batchSize?: number;
  /** Sleep when the queue is empty. */
  idleMs?: number;
  /** How long a claimed job stays with its worker; a dead worker's jobs return after it. */
  leaseMs?: number;
  /** First retry delay of a failed batch; doubles per attempt up to maxRetryDelayMs. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** Enqueue objects embedded by another model first (D41); on by default. */
  reindexAtStart?: boolean;
  /** Counters of /metrics (embeddings per second, failed attempts); see docs/metrics.md. */
  metrics?: Pick<Metrics, 'embeddings' | 'embeddingFailures'>;
  /**
   * Runs the start-up re-index scan (a statement over whole tables) on a connection without the
   * statement bound of D77 (DatabaseHandle.withDedicatedConnection); on `db` when omitted.
   */
  longRunning?: <T>(fn: (db: Database) => Promise<T>) => Promise<T>;
  /** Longest pause between attempts while the database is unreachable (D77). */
  maxOutageBackoffMs?: number;
  /**
   * The vectors this worker made lately (recentVectors); a worker loop and a drain keep their own.
   * Without it every context text is embedded again.
   */
  recent?: RecentVectors;
}

export interface EmbeddingWorker {
  /** Wakes the worker now instead of after its idle sleep. */
  wake(): void;
  /** Finishes the batch in hand, then stops. */
  stop(): Promise<void>;
}

/** At most this many numbers in recentVectors: 8 MiB, 2,048 vectors of the local model's 512. */
const RECENT_VECTOR_NUMBERS = 1 << 20;

/**
 * D177: the vectors of the texts a worker embedded last, by model and text. A message is embedded
 * with the message before it (CONTEXT_WEIGHT), which the worker embedded a moment earlier whenever
 * turns arrive one at a time: taking that vector from here instead of the model halves the model's
 * work per message. Bounded by the numbers it holds, so a larger model keeps fewer vectors.
 */
export type RecentVectors = LRUCache<string, number[]>;

export function recentVectors(maxNumbers = RECENT_VECTOR_NUMBERS): RecentVectors {
  return new LRUCache<string, number[]>({ maxSize: maxNumbers, sizeCalculation: (vector) => vector.length });
}

const noopLogger: WorkerLogger = { info() {}, warn() {}, error() {} };

/** Backoff of the n-th failed attempt (1-based): base * 2^(n-1), capped. */
function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims one batch of due jobs, embeds their texts in one call and stores the vectors. Returns the
 * number of jobs claimed (0: nothing due). A failing provider puts the batch back with backoff.
 */
export async function processEmbeddingBatch(options: EmbeddingWorkerOptions): Promise<number> {
  const { db, embedder } = options;
  const logger = options.logger ?? noopLogger;
  const jobs = await claimJobs(db, options.batchSize ?? 32, options.leaseMs ?? 120_000);
  if (jobs.length === 0) return 0;

  const texts = await loadTexts(db, jobs);
  let embedded: EmbeddedJobs;
  try {
    // No transaction is open during the provider call (a slow provider must not hold locks or a connection).
    embedded = await embedJobs(embedder, texts, options.recent);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    for (const job of jobs) {
      const delay = retryDelayMs(
        job.attempts,
        options.retryBaseMs ?? 1_000,
        options.maxRetryDelayMs ?? 600_000,
      );
      await failJob(db, job, message, delay);
      options.metrics?.embeddingFailures.inc({ object: job.objectType });
    }
    logger.warn({ err: message, jobs: jobs.length }, 'embedding batch failed; retrying later');
    return jobs.length;
  }

  const { vectorOf, previousOf } = embedded;
  // D181: the message before each one, made again with it as its next turn, unless its own job is
  // in this batch (which reads the same texts).
  const inBatch = new Set(
    jobs
      .filter((job) => job.objectType === 'message')
      .map((job) => messageKey(job.projectId, job.dialogueId, job.objectId)),
  );
  const replaced: ReplacedVector[] = [];
  for (const job of jobs) {
    const previous = previousOf.get(job.id);
    if (previous && !inBatch.has(messageKey(job.projectId, job.dialogueId, previous.id)))
      replaced.push({
        projectId: job.projectId,
        dialogueId: job.dialogueId,
        id: previous.id,
        vector: previous.vector,
      });
  }
  // An object without text (or deleted since its claim) gets no vector; its job is done all the same.
  await db.transaction(async (tx) => {
    await completeJobs(tx, jobs, embedder, vectorOf);
    await replaceMessageVectors(tx, embedder, replaced);
  });
  for (const job of jobs)
    if (vectorOf.has(job.id)) options.metrics?.embeddings.inc({ object: job.objectType });
  return jobs.length;
}

/**
 * A chat turn often means little without the turn before it ("Yes, roll back to 2.13"), so a
 * message's vector is its own text's vector plus CONTEXT_WEIGHT times the previous message's
 * (measured on the labelled set: paraphrase recall@5 of semantic search 0.57 -> 0.76 with the
 * turn before at half weight). D170: 0.8, chosen over 0.3-1.0 on the LoCoMo development split and
 * the labelled set together (docs/benchmarks.md). D181: plus NEXT_WEIGHT times the next message's,
 * when there is one: an answer's meaning often sits in the reply to it ("Which one?" ... "The blue
 * one"). The next message does not exist yet when a message is first embedded, so the message
 * before each embedded one is made again then, from vectors the worker holds: the new message's
 * own, and the earlier ones it embedded a moment before (D177). Each distinct text of a batch is
 * embedded once (consecutive messages share their texts), and a text the worker embedded lately
 * not at all (D177).
 */
const CONTEXT_WEIGHT = 0.8;
const NEXT_WEIGHT = 0.3;

interface EmbeddedJobs {
  /** Each job's vector. */
  vectorOf: Map<number, number[]>;
  /** Per message job: the message before it and its vector made again with this one after it. */
  previousOf: Map<number, { id: string; vector: number[] }>;
}

/** A message's vector: its own text's, with the turns around it added (D170, D181). */
function combine(own: number[], before: number[] | undefined, after: number[] | undefined): number[] {
  if (!before && !after) return own;
  return normalize(
    own.map((x, i) => x + (before ? CONTEXT_WEIGHT * before[i]! : 0) + (after ? NEXT_WEIGHT * after[i]! : 0)),
  );
}

async function embedJobs(
  embedder: Embedder,
  texts: Map<number, EmbeddingText>,
  recent: RecentVectors | undefined,
): Promise<EmbeddedJobs> {
  const keyOf = (part: string) => `${embedder.id}\u0000${part}`;
  const vectorOf = new Map<string, number[]>();
  const missing = new Set<string>();
  for (const entry of texts.values()) {
    if (!entry.text) continue;
    const { text, context, next, previous } = entry;
    // The turns around the message, and the turn before the previous one, which that one's vector holds.
    const parts = [text, context, next, previous?.context];
    for (const part of parts) {
      if (!part || vectorOf.has(part) || missing.has(part)) continue;
      const known = recent?.get(keyOf(part));
      if (known) vectorOf.set(part, known);
      else missing.add(part);
    }
  }
  if (missing.size > 0) {
    const parts = [...missing];
    const vectors = await embedder.embed(parts);
    for (const [i, part] of parts.entries()) {
      vectorOf.set(part, vectors[i]!);
      recent?.set(keyOf(part), vectors[i]!);
    }
  }
  const of = (part: string | null | undefined) => (part ? vectorOf.get(part) : undefined);
  const out: EmbeddedJobs = { vectorOf: new Map(), previousOf: new Map() };
  for (const [jobId, entry] of texts) {
    if (!entry.text) continue;
    const own = vectorOf.get(entry.text)!;
    out.vectorOf.set(jobId, combine(own, of(entry.context), of(entry.next)));
    const { previous } = entry;
    if (previous) {
      out.previousOf.set(jobId, {
        id: previous.id,
        vector: combine(vectorOf.get(previous.text)!, of(previous.context), own),
      });
    }
  }
  return out;
}

/** Runs batches until nothing is due (tests, the eval script, `parley reindex`). */
export async function drainEmbeddingQueue(options: EmbeddingWorkerOptions): Promise<number> {
  const withMemory = { recent: recentVectors(), ...options };
  let total = 0;
  for (;;) {
    const claimed = await processEmbeddingBatch(withMemory);
    if (claimed === 0) return total;
    total += claimed;
  }
}

/** D41: queues every object not embedded by this embedder; the worker then re-embeds them. */
export async function reindexEmbeddings(db: Database, embedder: Embedder): Promise<number> {
  return enqueueStaleObjects(db, embedder);
}

/** Starts a worker loop; `parley worker` and the server (EMBEDDING_WORKER) both call this. */
export function startEmbeddingWorker(options: EmbeddingWorkerOptions): EmbeddingWorker {
  const logger = options.logger ?? noopLogger;
  const idleMs = options.idleMs ?? 1_000;
  const maxBackoffMs = options.maxOutageBackoffMs ?? 5_000;
  const longRunning = options.longRunning ?? ((fn) => fn(options.db));
  const withMemory = { recent: recentVectors(), ...options };
  let stopping = false;
  let wakeUp = new AbortController();
  const pause = async (ms: number) => {
    await sleep(ms, undefined, { signal: wakeUp.signal }).catch(() => {});
    wakeUp = new AbortController();
  };

  const loop = (async () => {
    if (options.reindexAtStart ?? true) {
      const queued = await longRunning((db) => reindexEmbeddings(db, options.embedder)).catch(
        (error: unknown) => {
          logger.error({ err: error }, 'could not queue objects for re-embedding');
          return 0;
        },
      );
      if (queued > 0) logger.info({ queued, model: options.embedder.id }, 'queued objects for re-embedding');
    }
    // D77: while the database is unreachable the worker pauses, says so once, and tries again
    // with a growing delay (idleMs doubling up to maxBackoffMs); the first batch that goes
    // through again ends the pause. Claimed jobs it could not finish come back with their lease.
    let outageSince: number | undefined;
    let failures = 0;
    while (!stopping) {
      let claimed = 0;
      try {
        claimed = await processEmbeddingBatch(withMemory);
        if (outageSince !== undefined) {
          logger.info(
            { pausedMs: Date.now() - outageSince },
            'database reachable again; embedding worker resumed',
          );
          outageSince = undefined;
        }
        failures = 0;
      } catch (error) {
        failures++;
        if (isTransientConnectionError(error)) {
          if (outageSince === undefined) {
            outageSince = Date.now();
            logger.warn({ err: error }, 'database unreachable; embedding worker paused');
          }
        } else {
          // A statement failed: the jobs' leases bring them back later.
          logger.error({ err: error }, 'embedding worker error');
        }
        if (!stopping) await pause(retryDelayMs(failures, idleMs, Math.max(idleMs, maxBackoffMs)));
        continue;
      }
      if (claimed === 0 && !stopping) await pause(idleMs);
    }
  })();

  return {
    wake() {
      wakeUp.abort();
    },
    async stop() {
      stopping = true;
      wakeUp.abort();
      await loop;
    },
  };
}
