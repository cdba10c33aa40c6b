import pg from 'pg';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import type { Embedder } from '../src/embedders/embedder.js';
import { createServerDatabase } from '../test/helpers/database.js';
import { untilEmbedded } from '../test/helpers/embedding-queue.js';

// `npm run bench:cost`: the work Parley does per request, in a way a loaded machine moves little
// (docs/benchmarks.md, "Cost per request"). One process drives the app in-process (inject, no
// HTTP) on a fresh PostgreSQL database: for each route, 200 warm-ups, then 2,000 requests, and
// the statements sent to Postgres (a counter on the pg client) and the process's CPU time per
// request. Hybrid search is measured on an app of its own, whose embedder is a hash of the text
// (no model: the figure is Parley's own work) and whose worker has embedded the dialogue's messages
// before the requests start. Needs BENCH_DATABASE_URL (a PostgreSQL server; a fresh database is created and dropped).

const serverUrl = process.env.BENCH_DATABASE_URL;
if (!serverUrl) throw new Error('BENCH_DATABASE_URL must name a PostgreSQL server');
const requests = Number(process.env.BENCH_COST_REQUESTS ?? 2000);
const warmups = 200;
const ADMIN = 'bench-admin-token-0123456789';

let statements = 0;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  statements++;
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const database = await createServerDatabase(serverUrl);
const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'memory://', poolMax: 4 });
try {
  await runMigrations(handle);
  const config = (env: Record<string, string> = {}) =>
    configFrom({
      ADMIN_TOKEN: ADMIN,
      EMBEDDINGS: 'none',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_MAX: '100000000',
      EMBEDDING_WORKER: 'false',
      WEBHOOK_WORKER: 'false',
      // The machine's load must not turn requests away: the figure is the work of a request.
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    });
  const rows: string[] = [];
  const app = await buildApp({ config: config(), database: handle });
  await app.ready();
  const { headers, dialogueId } = await seedProject(app, 'cost');
  rows.push(
    ...(await measure(app, headers, [
      { name: 'GET /dialogue/{id}', method: 'GET', url: `/api/v1/dialogue/${dialogueId}` },
      {
        name: 'GET /dialogue/{id}/context',
        method: 'GET',
        url: `/api/v1/dialogue/${dialogueId}/context`,
      },
      {
        name: 'GET /messages (20)',
        method: 'GET',
        url: `/api/v1/messages?dialogueId=${dialogueId}&limit=20`,
      },
      {
        name: 'POST /message',
        method: 'POST',
        url: '/api/v1/message',
        payload: { dialogueId, role: 'user', content: 'Parley keeps every conversation as it was sent.' },
      },
    ])),
  );
  await app.close();

  const searching = await buildApp({
    config: config({ EMBEDDING_WORKER: 'true' }),
    database: handle,
    embedder: hashEmbedder(),
  });
  await searching.ready();
  const project = await seedProject(searching, 'cost-search');
  await untilEmbedded(handle.db);
  rows.push(
    ...(await measure(searching, project.headers, [
      {
        name: 'POST /search (hybrid, messages)',
        method: 'POST',
        url: '/api/v1/search',
        payload: { query: 'which conversation was sent', object: 'message' },
      },
    ])),
  );
  await searching.close();
  process.stdout.write(
    `| route (${requests} requests) | statements per request | CPU per request |\n|---|---|---|\n${rows.join('\n')}\n`,
  );
} finally {
  await handle.close();
  await database.drop();
}

type App = Awaited<ReturnType<typeof buildApp>>;
interface Route {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  payload?: object;
}

/** A project with one dialogue of 20 messages; its key's headers and the dialogue. */
async function seedProject(app: App, name: string) {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/projects',
    headers: { authorization: `Bearer ${ADMIN}` },
    payload: { name },
  });
  const headers = { authorization: `Bearer ${(created.json() as { apiKey: string }).apiKey}` };
  const dialogue = await app.inject({ method: 'POST', url: '/api/v1/dialogue', headers, payload: {} });
  const dialogueId = (dialogue.json() as { id: string }).id;
  for (let i = 0; i < 20; i++) {
    await app.inject({
      method: 'POST',
      url: '/api/v1/message',
      headers,
      payload: { dialogueId, role: 'user', content: `seed ${i}: a conversation kept as it was sent` },
    });
  }
  return { headers, dialogueId };
}

/** Each route's statements and CPU per request, after its warm-ups: one table row each. */
async function measure(app: App, headers: Record<string, string>, routes: Route[]): Promise<string[]> {
  const rows: string[] = [];
  for (const route of routes) {
    const send = async () => {
      const response = await app.inject({
        method: route.method,
        url: route.url,
        payload: route.payload,
        headers,
      });
      if (response.statusCode >= 300)
        throw new Error(`${route.name}: ${response.statusCode} ${response.body}`);
    };
    for (let i = 0; i < warmups; i++) await send();
    statements = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < requests; i++) await send();
    const used = process.cpuUsage(cpu);
    const perRequest = (used.user + used.system) / requests;
    rows.push(`| ${route.name} | ${(statements / requests).toFixed(2)} | ${Math.round(perRequest)} µs |`);
  }
  return rows;
}

/** Unit vectors from the text's character codes: deterministic, and no model's CPU in the figure. */
function hashEmbedder(dimensions = 64): Embedder {
  const embedOne = (text: string) => {
    const vector = new Array<number>(dimensions).fill(0);
    for (let i = 0; i < text.length; i++) vector[(text.charCodeAt(i) * 31 + i) % dimensions]! += 1;
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  return {
    id: `cost/hash-${dimensions}`,
    dimensions,
    embed: async (texts) => texts.map(embedOne),
    close: async () => {},
  };
}
