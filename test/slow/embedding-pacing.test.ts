import { afterAll, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../src/embedders/local.js';

// Timing, so in the slow suite: while a backlog of background batches drains, the local model
// spends at most about its EMBEDDING_BACKGROUND_SHARE on them, and a search's query embedding
// keeps a bounded p95 (it waits at most for the one small batch in hand).

const share = 0.25;
const local = createLocalEmbedder({ backgroundShare: share });
afterAll(() => local.close());

const batch = (i: number) =>
  Array.from({ length: 8 }, (_, j) => `background text ${i}.${j}: notes on the quarterly report`);

describe('local embedder pacing', () => {
  it('keeps background work to its share and query p95 bounded while a backlog drains', async () => {
    // In the query lane, which is never paced: the cost of one batch's work alone, timed three
    // times after a warm-up of the same size. On a loaded machine one timing can come out at twice
    // the batches' real cost (CI: 170 ms once, against 66 ms a batch in the drain that followed),
    // so each bound below takes the timing that makes it hardest to meet by chance: the fastest
    // for the drain's least time, the slowest for the queries' wait.
    await local.embed(batch(-2), 'query');
    const timings: number[] = [];
    for (let i = 0; i < 3; i++) {
      const alone = performance.now();
      await local.embed(batch(-1 - 10 * i), 'query');
      timings.push(performance.now() - alone);
    }
    const fastestBatchMs = Math.min(...timings);
    const slowestBatchMs = Math.max(...timings);

    const started = performance.now();
    const backlog = Promise.all(Array.from({ length: 12 }, (_, i) => local.embed(batch(i))));
    const waits: number[] = [];
    let drained = false;
    void backlog.then(() => {
      drained = true;
    });
    while (!drained) {
      const asked = performance.now();
      await local.embed([`query ${waits.length}: what did the report say`], 'query');
      waits.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await backlog;
    const elapsed = performance.now() - started;
    const sorted = [...waits].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
    console.log(
      `one batch ${timings.map((ms) => ms.toFixed(0)).join(' / ')} ms; 12 batches drained in ` +
        `${elapsed.toFixed(0)} ms; ${waits.length} queries, p95 ${p95.toFixed(0)} ms`,
    );
    // Paced to a quarter of the time, twelve batches take about 12 / share batch times; unpaced,
    // about 12 and the queries between them.
    expect(elapsed).toBeGreaterThan(12 * fastestBatchMs * (1 / share) * 0.4);
    // A query waits for the batch in hand and its own embedding, never for the backlog.
    expect(p95).toBeLessThan(3 * slowestBatchMs + 250);
  });
});
