import { setTimeout as sleep } from 'node:timers/promises';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.js';
import { isTransientConnectionError } from '../../src/db/errors.js';
import { runMigrations } from '../../src/db/migrate.js';
import { type Embedder, normalize } from '../../src/embedders/embedder.js';
import { toClientError } from '../../src/http/error-handler.js';
import { READINESS_TIMEOUT_MS } from '../../src/modules/health/routes.js';
import { ADMIN_TOKEN, asProject, createProject } from '../helpers/app.js';
import { capturedLogger } from '../helpers/captured-logger.js';
import { createServerDatabase, testServerUrl } from '../helpers/database.js';
import { type Api, V1, createDialogue } from '../helpers/dialogues.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';

// D77: the database going away (restart, failover, network cut) never crashes the server and
// never answers 500: requests get 503 SERVICE_UNAVAILABLE with Retry-After, none waits on the
// database past 10 s, /readyz says 503 within 2 s, and service resumes by itself.

const pgError = (code: string, message: string) =>
  Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code });
const wrapped = (cause: unknown, params: unknown[] = []) =>
  new DrizzleQueryError('insert into "messages" ...', params, cause as Error);
const networkError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('database errors as the client sees them (D77)', () => {
  const unavailable: [string, unknown][] = [
    [
      '57P01 terminated by an administrator',
      wrapped(pgError('57P01', 'terminating connection due to administrator command')),
    ],
    [
      '57P02 crash of another backend',
      pgError('57P02', 'terminating connection because of crash of another server process'),
    ],
    ['57P03 starting up', pgError('57P03', 'the database system is starting up')],
    ['08006 connection failure', wrapped(pgError('08006', 'connection failure'))],
    ['53300 too many connections', pgError('53300', 'sorry, too many clients already')],
    ['57014 statement cancelled', wrapped(pgError('57014', 'canceling statement due to statement timeout'))],
    ['ECONNREFUSED', networkError('ECONNREFUSED')],
    ['ECONNRESET under Drizzle', wrapped(networkError('ECONNRESET'))],
    [
      'ETIMEDOUT (the statement bound)',
      Object.assign(new Error('The database did not answer'), { code: 'ETIMEDOUT' }),
    ],
    [
      'every address refused',
      new AggregateError([networkError('ECONNREFUSED'), networkError('ECONNREFUSED')]),
    ],
    ['pg: socket closed', wrapped(new Error('Connection terminated unexpectedly'))],
    ['pg: connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    [
      'pg: ROLLBACK on a broken connection',
      wrapped(new Error('Client has encountered a connection error and is not queryable')),
    ],
  ];

  it.each(unavailable)('%s: 503 SERVICE_UNAVAILABLE with Retry-After, never 500', (_name, error) => {
    const client = toClientError(error);
    expect(client.code).toBe('SERVICE_UNAVAILABLE');
    expect(client.status).toBe(503);
    expect(client.type).toBe('service_unavailable');
    expect(client.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(client.retryAfterSeconds).toBeLessThanOrEqual(2);
    expect(client.message).toMatch(/Idempotency-Key/);
  });

  it('keeps serialization failures and deadlocks as TRANSACTION_FAILED with Retry-After', () => {
    for (const code of ['40001', '40P01']) {
      const client = toClientError(wrapped(pgError(code, 'could not serialize access')));
      expect([client.code, client.status, client.retryAfterSeconds]).toEqual(['TRANSACTION_FAILED', 500, 1]);
    }
  });

  it('does not mistake a statement whose text or parameters quote a driver message for an outage', () => {
    // Drizzle's message quotes the parameters; a refusal's message may quote the client's text.
    const refused = wrapped(pgError('22P02', 'invalid input syntax for type json: "Connection terminated"'), [
      'Connection terminated unexpectedly',
    ]);
    expect(isTransientConnectionError(refused)).toBe(false);
    expect(toClientError(refused).code).toBe('INVALID_INPUT');
    expect(toClientError(wrapped(pgError('23505', 'duplicate key'), ['is not queryable'])).code).toBe(
      'DATABASE_ERROR',
    );
  });

  it('leaves other errors as they were: a cut-off request body is 400, a bug is 500', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    expect(toClientError(aborted).code).toBe('INVALID_INPUT');
    expect(toClientError(new Error('boom')).code).toBe('INTERNAL_ERROR');
  });
});

// ---------------------------------------------------------------------------------------------
// On a real Postgres: connections killed under load, and a network cut.

