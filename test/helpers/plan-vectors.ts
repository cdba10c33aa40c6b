import type { DatabaseHandle } from '../../src/db/client.js';
import type { Embedder } from '../../src/embedders/embedder.js';
import { indexPrecisionOf, vectorIndexName } from '../../src/modules/embeddings/vector-sql.js';

// What the search plan tests share: a model whose vectors they write directly, reproducible
// vectors, the similarity they rank by, and whether a plan walked the model's HNSW index.

const PLAN_TEST_DIMENSIONS = 16;

/** A model of PLAN_TEST_DIMENSIONS that never embeds: the tests write its vectors themselves. */
export function directVectorsEmbedder(id: string): Embedder {
  return {
    id,
    dimensions: PLAN_TEST_DIMENSIONS,
    embed: async () => {
      throw new Error('vectors are written directly');
    },
    close: async () => {},
  };
}

/** A reproducible unit vector per seed (a small linear congruential generator). */
export function vectorOf(seed: number): number[] {
  let state = seed * 2_654_435_761;
  const values = Array.from({ length: PLAN_TEST_DIMENSIONS }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  });
  const norm = Math.hypot(...values);
  return values.map((x) => x / norm);
}

/** The cosine similarity of two unit vectors. */
export const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

/** Whether `plan` (EXPLAIN ANALYZE text) walked the messages' HNSW index of `embedder`: a scan of it ran. */
export function walkedHnsw(plan: string, handle: DatabaseHandle, embedder: Embedder): boolean {
  const index = vectorIndexName('messages', embedder, indexPrecisionOf(handle.kind, embedder));
  return plan.split('\n').some((line) => line.includes(index) && !line.includes('never executed'));
}
