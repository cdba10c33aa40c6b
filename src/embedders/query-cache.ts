import { LRUCache } from 'lru-cache';
import { type Embedder, prepareText } from './embedder.js';

/** Query vectors kept: at 512 dimensions about 4 KiB each as numbers, so a few MiB in all. */
const QUERY_CACHE_ENTRIES = 1_000;

/**
 * The embedder with the vectors of recent search queries kept (least recently used go first): a
 * repeated query, such as a console's or an agent's retry, costs no model call. Background
 * embedding passes through; its texts are new by nature.
 */
export function withQueryCache(embedder: Embedder, entries = QUERY_CACHE_ENTRIES): Embedder {
  const vectors = new LRUCache<string, number[]>({ max: entries });
  return {
    id: embedder.id,
    dimensions: embedder.dimensions,
    async embed(texts, lane) {
      if (lane !== 'query') return embedder.embed(texts, lane);
      const keys = texts.map(prepareText);
      const found = new Map(
        keys.flatMap((key) => (vectors.has(key) ? [[key, vectors.get(key)!] as const] : [])),
      );
      const missing = [...new Set(keys.filter((key) => !found.has(key)))];
      if (missing.length > 0) {
        const made = await embedder.embed(missing, 'query');
        for (const [i, key] of missing.entries()) {
          found.set(key, made[i]!);
          vectors.set(key, made[i]!);
        }
      }
      return keys.map((key) => found.get(key)!);
    },
    close: () => embedder.close(),
  };
}