/** A deterministic embedder: the worker's calls need no model. */
function fakeEmbedder(): Embedder {
  return {
    id: 'outage-test-8',
    dimensions: 8,
    async embed(texts) {
      return texts.map((text) =>
        normalize(Array.from({ length: 8 }, (_, i) => (text.charCodeAt(i % text.length) % 7) + 1)),
      );
    },
    async close() {},
  };
}

interface Sent {
  dialogueId: string;
  id: string;
  key: string;
  status?: number;
  ms?: number;
}

interface Outcome {
  status: number;
  ms: number;
  body: string;
  retryAfter: string | undefined;
}

async function timed(
  request: Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>,
) {
  const start = performance.now();
  const response = await request;
  return {
    status: response.statusCode,
    ms: performance.now() - start,
    body: response.body,
    retryAfter: response.headers['retry-after'] as string | undefined,
  } satisfies Outcome;
}

/** The only answers D77 allows while the database comes and goes: success, or 503 with Retry-After. */
function expectSucceededOrUnavailable(outcome: Outcome, success?: number) {
  if (success !== undefined && outcome.status === success) return;
  expect(outcome.status, outcome.body).toBe(503);
  expect(JSON.parse(outcome.body).error.code).toBe('SERVICE_UNAVAILABLE');
  expect(Number(outcome.retryAfter)).toBeGreaterThanOrEqual(1);
}

function sendMessage(api: Api, message: Sent) {
  return timed(
    api({
      method: 'POST',
      url: `${V1}/message`,
      headers: { 'idempotency-key': message.key },
      payload: {
        dialogueId: message.dialogueId,
        id: message.id,
        role: 'user',
        content: `text of ${message.id}`,
      },
    }),
  );
}

