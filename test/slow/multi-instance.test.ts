import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrationCount } from '../../src/db/migration-files.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { createServerDatabase, testServerUrl } from '../helpers/database.js';
import { type RunningServer, spawnServerProcess } from '../helpers/processes.js';

// D47-D49 with several instances: two server processes on one Postgres and one Redis. Migrations
// at a simultaneous start are applied once, the rate limit is shared, totalMessages stays exact
// under concurrent writes through both, and every embedding job is processed exactly once.
// Needs TEST_DATABASE_URL and a Redis at REDIS_URL (default redis://127.0.0.1:6379).

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

describe.runIf(testServerUrl())('two instances on one Postgres and one Redis', () => {
  let database: { url: string; drop(): Promise<void> };
  let sql: pg.Client;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    database = await createServerDatabase(testServerUrl()!);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      // A prefix of this run's own, so that no other run shares its counters.
      RATE_LIMIT_REDIS_PREFIX: `parley-test-${randomBytes(6).toString('hex')}:`,
      ADMIN_TOKEN,
      EMBEDDINGS: 'local',
      LOG_LEVEL: 'warn',
    };
    // Both start at once on an empty database: both try to migrate.
    [a, b] = await Promise.all([spawnServerProcess(env), spawnServerProcess(env)]);
    await Promise.all([a.ready(120_000), b.ready(120_000)]);
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await a?.stop('SIGKILL');
    await b?.stop('SIGKILL');
    await database?.drop();
  });

  const admin = (server: RunningServer, path: string, body: unknown) =>
    fetch(`${server.baseUrl}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as never }));

  async function newProject(settings: Record<string, unknown> = {}) {
    const created = await admin(a, '/projects', {
      name: `multi-${randomBytes(4).toString('hex')}`,
      settings,
    });
    expect(created.status).toBe(201);
    return (created.body as { apiKey: string }).apiKey;
  }

  const call = (server: RunningServer, key: string, method: string, path: string, body?: unknown) =>
    fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, json: (await response.json()) as never }));

  async function scrape(server: RunningServer): Promise<Map<string, number>> {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const samples = new Map<string, number>();
    for (const line of text.split('\n')) {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
      if (match) samples.set(match[1]!, Number(match[2]));
    }
    return samples;
  }

  it('applies the migrations once when both start at the same moment', async () => {
    const { rows } = await sql.query<{ hash: string; n: number }>(
      'SELECT hash, count(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash',
    );
    expect(rows).toHaveLength(readMigrationCount());
    expect(rows.every((row) => row.n === 1)).toBe(true);
    for (const server of [a, b]) {
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    }
  });

  it('shares one rate limit between the instances (Redis)', async () => {
    const key = await newProject({ rateLimit: { max: 10, windowSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      statuses.push((await call(i % 2 ? b : a, key, 'GET', '/dialogue')).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    const refused =
      (await scrape(a)).get('parley_rate_limit_refusals_total{code="RATE_LIMIT_EXCEEDED"}') ?? 0;
    const refusedB =
      (await scrape(b)).get('parley_rate_limit_refusals_total{code="RATE_LIMIT_EXCEEDED"}') ?? 0;
    expect(refused + refusedB).toBe(4);
  });

  it('keeps totalMessages exact under concurrent writes through both instances', async () => {
    const key = await newProject();
    const created = await call(a, key, 'POST', '/dialogue', {});
    expect(created.status).toBe(201);
    const dialogueId = (created.json as { id: string }).id;

    let acknowledged = 0;
    const writer = async (w: number) => {
      for (let n = 0; n < 12; n++) {
        const server = (w + n) % 2 ? b : a;
        const batch = n % 3 === 2;
        const response = batch
          ? await call(server, key, 'POST', '/messages', {
              dialogueId,
              messages: [
                { role: 'user', content: `w${w} n${n} first` },
                { role: 'assistant', content: [{ type: 'text', text: `w${w} n${n} second` }] },
              ],
            })
          : await call(server, key, 'POST', '/message', { dialogueId, role: 'user', content: `w${w} n${n}` });
        expect(response.status).toBe(201);
        acknowledged += batch ? 2 : 1;
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));

    for (const server of [a, b]) {
      const dialogue = await call(server, key, 'GET', `/dialogue/${dialogueId}`);
      expect((dialogue.json as { totalMessages: number }).totalMessages).toBe(acknowledged);
    }
    const { rows } = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM messages WHERE dialogue_id = $1',
      [dialogueId],
    );
    expect(rows[0]!.n).toBe(acknowledged);
  });

  it('processes every embedding job exactly once across both workers', async () => {
    const key = await newProject();
    const before = await Promise.all([a, b].map(scrape));
    const count = (samples: Map<string, number>[]) =>
      samples.reduce((sum, s) => sum + (s.get('parley_embeddings_total{object="memory"}') ?? 0), 0);

    const memories = 40;
    await Promise.all(
      Array.from({ length: memories }, (_, i) =>
        call(i % 2 ? b : a, key, 'POST', '/memory', {
          value: `Fact number ${i}: the customer likes item ${i}`,
        }),
      ),
    );
    const deadline = Date.now() + 240_000;
    for (;;) {
      const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM embedding_jobs');
      if (rows[0]!.n === 0) break;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.n} embedding jobs still queued`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const after = await Promise.all([a, b].map(scrape));
    // Each memory was embedded by exactly one of the two workers.
    expect(count(after) - count(before)).toBe(memories);
    const split = [0, 1].map((i) => count([after[i]!]) - count([before[i]!]));
    process.stdout.write(`embedding jobs per instance: ${split.join(' + ')} = ${memories}\n`);
    const { rows } = await sql.query<{ embedded: number }>(
      'SELECT count(*)::int AS embedded FROM memories WHERE embedding IS NOT NULL',
    );
    expect(rows[0]!.embedded).toBe(memories);
    for (const samples of after) {
      expect(samples.get('parley_embedding_queue_depth{state="all"}')).toBe(0);
      expect(samples.get('parley_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    }
  });
});
