import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Embedder, prepareText } from '../../src/embedders/embedder.js';

// The evaluations embed the same few thousand texts on every run; the model takes minutes for
// them on one core. This wrapper keeps each text's vector in a file (under node_modules/.cache,
// never committed), so a run after the first embeds only what changed and takes seconds. The
// vectors are the model's own: the file is keyed by the embedder's id.

export interface CachedEmbedder extends Embedder {
  /** Writes the vectors made in this run to the file. */
  save(): void;
  readonly misses: number;
}

export function cachedEmbedder(inner: Embedder, file: string): CachedEmbedder {
  const cache = new Map<string, number[]>(
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as [string, number[]][]) : [],
  );
  let misses = 0;
  let dirty = false;
  return {
    id: inner.id,
    dimensions: inner.dimensions,
    get misses() {
      return misses;
    },
    async embed(texts, lane) {
      const keys = texts.map(prepareText);
      const missing = [...new Set(keys.filter((key) => !cache.has(key)))];
      if (missing.length > 0) {
        misses += missing.length;
        dirty = true;
        const vectors = await inner.embed(missing, lane);
        for (const [i, key] of missing.entries()) cache.set(key, vectors[i]!);
      }
      return keys.map((key) => [...cache.get(key)!]);
    },
    save() {
      if (!dirty) return;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify([...cache.entries()]));
      dirty = false;
    },
    close: () => inner.close(),
  };
}