/** Writers that send messages (each with its own Idempotency-Key) and readers, until stopped. */
function startLoad(api: Api, dialogueIds: string[], writers: number, tag: string) {
  const sent: Sent[] = [];
  const reads: Outcome[] = [];
  let stopped = false;
  const writer = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const message: Sent = {
        dialogueId: dialogueIds[(w + n) % dialogueIds.length]!,
        id: `${tag}-w${w}-n${n}`,
        key: `${tag}-key-w${w}-n${n}`,
      };
      sent.push(message);
      const outcome = await sendMessage(api, message);
      expectSucceededOrUnavailable(outcome, 201);
      message.status = outcome.status;
      message.ms = outcome.ms;
      if (outcome.status === 503) await sleep(20);
    }
  };
  const reader = async () => {
    for (let n = 0; !stopped; n++) {
      const outcome = await timed(
        api({
          method: 'GET',
          url: `${V1}/messages?dialogueId=${dialogueIds[n % dialogueIds.length]}&limit=5`,
        }),
      );
      expectSucceededOrUnavailable(outcome, 200);
      reads.push(outcome);
      if (outcome.status === 503) await sleep(20);
    }
  };
  const running = Promise.all([...Array.from({ length: writers }, (_, w) => writer(w)), reader()]);
  // A failed expectation surfaces from stop(), not as an unhandled rejection meanwhile.
  running.catch(() => {});
  return {
    sent,
    reads,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** Retries every write that got 503 with its own Idempotency-Key (D77); then all must be stored once. */
async function retryUnacknowledged(api: Api, sent: Sent[]) {
  for (const message of sent.filter((m) => m.status === 503)) {
    const outcome = await sendMessage(api, message);
    expect(outcome.status, outcome.body).toBe(201);
  }
}

async function storedIds(db: DatabaseHandle['db'], prefix: string): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM messages WHERE id LIKE ${`${prefix}-%`}`),
  );
  return rows.map((row) => row.id);
}

/** Polls until `fn` yields true; returns the time it took. */
async function until(fn: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await fn()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

async function openApp(
  url: string,
  handleOptions: { connectTimeoutMs: number; statementTimeoutMs: number; poolMax: number },
  extra: { embedder?: Embedder; logger?: ReturnType<typeof capturedLogger>['logger'] } = {},
) {
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'unused', ...handleOptions });
  const config = configFrom({
    ADMIN_TOKEN,
    // The embedder, if any, is given to buildApp below; none is made from the configuration.
    EMBEDDINGS: 'none',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    RATE_LIMIT_MAX: '1000000',
  });
  const app = await buildApp({
    config,
    database: handle,
    embedder: extra.embedder ?? null,
    logger: extra.logger,
  });
  await app.ready();
  return { app, handle };
}

describe.runIf(testServerUrl())('connections killed under load (Postgres, pg_terminate_backend)', () => {
  let database: { url: string; drop(): Promise<void> };
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let admin: pg.Client;
  let api: Api;
  let dialogueIds: string[];

  beforeAll(async () => {
    database = await createServerDatabase(testServerUrl()!);
    const migrator = await openDatabase({ databaseUrl: database.url, dataDir: 'unused' });
    await runMigrations(migrator);
    await migrator.close();
    ({ app, handle } = await openApp(database.url, {
      connectTimeoutMs: 3_000,
      statementTimeoutMs: 5_000,
      poolMax: 6,
    }));
    api = asProject(app, await createProject(app));
    dialogueIds = [];
    for (let i = 0; i < 3; i++) dialogueIds.push((await createDialogue(api)).id);
    // The killer connects to the test database itself and spares its own session: only this
    // file's sessions are ended.
    admin = new pg.Client({ connectionString: database.url });
    admin.on('error', () => {});
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end().catch(() => {});
    await app?.close();
    await handle?.close();
    await database?.drop();
  });

  it('answers 201 or 503 with Retry-After (never 500, never a crash), loses no acknowledged write, and recovers', async () => {
    const load = startLoad(api, dialogueIds, 6, 'kill');
    let killed = 0;
    // A kill every half second (a new connection takes 50-100 ms on a busy test machine): writes
    // are cut down in flight and served between the kills.
    const end = performance.now() + 4_000;
    while (performance.now() < end) {
      await sleep(500);
      const result = await admin.query(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      killed += (result.rows[0] as { n: number }).n;
    }
    await load.stop();

    const writes = load.sent.filter((m) => m.status !== undefined);
    const refused = writes.filter((m) => m.status === 503);
    // The load really met dead connections, and was served between the kills.
    expect(killed).toBeGreaterThanOrEqual(8);
    expect(refused.length).toBeGreaterThan(0);
    expect(writes.filter((m) => m.status === 201).length).toBeGreaterThan(0);
    expect(load.reads.filter((r) => r.status === 200).length).toBeGreaterThan(0);

    // Served again at once, and no pooled connection leaked: every one is back, idle.
    const response = await sendMessage(api, {
      dialogueId: dialogueIds[0]!,
      id: 'kill-after',
      key: 'kill-after',
    });
    expect(response.status, response.body).toBe(201);
    // Background work after a write (numbering its events, D63) may hold a connection for a
    // moment: a leaked connection never comes back, so every one must be idle again soon.
    await expect
      .poll(
        () => {
          const { idle, total } = handle.poolStats();
          return idle === total;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const stats = handle.poolStats();
    expect(stats.total).toBeLessThanOrEqual(6);
    expect(stats.waiting).toBe(0);

    // Every acknowledged write is stored; every refused one is stored exactly once after its
    // retry with the same Idempotency-Key, whether or not its first attempt committed.
    await retryUnacknowledged(api, writes);
    const stored = await storedIds(handle.db, 'kill');
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort()).toEqual([...writes.map((m) => m.id), 'kill-after'].sort());
    process.stdout.write(
      `pg_terminate_backend: ${killed} sessions killed, ${writes.length} writes (${refused.length} answered 503, ` +
        `slowest ${Math.round(Math.max(...writes.map((m) => m.ms!)))} ms), ` +
        `${load.reads.length} reads, all verified\n`,
    );
  });
});

describe.runIf(testServerUrl())('a network cut (Postgres behind a proxy that stops carrying bytes)', () => {
  // Longer than the readiness check's own bound, which must answer first.
  const CONNECT_MS = 2_500;
  const STATEMENT_MS = 2_000;
  let database: { url: string; drop(): Promise<void> };
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let direct: DatabaseHandle;
  let app: FastifyInstance;
  let api: Api;
  let apiKey: string;
  let dialogueIds: string[];
  const log = capturedLogger();

  beforeAll(async () => {
    database = await createServerDatabase(testServerUrl()!);
    direct = await openDatabase({ databaseUrl: database.url, dataDir: 'unused', poolMax: 2 });
    await runMigrations(direct);
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    ({ app, handle } = await openApp(
      proxy.urlThrough(database.url),
      { connectTimeoutMs: CONNECT_MS, statementTimeoutMs: STATEMENT_MS, poolMax: 4 },
      { embedder: fakeEmbedder(), logger: log.logger },
    ));
    const project = await createProject(app);
    apiKey = project.apiKey;
    api = asProject(app, project);
    dialogueIds = [];
    for (let i = 0; i < 2; i++) dialogueIds.push((await createDialogue(api)).id);
  });
  afterAll(async () => {
    proxy?.restore();
    await app?.close();
    await handle?.close();
    await proxy?.close();
    await direct?.close();
    await database?.drop();
  });

  const embedded = async (id: string) =>
    rowsOf<{ n: number }>(
      await direct.db.execute(
        sql`SELECT count(*)::int AS n FROM messages WHERE id = ${id} AND embedding IS NOT NULL`,
      ),
    )[0]!.n === 1;

  it('answers 503 in bounded time while cut, says so on /readyz within 2 s, pauses the worker, and resumes within 5 s', async () => {
    // The worker embeds before the cut.
    expect(
      (await sendMessage(api, { dialogueId: dialogueIds[0]!, id: 'cut-before', key: 'cut-before' })).status,
    ).toBe(201);
    await until(() => embedded('cut-before'), 10_000, 'the worker embeds a message');

    const load = startLoad(api, dialogueIds, 4, 'cut');
    await sleep(300);
    proxy.cut();
    const cutAt = performance.now();

    // /readyz: 503 within 2 s, however long the connect timeout.
    const ready = await timed(app.inject({ method: 'GET', url: '/readyz' }));
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(2_000);
    expect(ready.ms).toBeLessThan(READINESS_TIMEOUT_MS + 300);
    expect(JSON.parse(ready.body).status).toBe('database_unreachable');

    // MCP over the same error handling: 503 with Retry-After, not a 500 or a hang.
    const mcp = await timed(
      app.inject({
        method: 'POST',
        url: '/mcp/v1',
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': '2025-06-18',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      }),
    );
    expectSucceededOrUnavailable(mcp);

    // Long enough for the worker to meet the outage more than once.
    await sleep(Math.max(0, 5_000 - (performance.now() - cutAt)));
    const duringCut = load.sent.filter((m) => m.status !== undefined).length;
    proxy.restore();
    const restoredAt = performance.now();

    // Service resumes by itself within 5 s of the database being reachable again.
    const resumedMs = await until(
      async () =>
        (await sendMessage(api, { dialogueId: dialogueIds[1]!, id: 'cut-probe', key: 'cut-probe' }))
          .status === 201,
      5_000,
      'a write succeeds after the network is back',
    );
    expect(resumedMs).toBeLessThan(5_000);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await sleep(500);
    await load.stop();

    const writes = load.sent.filter((m) => m.status !== undefined);
    const refused = writes.filter((m) => m.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(duringCut).toBeGreaterThan(0);
    // No request waited on the database past 10 s; in fact not past connect + statement bounds.
    const slowest = Math.max(...writes.map((m) => m.ms!), ...load.reads.map((r) => r.ms));
    expect(slowest).toBeLessThan(10_000);
    expect(slowest).toBeLessThan(CONNECT_MS + STATEMENT_MS + 1_500);

    // The worker said once that it paused, and embeds again.
    expect(
      (await sendMessage(api, { dialogueId: dialogueIds[0]!, id: 'cut-after', key: 'cut-after' })).status,
    ).toBe(201);
    await until(() => embedded('cut-after'), 10_000, 'the worker embeds after the outage');
    const text = log.text();
    expect(text.match(/embedding worker paused/g)?.length).toBe(1);
    expect(text.match(/embedding worker resumed/g)?.length).toBe(1);
    expect(text).not.toMatch(/"statusCode":500/);

    // Writes whose outcome was unknown are safe to retry with their Idempotency-Key.
    await retryUnacknowledged(api, writes);
    const stored = await storedIds(direct.db, 'cut');
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort()).toEqual(
      [...writes.map((m) => m.id), 'cut-before', 'cut-probe', 'cut-after'].sort(),
    );
    // No pooled connection leaked (the worker may hold one for a moment).
    await until(
      async () => handle.poolStats().idle === handle.poolStats().total,
      5_000,
      'every connection idle',
    );
    process.stdout.write(
      `network cut: ${writes.length} writes (${refused.length} answered 503), slowest request ${Math.round(slowest)} ms, ` +
        `/readyz 503 in ${Math.round(ready.ms)} ms, resumed ${Math.round(resumedMs)} ms after restore ` +
        `(${Math.round(restoredAt - cutAt)} ms cut)\n`,
    );
  });
});
