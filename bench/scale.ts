import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, openDatabase, rowsOf } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { createLocalEmbedder } from '../src/embedders/local.js';
import {
  ensureVectorIndexes,
  indexPrecisionOf,
  vectorIndexName,
} from '../src/modules/embeddings/vector-sql.js';
import { createProjectService } from '../src/modules/projects/service.js';
import { countTermsFrom, termBucket } from '../src/modules/search/terms-sql.js';
import { createServerDatabase } from '../test/helpers/database.js';
import { loadEvalMessages, loadEvalQueries } from '../scripts/lib/search-fixtures.js';
import { type LoadResult, type LoadSpec, pick, runLoad } from './lib/load.js';
import { cursorAtDepth, json } from './lib/pages.js';
import { type BenchServer, startServer } from './lib/processes.js';
import { rssMb } from './lib/server-metrics.js';

// `npm run bench -- scale`: Parley over HTTP at 10^5 and 10^6 stored messages (BENCH_SCALE_SIZES),
// on PostgreSQL (BENCH_DATABASE_URL) at every size and on the embedded PGlite at sizes up to 10^5.
//
// The data has the shape of a real service: one large project holds 90% of the messages, 99 small
// projects the rest; dialogues of 50 messages, plus long ones of up to 10^5 (one at 10^5 stored, three
// at 10^6); every tenth dialogue is namespaced (an end user), each message has one of 10 tags, a
// metadata object and a `created` one minute after the previous one's. Vectors are synthetic (random,
// tagged with the local model's id, written straight into the table, as in bench/search.ts): latency
// depends on the index and the row count, not on what the vectors mean. The vector indexes are
// built after the rows are in, and timed.
//
// Each scenario runs under autocannon for BENCH_SECONDS with BENCH_SCALE_CONNECTIONS connections and
// reports p50/p95/p99 beside its target. Every search is also measured alone (one connection, one
// request at a time): under 8 connections on 2 cores a request mostly waits for the others, and its
// latency says how many requests were in flight as much as what one costs. Reads run first, on a quiet server; then the writes (the
// embedding worker then has work, as it would); then the event poll, which reads what they made;
// then lexical search, on a second server with EMBEDDINGS=none (lexical is what a search falls back
// to without an embedder). The server's RSS is read after every scenario.

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '100000,1000000').split(',').map(Number);
/** `postgres`, `pglite` or both: PGlite's HNSW build alone takes over 20 minutes at 10^5. */
const STORES = (process.env.BENCH_SCALE_STORES ?? 'postgres,pglite').split(',');
/** PGlite is one process's embedded store: it is measured at the smaller sizes only. */
const PGLITE_MAX_SIZE = 100_000;
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 8);
const SMALL_PROJECTS = 99;
const DIALOGUE_LENGTH = 50;
const SEED_START = '2024-01-01T00:00:00Z';

interface Layout {
  /** Messages of each small project. */
  small: number;
  /** The large project's long dialogues and their length. */
  longCount: number;
  longLength: number;
  /** The large project's messages in dialogues of DIALOGUE_LENGTH. */
  regular: number;
}

function layoutFor(size: number): Layout {
  const small = Math.max(DIALOGUE_LENGTH, Math.floor((size * 0.1) / SMALL_PROJECTS));
  const longCount = size >= 1_000_000 ? 3 : 1;
  const longLength = Math.min(100_000, Math.floor(size / 10));
  const regular = size - small * SMALL_PROJECTS - longCount * longLength;
  return { small, longCount, longLength, regular };
}

interface Tenant {
  projectId: string;
  apiKey: string;
  /** Its regular dialogues, 'dlg_1' to 'dlg_N'. */
  dialogues: number;
}

interface SeededScale {
  large: Tenant;
  smalls: Tenant[];
  longDialogue: string;
  seedSeconds: number;
  indexSeconds: number;
  /** The messages' HNSW index over the vectors it holds. */
  indexBytesPerVector: number;
}

