import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { createLogger, serializeError } from '../src/observability/logger.js';
import { ADMIN_TOKEN, createProject, createTestContext } from './helpers/app.js';
import { type TestDatabase, createTestDatabase } from './helpers/database.js';
import { eventually } from './helpers/eventually.js';

// Observability: /metrics in Prometheus format and one redacted log line per request.

let database: TestDatabase;
let app: FastifyInstance;
const logLines: Record<string, unknown>[] = [];
let rawLog = '';

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = createLogger(
    { LOG_LEVEL: 'info' },
    {
      write(line: string) {
        rawLog += line;
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  const config = configFrom({ ADMIN_TOKEN, EMBEDDINGS: 'none' });
  app = await buildApp({ config, database: database.handle, logger });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await database.close();
});

/** Parses the text exposition format; fails on any line that is not a comment, blank or a sample (Go-style NaN spellings, as Prometheus reads them). */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (-?[0-9.e+-]+|NaN|[+-]Inf)$/i.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

async function scrape(): Promise<Map<string, number>> {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return parseMetrics(response.body);
}

describe('/metrics', () => {
  it('counts requests and latency per route and status, and errors per code', async () => {
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/no/such/route' });
    await app.inject({
      method: 'GET',
      url: '/admin/v1/projects',
      headers: { authorization: 'Bearer wrong' },
    });

    const samples = await scrape();
    expect(samples.get('parley_http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(2);
    expect(
      samples.get('parley_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}'),
    ).toBe(2);
    expect(
      samples.get(
        'parley_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/healthz",status="200"}',
      ),
    ).toBe(2);
    expect(
      samples.get(
        'parley_http_errors_total{method="GET",route="unmatched",status="404",code="RESOURCE_NOT_FOUND"}',
      ),
    ).toBe(1);
    expect(
      samples.get(
        'parley_http_errors_total{method="GET",route="/admin/v1/projects",status="401",code="UNAUTHORIZED"}',
      ),
    ).toBe(1);
    expect(samples.get('parley_build_info{version="0.1.0"}')).toBe(1);
    expect(samples.get('parley_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports database pool use', async () => {
    const samples = await scrape();
    const stats = database.handle.poolStats();
    expect(samples.get('parley_db_pool_connections{state="waiting"}')).toBe(stats.waiting);
    expect(samples.get('parley_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(samples.has('parley_db_pool_connections{state="in_use"}')).toBe(true);
  });

  it('reports the embedding queue depth and the age of its oldest job', async () => {
    let samples = await scrape();
    expect(samples.get('parley_embedding_queue_depth{state="all"}')).toBe(0);
    expect(samples.get('parley_embedding_queue_oldest_age_seconds')).toBe(0);

    await database.handle.db.execute(sql`
      INSERT INTO embedding_jobs (project_id, object_type, object_id, created, run_at) VALUES
        ('prj_metrics', 'memory', 'mem_a', now() - interval '90 seconds', now()),
        ('prj_metrics', 'memory', 'mem_b', now() - interval '5 seconds', now() + interval '1 hour')`);
    samples = await scrape();
    expect(samples.get('parley_embedding_queue_depth{state="all"}')).toBe(2);
    expect(samples.get('parley_embedding_queue_depth{state="due"}')).toBe(1);
    const age = samples.get('parley_embedding_queue_oldest_age_seconds')!;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(3600);
    await database.handle.db.execute(sql`DELETE FROM embedding_jobs WHERE project_id = 'prj_metrics'`);
  });

  it('counts rate-limit refusals', async () => {
    const project = await createProject(app, { rateLimit: { max: 2, windowSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await app.inject({ method: 'GET', url: '/api/v1/dialogue', headers: project.auth });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    const samples = await scrape();
    expect(samples.get('parley_rate_limit_refusals_total{code="RATE_LIMIT_EXCEEDED"}')).toBe(2);
    expect(
      samples.get(
        'parley_http_errors_total{method="GET",route="/api/v1/dialogue",status="429",code="RATE_LIMIT_EXCEEDED"}',
      ),
    ).toBe(2);
  });
});

describe('request logs', () => {
  it('write one line per request with request id, route, status and timing, and no key', async () => {
    const project = await createProject(app);
    const response = await app.inject({
      method: 'GET',
      url: `/admin/v1/projects/${project.projectId}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-request-id': 'trace-me-123' },
    });
    expect(response.statusCode).toBe(200);

    const lines = logLines.filter((line) => line.reqId === 'trace-me-123');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      method: 'GET',
      route: '/admin/v1/projects/:id',
      statusCode: 200,
    });
    expect(typeof lines[0]!.durationMs).toBe('number');
    expect(rawLog).not.toContain(ADMIN_TOKEN);
    expect(rawLog).not.toContain(project.apiKey);
  });

  it('name the project of an authenticated request, and never its content', async () => {
    const project = await createProject(app);
    const secret = 'content-that-must-not-be-logged-91c2';
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/dialogue',
      headers: { ...project.auth, 'x-request-id': 'with-project-1' },
      payload: { state: { secret }, message: { role: 'user', content: secret } },
    });
    expect(created.statusCode).toBe(201);
    const line = logLines.find((entry) => entry.reqId === 'with-project-1');
    expect(line).toMatchObject({
      msg: 'request completed',
      route: '/api/v1/dialogue',
      statusCode: 201,
      projectId: project.projectId,
    });
    expect(rawLog).not.toContain(secret);
    expect(rawLog).not.toContain(project.apiKey);
  });

  it('name the error code of a refused request', async () => {
    await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'refused-1' } });
    const line = logLines.find((entry) => entry.reqId === 'refused-1' && entry.msg === 'request completed');
    expect(line).toMatchObject({ statusCode: 404, errorCode: 'RESOURCE_NOT_FOUND', route: 'unmatched' });
  });

  it('never carry the values of a failed query', async () => {
    const secret = 'secret-content-7f3a';
    const failure = await database.handle.db
      .execute(sql`SELECT ${secret}::int`)
      .catch((error: unknown) => error);
    const serialized = JSON.stringify(serializeError(failure));
    expect(serialized).toContain('Failed query: SELECT $1::int');
    expect(serialized).toContain('22P02');
    expect(serialized).not.toContain(secret);

    const unique = `secret-name-${Date.now()}`;
    await database.handle.db.execute(sql`INSERT INTO usage_counters VALUES (${unique}, '2026-01', 0, 1)`);
    const duplicate = await database.handle.db
      .execute(sql`INSERT INTO usage_counters VALUES (${unique}, '2026-01', 0, 1)`)
      .catch((error: unknown) => error);
    const logged = JSON.stringify(serializeError(duplicate));
    expect(logged).toContain('23505');
    expect(logged).not.toContain(unique);
  });
});

describe('/metrics with the embedding worker', () => {
  it('counts embeddings made and empties the queue gauges once they are done', async () => {
    const context = await createTestContext({ EMBEDDINGS: 'local' });
    try {
      const project = await createProject(context.app);
      const created = await context.app.inject({
        method: 'POST',
        url: '/api/v1/memory',
        headers: project.auth,
        payload: { value: 'The customer prefers tea to coffee', label: 'drinks' },
      });
      expect(created.statusCode).toBe(201);
      const samples = await eventually(
        async () => {
          const response = await context.app.inject({ method: 'GET', url: '/metrics' });
          const parsed = parseMetrics(response.body);
          return (parsed.get('parley_embeddings_total{object="memory"}') ?? 0) >= 1 && parsed;
        },
        { what: 'the memory embedded', timeoutMs: 60_000, intervalMs: 100 },
      );
      expect(samples.get('parley_embeddings_total{object="memory"}')).toBe(1);
      expect(samples.get('parley_embedding_queue_depth{state="all"}')).toBe(0);
    } finally {
      await context.close();
    }
  });
});
