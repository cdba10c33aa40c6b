import { afterAll, describe, expect, it } from 'vitest';
import type { EmbedLane, Embedder } from '../../src/embedders/embedder.js';
import { createLocalEmbedder } from '../../src/embedders/local.js';
import { withQueryCache } from '../../src/embedders/query-cache.js';

// The local model serves a search's query before the background batches waiting for it, and the
// vectors of recent queries are kept (src/embedders/local.ts, query-cache.ts). On the real model.

const local = createLocalEmbedder();
afterAll(() => local.close());

const texts = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix} message number ${i} about the weather`);

describe('local embedder lanes', () => {
  it('embeds a query ahead of the background batches already waiting', async () => {
    await local.embed(['warm the model up']);
    const finished: string[] = [];
    const background = Array.from({ length: 5 }, (_, i) =>
      local.embed(texts(`batch ${i}`, 8)).then(() => finished.push(`background ${i}`)),
    );
    const query = local.embed(['what was said about rain'], 'query').then(() => finished.push('query'));
    await Promise.all([...background, query]);
    // At most the batch the worker had in hand when the query came goes before it.
    expect(finished.indexOf('query')).toBeLessThanOrEqual(1);
    expect(finished).toHaveLength(6);
  });

  it('gives the same vectors in either lane', async () => {
    const [inBackground] = await local.embed(['the same words']);
    const [asQuery] = await local.embed(['the same words'], 'query');
    expect(asQuery).toEqual(inBackground);
  });
});

describe('query vector cache', () => {
  /** The local embedder, counting the texts that reach it per lane. */
  function counted() {
    const seen: Record<EmbedLane, number> = { query: 0, background: 0 };
    const embedder: Embedder = {
      id: local.id,
      dimensions: local.dimensions,
      embed(list, lane = 'background') {
        seen[lane] += list.length;
        return local.embed(list, lane);
      },
      close: async () => {},
    };
    return { embedder, seen };
  }

  it('asks the model once for a repeated query, and always for background texts', async () => {
    const { embedder, seen } = counted();
    const cached = withQueryCache(embedder);
    const first = await cached.embed(['  where is the  invoice '], 'query');
    const again = await cached.embed(['where is the invoice'], 'query');
    expect(again).toEqual(first);
    expect(seen.query).toBe(1);
    await cached.embed(['where is the invoice']);
    await cached.embed(['where is the invoice']);
    expect(seen.background).toBe(2);
  });

  it('forgets the least recently used query first', async () => {
    const { embedder, seen } = counted();
    const cached = withQueryCache(embedder, 2);
    for (const query of ['one', 'two', 'one', 'three', 'one']) await cached.embed([query], 'query');
    // 'two' went when 'three' came; 'one', used last, stayed.
    expect(seen.query).toBe(3);
    await cached.embed(['two'], 'query');
    expect(seen.query).toBe(4);
  });
});