/** Inserts `count` messages in dialogues of 50 (and, with `longDialogue`, in that one dialogue). */
async function insertMessages(
  db: DatabaseHandle['db'],
  projectId: string,
  count: number,
  embedding: { model: string; dimensions: number },
  longDialogue?: string,
) {
  const texts = JSON.stringify(loadEvalMessages().map((m) => m.text));
  const chunk = 20_000;
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    const dialogue = longDialogue
      ? sql`${longDialogue}::text`
      : sql`'dlg_' || (1 + (i - 1) / ${DIALOGUE_LENGTH}::int)`;
    const namespace = longDialogue
      ? sql`NULL::text`
      : sql`CASE WHEN (1 + (i - 1) / ${DIALOGUE_LENGTH}::int) % 10 = 0
          THEN 'user-' || ((1 + (i - 1) / ${DIALOGUE_LENGTH}::int) % 1000) END`;
    await db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, namespace, role, content, content_length, search_text,
        embedding, embedding_model, tags, metadata, created, modified)
      SELECT ${projectId}, ${dialogue}, ${longDialogue ? `${longDialogue}-` : 'msg_'} || i, ${namespace},
        CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END, to_json(t.text)::text, length(t.text), t.text,
        (SELECT array_agg(random() - 0.5) FROM generate_series(1, ${embedding.dimensions}::int) WHERE i > 0)::vector,
        ${embedding.model},
        ARRAY['topic-' || (i % 10)],
        jsonb_build_object('priority', i % 5, 'channel', CASE WHEN i % 2 = 0 THEN 'web' ELSE 'email' END),
        ${SEED_START}::timestamptz + i * interval '1 minute',
        ${SEED_START}::timestamptz + i * interval '1 minute'
      FROM generate_series(${from}::int, ${to}::int) AS i,
        LATERAL (SELECT ((${texts}::json) ->> (i % json_array_length(${texts}::json))) || ' (ref ' || i || ')' AS text) AS t`);
  }
}

async function seedTenant(
  handle: DatabaseHandle,
  name: string,
  regular: number,
  embedding: { model: string; dimensions: number },
): Promise<Tenant> {
  const { project, apiKey } = await createProjectService({ db: handle.db }).createProject(name);
  const dialogues = Math.ceil(regular / DIALOGUE_LENGTH);
  await handle.db.execute(sql`
    INSERT INTO dialogues (project_id, id, namespace, created, modified)
    SELECT ${project.id}, 'dlg_' || d, CASE WHEN d % 10 = 0 THEN 'user-' || (d % 1000) END,
      ${SEED_START}::timestamptz, ${SEED_START}::timestamptz
    FROM generate_series(1, ${dialogues}::int) AS d`);
  await insertMessages(handle.db, project.id, regular, embedding);
  return { projectId: project.id, apiKey, dialogues };
}

async function seedScale(handle: DatabaseHandle, size: number): Promise<SeededScale> {
  const embedder = createLocalEmbedder();
  try {
    const embedding = { model: embedder.id, dimensions: embedder.dimensions };
    const layout = layoutFor(size);
    const started = performance.now();
    await runMigrations(handle);
    const large = await seedTenant(handle, 'large', layout.regular, embedding);
    for (let k = 1; k <= layout.longCount; k++) {
      const id = `dlg_long_${k}`;
      await handle.db.execute(
        sql`INSERT INTO dialogues (project_id, id, created, modified) VALUES (${large.projectId}, ${id}, ${SEED_START}, ${SEED_START})`,
      );
      await insertMessages(handle.db, large.projectId, layout.longLength, embedding, id);
    }
    const smalls: Tenant[] = [];
    for (let s = 1; s <= SMALL_PROJECTS; s++)
      smalls.push(await seedTenant(handle, `small-${s}`, layout.small, embedding));
    // The word counts a search weighs the query's words by (D140), as the appends would have left them.
    for (const { projectId } of [large, ...smalls]) {
      await handle.db.execute(
        countTermsFrom(
          sql`SELECT namespace, ${termBucket(sql`dialogue_id`)}, search_vector FROM messages WHERE project_id = ${projectId}`,
          { projectId, objectType: 'message', sign: 1 },
        ),
      );
    }
    // The counters a dialogue keeps, as the append would have left them.
    await handle.db.execute(sql`
      UPDATE dialogues SET total_messages = c.n, last_message_created = c.last
      FROM (SELECT project_id, dialogue_id, count(*)::int AS n, max(created) AS last FROM messages
            GROUP BY project_id, dialogue_id) AS c
      WHERE dialogues.project_id = c.project_id AND dialogues.id = c.dialogue_id`);
    const seedSeconds = (performance.now() - started) / 1000;

    const indexStarted = performance.now();
    await handle.withDedicatedConnection(async (db) => {
      // A bigger maintenance_work_mem keeps the HNSW graph build in memory: at 10^6 the graph of
      // 512-dimension vectors takes about 3 GB, and a build that spills is several times slower.
      if (handle.kind !== 'pglite') await db.execute(sql`SET maintenance_work_mem = '4GB'`);
      await ensureVectorIndexes({ ...handle, db, withDedicatedConnection: (fn) => fn(db) }, embedder);
      await db.execute(sql`ANALYZE`);
    });
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    const [{ bytes }] = rowsOf<{ bytes: string }>(
      await handle.db.execute(
        sql`SELECT pg_relation_size(${vectorIndexName('messages', embedder, indexPrecisionOf(handle.kind, embedder))}::regclass)::text AS bytes`,
      ),
    ) as [{ bytes: string }];
    const indexBytesPerVector = Number(bytes) / size;
    return { large, smalls, longDialogue: 'dlg_long_1', seedSeconds, indexSeconds, indexBytesPerVector };
  } finally {
    await embedder.close();
  }
}

/** Bytes stored per message: the whole database (tables, indexes, TOAST) over its messages. */
async function bytesPerMessage(handle: DatabaseHandle, dataDir: string | undefined): Promise<number> {
  const [{ messages }] = rowsOf<{ messages: number }>(
    await handle.db.execute(sql`SELECT count(*)::int AS messages FROM messages`),
  ) as [{ messages: number }];
  if (dataDir) {
    const { execFileSync } = await import('node:child_process');
    const bytes = Number(execFileSync('du', ['-sb', dataDir], { encoding: 'utf8' }).split('\t')[0]);
    return bytes / messages;
  }
  const [{ bytes }] = rowsOf<{ bytes: string }>(
    await handle.db.execute(sql`SELECT pg_database_size(current_database())::text AS bytes`),
  ) as [{ bytes: string }];
  return Number(bytes) / messages;
}

interface Figure {
  scenario: string;
  load: LoadResult;
  /** The same requests one at a time, for searches: what one costs without waiting for others. */
  alone?: LoadResult;
  /** The p95 target at this size, where the speed goals name one. */
  targetMs?: number;
}

const content1KiB = 'Parley keeps every conversation exactly as it was sent. '.repeat(19).slice(0, 1024);

/** The speed goals' p95 targets for hybrid search (unfiltered; filtered may take twice that). */
const searchTargetMs = (size: number) => (size >= 1_000_000 ? 60 : 25);

async function measure(
  store: { DATABASE_URL?: string; DATA_DIR?: string },
  size: number,
  seeded: SeededScale,
) {
  const figures: Figure[] = [];
  let maxRssMb = 0;
  let feedSettleMs = 0;
  const queries = loadEvalQueries().map((q) => q.query);
  const { large, smalls } = seeded;
  const auth = (tenant: Tenant) => ({ authorization: `Bearer ${tenant.apiKey}` });
  /** One of the tenant's dialogues without a namespace (those are named by their namespace, D34). */
  const dialogue = (tenant: Tenant) => {
    const n = 1 + Math.floor(Math.random() * tenant.dialogues);
    return `dlg_${n % 10 === 0 ? n - 1 : n}`;
  };
  const namespaces = Array.from(
    { length: Math.min(1000, Math.floor(large.dialogues / 10)) },
    (_, n) => `user-${n}`,
  );
  const env = { ...(store as Record<string, string>), RATE_LIMIT_MAX: '100000000' };

  const run = async (
    server: BenchServer,
    scenario: string,
    spec: Omit<LoadSpec, 'connections' | 'durationSeconds'>,
    targetMs?: number,
  ) => {
    const load = await runLoad({ connections, durationSeconds, ...spec, url: server.baseUrl + spec.url });
    const alone = spec.url.endsWith('/search')
      ? await runLoad({ durationSeconds, ...spec, connections: 1, url: server.baseUrl + spec.url })
      : undefined;
    figures.push({ scenario, load, alone, targetMs });
    maxRssMb = Math.max(maxRssMb, await rssMb(server.baseUrl));
  };
  const search = (body: () => Record<string, unknown>, tenant = large) => ({
    url: '/api/v1/search',
    method: 'POST' as const,
    headers: auth(tenant),
    body: () => JSON.stringify({ query: pick(queries), limit: 10, ...body() }),
  });

  const server = await startServer('src/server.ts', env);
  try {
    const api = `${server.baseUrl}/api/v1`;
    const firstPage = `/api/v1/messages?dialogueId=${seeded.longDialogue}&limit=50`;
    const longLength = layoutFor(size).longLength;
    const deepCursor = await cursorAtDepth(api, auth(large), seeded.longDialogue, longLength - 50);
    await run(server, 'GET /messages, first page (50)', { url: firstPage, headers: auth(large) });
    await run(server, `GET /messages, deepest page (at ${longLength - 50})`, {
      url: `${firstPage}&next=${deepCursor}`,
      headers: auth(large),
    });
    await run(server, 'GET /dialogue/{id}', {
      url: '/api/v1/dialogue/dlg_1',
      path: () => `/api/v1/dialogue/${dialogue(large)}`,
      headers: auth(large),
    });
    await run(server, 'GET /dialogue/{id}/context', {
      url: '/api/v1/dialogue/dlg_1/context',
      path: () => `/api/v1/dialogue/${dialogue(large)}/context`,
      headers: auth(large),
    });
    const target = searchTargetMs(size);
    await run(
      server,
      'hybrid search, unfiltered',
      search(() => ({})),
      target,
    );
    await run(
      server,
      'hybrid search, one namespace',
      search(() => ({ namespace: pick(namespaces) })),
      2 * target,
    );
    await run(
      server,
      'hybrid search, tags + metadata + date range',
      search(() => ({
        tags: { $in: [`topic-${Math.floor(Math.random() * 10)}`] },
        metadata: { priority: { $gte: 3 } },
        filter: {
          created: {
            gte: SEED_START,
            lt: new Date(Date.parse(SEED_START) + (size / 2) * 60_000).toISOString(),
          },
        },
      })),
      2 * target,
    );
    // Each request is a small project of the 99: none pays for the large tenant's rows.
    const smallSearch = {
      url: '/api/v1/search',
      method: 'POST' as const,
      headers: auth(smalls[0]!),
      body: () => JSON.stringify({ query: pick(queries), limit: 10 }),
    };
    // Over the API on the embedded store the goal is 20 ms at any size; on PostgreSQL, 15 ms at 10^6.
    const smallTarget = store.DATA_DIR ? 20 : size >= 1_000_000 ? 15 : undefined;
    await run(server, 'hybrid search, a small project', smallSearch, smallTarget);

    await run(server, 'POST /message (1 KiB)', {
      url: '/api/v1/message',
      method: 'POST',
      headers: auth(large),
      body: () => JSON.stringify({ dialogueId: dialogue(large), role: 'user', content: content1KiB }),
    });
    const batch = Array.from({ length: 50 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `batch message ${i}`,
    }));
    await run(server, 'POST /messages (50)', {
      url: '/api/v1/messages',
      method: 'POST',
      headers: auth(large),
      body: () => JSON.stringify({ dialogueId: dialogue(large), messages: batch }),
    });
    // The first poll after the writes waits until every event they committed is numbered (D65);
    // its time says how far numbering fell behind the writers. The load then polls a settled feed.
    const settleStarted = performance.now();
    await json(`${api}/events?limit=1`, { headers: auth(large) });
    feedSettleMs = performance.now() - settleStarted;
    await run(server, 'GET /events (poll, 100 a page)', {
      url: '/api/v1/events?limit=100',
      headers: auth(large),
    });
  } finally {
    await server.stop();
  }
  const lexicalServer = await startServer('src/server.ts', { ...env, EMBEDDINGS: 'none' });
  try {
    await run(
      lexicalServer,
      'lexical search, unfiltered',
      search(() => ({})),
      searchTargetMs(size),
    );
  } finally {
    await lexicalServer.stop();
  }
  return { figures, maxRssMb, feedSettleMs };
}

function format(
  title: string,
  seeded: SeededScale,
  bytes: number,
  result: Awaited<ReturnType<typeof measure>>,
) {
  const ms = (value: number) => value.toFixed(1);
  const lines = [
    `### ${title}`,
    '',
    `Seeded in ${seeded.seedSeconds.toFixed(0)} s; vector indexes built in ${seeded.indexSeconds.toFixed(0)} s ` +
      `(the messages' HNSW index: ${seeded.indexBytesPerVector.toFixed(0)} bytes per vector); ` +
      `${bytes.toFixed(0)} bytes stored per message; server RSS at most ${result.maxRssMb.toFixed(0)} MB (target 800 MB); ` +
      `the first event poll after the writes waited ${(result.feedSettleMs / 1000).toFixed(1)} s for their numbering.`,
    '',
    `| scenario | req/s | p50 ms | p95 ms | p99 ms | alone: p50 / p95 ms | p95 target: ${connections} connections, alone | errors |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  const met = (p95Ms: number, targetMs: number) => (p95Ms <= targetMs ? 'met' : 'missed');
  for (const { scenario, load, alone, targetMs } of result.figures) {
    const verdict =
      targetMs === undefined
        ? '–'
        : `${targetMs} ms: ${met(load.p95Ms, targetMs)}${alone ? `, ${met(alone.p95Ms, targetMs)}` : ''}`;
    const errors = load.errors + load.non2xx + (alone ? alone.errors + alone.non2xx : 0);
    const firstError = load.firstError ?? alone?.firstError;
    lines.push(
      `| ${scenario} | ${load.requestsPerSecond.toFixed(0)} | ${ms(load.p50Ms)} | ${ms(load.p95Ms)} | ${ms(load.p99Ms)} | ${alone ? `${ms(alone.p50Ms)} / ${ms(alone.p95Ms)}` : '–'} | ${verdict} | ${errors}${firstError ? ` (${firstError})` : ''} |`,
    );
  }
  const first = result.figures.find((f) => f.scenario.includes('first page'));
  const deep = result.figures.find((f) => f.scenario.includes('deepest page'));
  if (first && deep)
    lines.push(
      '',
      `Deepest page / first page, p50: ${(deep.load.p50Ms / Math.max(first.load.p50Ms, 0.1)).toFixed(2)} (target at most 1.2)`,
    );
  return lines.join('\n');
}

/** Every size on PostgreSQL (when a server is named), and the sizes PGlite takes on a fresh directory. */
export async function benchScale(postgresUrl: string | undefined): Promise<string[]> {
  const sections: string[] = [];
  for (const size of SIZES) {
    if (postgresUrl && STORES.includes('postgres')) {
      const database = await createServerDatabase(postgresUrl);
      try {
        const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolMax: 4 });
        let seeded: SeededScale;
        let bytes: number;
        try {
          seeded = await seedScale(handle, size);
          bytes = await bytesPerMessage(handle, undefined);
        } finally {
          await handle.close();
        }
        const result = await measure({ DATABASE_URL: database.url }, size, seeded);
        sections.push(
          format(
            `Scale: ${size.toLocaleString('en')} messages, PostgreSQL (${connections} connections)`,
            seeded,
            bytes,
            result,
          ),
        );
      } finally {
        await database.drop();
      }
    }
    if (size <= PGLITE_MAX_SIZE && STORES.includes('pglite')) {
      const dir = mkdtempSync(join(tmpdir(), 'parley-scale-'));
      try {
        const dataDir = join(dir, 'parley');
        const handle = await openDatabase({ dataDir });
        let seeded: SeededScale;
        try {
          seeded = await seedScale(handle, size);
        } finally {
          await handle.close();
        }
        const bytes = await (async () => {
          const reopened = await openDatabase({ dataDir });
          try {
            return await bytesPerMessage(reopened, dataDir);
          } finally {
            await reopened.close();
          }
        })();
        const result = await measure({ DATA_DIR: dataDir }, size, seeded);
        sections.push(
          format(
            `Scale: ${size.toLocaleString('en')} messages, embedded PGlite (${connections} connections)`,
            seeded,
            bytes,
            result,
          ),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  return sections;
}
