import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { pruneIntervalMs, startIdempotencyPruner } from '../../src/db/idempotency-pruner.js';
import { deleteExpiredResponses } from '../../src/db/idempotency-store.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { type Api, V1 } from '../helpers/dialogues.js';

// D75: stored idempotent responses live for IDEMPOTENCY_TTL_HOURS and are deleted in the
// background in small batches.

/** 0.0005 hours: 1.8 seconds. */
const TTL_HOURS = 0.0005;
const TTL_MS = TTL_HOURS * 3_600_000;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('IDEMPOTENCY_TTL_HOURS on a running app (D75)', () => {
  let ctx: TestContext;
  let api: Api;
  let projectId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ IDEMPOTENCY_TTL_HOURS: String(TTL_HOURS) });
    const project = await createProject(ctx.app);
    projectId = project.projectId;
    api = asProject(ctx.app, project);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const stored = async (key: string) =>
    rowsOf<{ n: number }>(
      await ctx.app.db.execute(
        sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE project_id = ${projectId} AND key = ${key}`,
      ),
    )[0]!.n;

  const createWithKey = (key: string) =>
    api({
      method: 'POST',
      url: `${V1}/dialogue`,
      headers: { 'idempotency-key': key },
      payload: { label: 'once' },
    });

  it('replays within the TTL, and runs the write again once the TTL is past', async () => {
    const started = Date.now();
    const first = await createWithKey('expiring');
    expect(first.statusCode, first.body).toBe(201);
    const replay = await createWithKey('expiring');
    // The machine may be slow: a replay is only expected while the TTL surely holds.
    if (Date.now() - started < TTL_MS / 2) {
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(first.body);
    }

    await sleep(TTL_MS + 200 - (Date.now() - started));
    const again = await createWithKey('expiring');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().id).not.toBe(first.json().id);
  });

  it('deletes expired records in the background, without any request', async () => {
    const response = await createWithKey('pruned');
    expect(response.statusCode, response.body).toBe(201);
    expect(await stored('pruned')).toBe(1);
    // The TTL (1.8 s) plus a pruning interval (1 s), and room for a busy machine.
    await until(async () => (await stored('pruned')) === 0, 'the pruner');
  });
});

describe('deleteExpiredResponses and the pruner', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.handle.db.execute(sql`
      INSERT INTO projects (id, name) VALUES ('prj_prune_a', 'a'), ('prj_prune_b', 'b'), ('prj_prune_c', 'c')`);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** `count` records per project, stored `ageHours` ago. */
  async function seed(prefix: string, count: number, ageHours: number) {
    await database.handle.db.execute(sql`
      INSERT INTO idempotency_keys (project_id, key, request_hash, status_code, response_body, created)
      SELECT p, ${prefix} || '-' || i, 'hash', 201, '{}', now() - make_interval(secs => ${ageHours * 3600})
      FROM unnest(ARRAY['prj_prune_a', 'prj_prune_b', 'prj_prune_c']) AS p, generate_series(1, ${count}::int) AS i`);
  }

  const count = async (prefix: string) =>
    rowsOf<{ n: number }>(
      await database.handle.db.execute(
        sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE key LIKE ${`${prefix}-%`}`,
      ),
    )[0]!.n;

  it('deletes at most one batch per call, across projects, and keeps live records', async () => {
    await seed('old', 400, 2);
    await seed('live', 50, 0.5);
    const batches: number[] = [];
    for (let deleted = -1; deleted !== 0; ) {
      deleted = await deleteExpiredResponses(database.handle.db, 1, 500);
      batches.push(deleted);
    }
    expect(batches).toEqual([500, 500, 200, 0]);
    expect(await count('old')).toBe(0);
    expect(await count('live')).toBe(150);
  });

  it('prunes at least once a minute, more often for a TTL under two minutes', () => {
    expect(pruneIntervalMs(24)).toBe(60_000);
    expect(pruneIntervalMs(1 / 60)).toBe(30_000);
    expect(pruneIntervalMs(TTL_HOURS)).toBe(1_000);
  });

  it('works through a backlog batch after batch, and stops cleanly', async () => {
    await seed('backlog', 700, 2);
    const pruner = startIdempotencyPruner({
      db: database.handle.db,
      ttlHours: 1,
      batchRows: 100,
      intervalMs: 50,
    });
    await until(async () => (await count('backlog')) === 0, 'the backlog');
    await pruner.stop();
    // Stopped: nothing is deleted any more.
    await seed('after-stop', 10, 2);
    await sleep(200);
    expect(await count('after-stop')).toBe(30);
    expect(await count('live')).toBe(150);
  });
});
