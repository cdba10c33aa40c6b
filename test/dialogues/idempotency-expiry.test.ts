import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { pruneIntervalMs, startIdempotencyPruner } from '../../src/db/idempotency-pruner.js';
import { deleteExpiredResponses } from '../../src/db/idempotency-store.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { type Api, V1 } from '../helpers/dialogues.js';
import { eventually } from '../helpers/eventually.js';

// D75: stored idempotent responses live for IDEMPOTENCY_TTL_HOURS and are deleted in the
// background in small batches.

/** 0.0005 hours: 1.8 seconds. */
const TTL_HOURS = 0.0005;
const TTL_MS = TTL_HOURS * 3_600_000;

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

    // Past the TTL on both clocks the store reads: the database's (a replay looks up with now())
    // and this process's (an overwrite compares with Date.now()). The pruner may already have
    // deleted the record, which is expired all the same.
    await eventually(
      async () => {
        const [record] = rowsOf<{ expired: boolean; createdMs: number }>(
          await ctx.app.db.execute(
            sql`SELECT created < now() - make_interval(secs => ${TTL_MS / 1000}) AS expired,
                       (extract(epoch FROM created) * 1000)::float8 AS "createdMs"
                FROM idempotency_keys WHERE project_id = ${projectId} AND key = 'expiring'`,
          ),
        );
        return record === undefined || (record.expired && Date.now() - record.createdMs > TTL_MS);
      },
      { what: 'the stored response to expire', intervalMs: 50 },
    );
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
    await eventually(async () => (await stored('pruned')) === 0, { what: 'the pruner' });
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
    await eventually(async () => (await count('backlog')) === 0, { what: 'the backlog' });
    await pruner.stop();
    // stop() resolves once the loop has ended: nothing is deleted any more.
    await seed('after-stop', 10, 2);
    expect(await count('after-stop')).toBe(30);
    expect(await count('live')).toBe(150);
  });

  it('ages records by its own clock', async () => {
    await seed('fresh', 5, 0);
    // Its clock two hours ahead: records stored just now are past a one-hour TTL.
    const pruner = startIdempotencyPruner({
      db: database.handle.db,
      ttlHours: 1,
      intervalMs: 50,
      now: () => Date.now() + 2 * 3_600_000,
    });
    try {
      await eventually(async () => (await count('fresh')) === 0, { what: 'the fresh records to be pruned' });
      // The live records are half an hour old: two hours on, they have expired too.
      expect(await count('live')).toBe(0);
    } finally {
      await pruner.stop();
    }
  });
});
