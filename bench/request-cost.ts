import pg from 'pg';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { createServerDatabase } from '../test/helpers/database.js';

// `npm run bench:cost`: the work Parley does per request, in a way a loaded machine moves little
// (docs/benchmarks.md, "Cost per request"). One process drives the app in-process (inject, no
// HTTP) on a fresh PostgreSQL database: for each route, 200 warm-ups, then 2,000 requests, and
// the statements sent to Postgres (a counter on the pg client) and the process's CPU time per
// request. Needs BENCH_DATABASE_URL (a PostgreSQL server; a fresh database is created and dropped).

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
  const config = configFrom({
    ADMIN_TOKEN: ADMIN,
    EMBEDDINGS: 'none',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000000',
    EMBEDDING_WORKER: 'false',
    WEBHOOK_WORKER: 'false',
    // The machine's load must not turn requests away: the figure is the work of a request.
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  const app = await buildApp({ config, database: handle });
  await app.ready();
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/projects',
    headers: { authorization: `Bearer ${ADMIN}` },
    payload: { name: 'cost' },
  });
  const headers = { authorization: `Bearer ${(created.json() as { apiKey: string }).apiKey}` };
  const dialogue = await app.inject({ method: 'POST', url: '/api/v1/dialogue', headers, payload: {} });
  const dialogueId = (dialogue.json() as { id: string }).id;
  for (let i = 0; i < 20; i++) {
    await app.inject({
      method: 'POST',
      url: '/api/v1/message',
      headers,
      payload: { dialogueId, role: 'user', content: `seed ${i}` },
    });
  }
  const routes: { name: string; method: 'GET' | 'POST'; url: string; payload?: object }[] = [
    { name: 'GET /dialogue/{id}', method: 'GET', url: `/api/v1/dialogue/${dialogueId}` },
    { name: 'GET /messages (20)', method: 'GET', url: `/api/v1/messages?dialogueId=${dialogueId}&limit=20` },
    {
      name: 'POST /message',
      method: 'POST',
      url: '/api/v1/message',
      payload: { dialogueId, role: 'user', content: 'Parley keeps every conversation as it was sent.' },
    },
  ];
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
  await app.close();
  process.stdout.write(
    `| route (${requests} requests) | statements per request | CPU per request |\n|---|---|---|\n${rows.join('\n')}\n`,
  );
} finally {
  await handle.close();
  await database.drop();
}
