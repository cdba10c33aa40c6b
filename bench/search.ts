import { sql } from 'drizzle-orm';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { dialogues, messages, projects } from '../src/db/schema.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createLocalEmbedder } from '../src/embedders/local.js';
import { enqueueEmbedding } from '../src/modules/embeddings/repository.js';
import { ensureVectorIndexes } from '../src/modules/embeddings/vector-sql.js';
import { drainEmbeddingQueue } from '../src/modules/embeddings/worker.js';
import { dialogueScope } from '../src/modules/dialogues/scope.js';
import { searchBody } from '../src/modules/search/schemas.js';
import { createSearchService } from '../src/modules/search/service.js';
import { keyOnlyLoaders } from './lib/key-loaders.js';
import { percentile } from './lib/load.js';
import type { Strategy } from '../src/modules/search/scoring.js';
import { createServerDatabase } from '../test/helpers/database.js';
import { loadEvalMessages, loadEvalQueries } from '../scripts/lib/search-fixtures.js';

// Search figures on real Postgres (BENCH_DATABASE_URL):
// - search latency p50/p95 with 10k and 100k stored messages, through the search service with the
//   local model embedding each query (as POST /search does), hybrid and lexical;
// - the queue's embedding throughput beside the raw throughput of the same embedder, same run.
// The stored messages' text is the labelled chat set repeated with a distinct reference each; their
// vectors are synthetic (random 512-dimension vectors tagged with the local model's id, written
// straight into the table), so that the 100k case does not spend half an hour embedding on 2 cores.
// Latency depends on the index and the row count, not on what the vectors mean.
// Each message also gets one of 10 tags, a metadata object ({priority: 0-4, channel: web|email})
// and a `created` one minute after the previous one's, so that a filtered search (D59: tags +
// metadata + a date range, inside both candidate queries) is measured beside the unfiltered one.

const PROJECT = 'prj_bench';
const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '10000,100000').split(',').map(Number);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 200);
const THROUGHPUT_TEXTS = Number(process.env.BENCH_EMBED_TEXTS ?? 512);

/** The seeded messages' `created`: one minute apart from here on. */
const SEED_START = '2024-01-01T00:00:00Z';

/**
 * D59's filters together: one tag of 10 (10%), priority 3 or 4 (40%), the first half of the
 * messages by `created` (50%): about 2% of the rows pass, all of them tested inside the scans.
 */
const filteredSearch = (count: number) => ({
  tags: { $in: ['topic-3'] },
  metadata: { priority: { $gte: 3 }, channel: { $in: ['web', 'email'] } },
  filter: {
    created: {
      gte: SEED_START,
      lt: new Date(Date.parse(SEED_START) + (count / 2) * 60_000).toISOString(),
    },
  },
});

async function seed(handle: DatabaseHandle, embedder: Embedder, count: number): Promise<number> {
  const texts = loadEvalMessages().map((m) => m.text);
  const started = performance.now();
  await handle.db.insert(projects).values({ id: PROJECT, name: 'bench' });
  const dialogueCount = Math.ceil(count / 50);
  await handle.db.execute(sql`
    INSERT INTO dialogues (project_id, id, namespace)
    SELECT ${PROJECT}, 'dlg_' || d, CASE WHEN d % 10 = 0 THEN 'tenant-' || (d % 7) END
    FROM generate_series(1, ${dialogueCount}::int) AS d`);
  // Rows in chunks keep each statement's memory small.
  const chunk = 10_000;
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    await handle.db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, namespace, role, content, content_length, search_text,
        embedding, embedding_model, tags, metadata, created, modified)
      SELECT ${PROJECT}, 'dlg_' || (1 + (i - 1) / 50), 'msg_' || i,
        CASE WHEN (1 + (i - 1) / 50) % 10 = 0 THEN 'tenant-' || ((1 + (i - 1) / 50) % 7) END,
        'user', to_json(t.text)::text, length(t.text), t.text,
        (SELECT array_agg(random() - 0.5) FROM generate_series(1, ${embedder.dimensions}::int) WHERE i > 0)::vector,
        ${embedder.id},
        ARRAY['topic-' || (i % 10)],
        jsonb_build_object('priority', i % 5, 'channel', CASE WHEN i % 2 = 0 THEN 'web' ELSE 'email' END),
        ${SEED_START}::timestamptz + i * interval '1 minute',
        ${SEED_START}::timestamptz + i * interval '1 minute'
      FROM generate_series(${from}::int, ${to}::int) AS i,
        LATERAL (SELECT ((${JSON.stringify(texts)}::json) ->> (i % ${texts.length}::int)) || ' (ref ' || i || ')' AS text) AS t`);
  }
  await handle.withDedicatedConnection(async (db) => {
    // A bigger maintenance_work_mem keeps the HNSW graph build in memory.
    await db.execute(sql`SET maintenance_work_mem = '1GB'`);
    await ensureVectorIndexes({ ...handle, db, withDedicatedConnection: (fn) => fn(db) }, embedder);
    await db.execute(sql`ANALYZE messages`);
  });
  return (performance.now() - started) / 1000;
}

async function latency(
  handle: DatabaseHandle,
  embedder: Embedder,
  strategy: Strategy,
  filters: Record<string, unknown> = {},
) {
  const service = createSearchService({
    readDb: handle.db,
    embedder,
    storeKind: handle.kind,
    loaders: keyOnlyLoaders,
    dialogueScope,
  });
  const queries = loadEvalQueries().map((q) => q.query);
  const times: number[] = [];
  for (let i = 0; i < SEARCHES + 10; i++) {
    const started = performance.now();
    await service.search(
      { projectId: PROJECT, settings: {} },
      searchBody.parse({ query: queries[i % queries.length]!, limit: 10, ...filters }),
      strategy,
    );
    // The first searches warm the caches and the model.
    if (i >= 10) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

/** The share of a hybrid search spent embedding the query with the local model. */
async function queryEmbedding(embedder: Embedder) {
  const queries = loadEvalQueries().map((q) => q.query);
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const started = performance.now();
    await embedder.embed([queries[i % queries.length]!]);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function throughput(handle: DatabaseHandle, embedder: Embedder) {
  const texts = loadEvalMessages()
    .map((m) => m.text)
    .slice(0, THROUGHPUT_TEXTS);
  let started = performance.now();
  for (let i = 0; i < texts.length; i += 32) await embedder.embed(texts.slice(i, i + 32));
  const raw = texts.length / ((performance.now() - started) / 1000);

  await handle.db.insert(dialogues).values({ projectId: PROJECT, id: 'dlg_queue' });
  await handle.db.transaction(async (tx) => {
    for (const [i, text] of texts.entries()) {
      const id = `msg_queue_${i}`;
      await tx.insert(messages).values({
        projectId: PROJECT,
        dialogueId: 'dlg_queue',
        id,
        role: 'user',
        content: JSON.stringify(text),
        contentLength: text.length,
        searchText: text,
      });
      await enqueueEmbedding(tx, {
        projectId: PROJECT,
        objectType: 'message',
        dialogueId: 'dlg_queue',
        objectId: id,
      });
    }
  });
  started = performance.now();
  const done = await drainEmbeddingQueue({ db: handle.db, embedder, batchSize: 32 });
  const queued = done / ((performance.now() - started) / 1000);
  return { raw, queued };
}

export async function benchSearch(serverUrl: string): Promise<string> {
  const embedder = createLocalEmbedder();
  const lines: string[] = [];
  try {
    for (const size of SIZES) {
      const database = await createServerDatabase(serverUrl);
      const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolMax: 4 });
      try {
        await runMigrations(handle);
        const seconds = await seed(handle, embedder, size);
        const hybrid = await latency(handle, embedder, 'hybrid');
        const filtered = await latency(handle, embedder, 'hybrid', { namespace: 'tenant-3' });
        const lexical = await latency(handle, embedder, 'lexical');
        const d59 = await latency(handle, embedder, 'hybrid', filteredSearch(size));
        const d59Lexical = await latency(handle, embedder, 'lexical', filteredSearch(size));
        lines.push(
          `${String(size).padStart(7)} messages (seeded and indexed in ${seconds.toFixed(0)} s): ` +
            `hybrid p50 ${hybrid.p50.toFixed(1)} ms p95 ${hybrid.p95.toFixed(1)} ms | ` +
            `hybrid, namespace filter p50 ${filtered.p50.toFixed(1)} ms p95 ${filtered.p95.toFixed(1)} ms | ` +
            `lexical p50 ${lexical.p50.toFixed(1)} ms p95 ${lexical.p95.toFixed(1)} ms`,
          `${String(size).padStart(7)} messages, tags + metadata + date range filter (about 2% of the rows): ` +
            `hybrid p50 ${d59.p50.toFixed(1)} ms p95 ${d59.p95.toFixed(1)} ms | ` +
            `lexical p50 ${d59Lexical.p50.toFixed(1)} ms p95 ${d59Lexical.p95.toFixed(1)} ms`,
        );
        if (size === SIZES[0]) {
          const embedding = await queryEmbedding(embedder);
          lines.push(
            `query embedding alone (in every hybrid figure): p50 ${embedding.p50.toFixed(1)} ms p95 ${embedding.p95.toFixed(1)} ms`,
          );
          const { raw, queued } = await throughput(handle, embedder);
          lines.push(
            `embedding throughput (${embedder.id}, ${THROUGHPUT_TEXTS} chat messages): raw embedder ` +
              `${raw.toFixed(1)} texts/s, through the Postgres queue ${queued.toFixed(1)} messages/s ` +
              `(ratio ${(queued / raw).toFixed(2)})`,
          );
        }
      } finally {
        await handle.close();
        await database.drop();
      }
    }
  } finally {
    await embedder.close();
  }
  return `Search (PostgreSQL, ${SEARCHES} searches per figure, query embedded by ${embedder.id})\n${lines.join('\n')}`;
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    console.error('BENCH_DATABASE_URL must name a PostgreSQL server with pgvector');
    process.exit(2);
  }
  console.log(await benchSearch(url));
}
