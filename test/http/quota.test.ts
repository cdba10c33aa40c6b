import { count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialogues } from '../../src/db/schema.js';
import {
  USAGE_SHARDS,
  createUsageService,
  nextMonthStart,
  shardShare,
} from '../../src/modules/usage/service.js';
import {
  ADMIN_TOKEN,
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';

const WRITE = '/api/v1/dialogue';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('quota shares', () => {
  it('add up to the quota', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (quota) => {
        let total = 0;
        for (let shard = 0; shard < USAGE_SHARDS; shard++) total += shardShare(quota, shard);
        expect(total).toBe(quota);
      }),
    );
  });

  it('turn over at the start of the next UTC month', () => {
    expect(nextMonthStart(new Date('2026-12-31T23:59:59.999Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
});

describe('plan quota (D44)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => ctx.close());

  const storedRows = async (project: TestProject) => {
    const [row] = await ctx.app.db
      .select({ n: count() })
      .from(dialogues)
      .where(eq(dialogues.projectId, project.projectId));
    return row!.n;
  };
  const usage = async (project: TestProject) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/admin/v1/projects/${project.projectId}/usage`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as {
      writes: number;
      monthlyWriteQuota: number | null;
      remaining: number | null;
      month: string;
      resetsAt: string;
    };
  };
  const setQuota = (project: TestProject, monthlyWriteQuota: number | null) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/admin/v1/projects/${project.projectId}`,
      headers: admin,
      payload: { settings: { monthlyWriteQuota } },
    });

  it('lets exactly 3 of 20 concurrent writers through a quota of 3; reads keep working', async () => {
    const project = await createProject(ctx.app, { monthlyWriteQuota: 3 });
    const call = asProject(ctx.app, project);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call({ method: 'POST', url: WRITE, payload: {} })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
    const refused = responses.find((response) => response.statusCode === 429)!;
    const error = expectError(refused, 429, 'PLAN_LIMIT_EXCEEDED');
    expect(error.type).toBe('rate_limit_exceeded');
    // Retry-After: until the month turns (UTC).
    const untilNextMonth = (nextMonthStart(new Date()).getTime() - Date.now()) / 1000;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(untilNextMonth - 60);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(Math.ceil(untilNextMonth) + 1);
    expect(await storedRows(project)).toBe(3);
    expect(await usage(project)).toMatchObject({ writes: 3, monthlyWriteQuota: 3, remaining: 0 });
    expect((await call({ method: 'GET', url: WRITE })).statusCode).toBe(200);
  });

  it('holds under more writers than shards, with a quota above the shard count', async () => {
    const project = await createProject(ctx.app, { monthlyWriteQuota: 37 });
    const call = asProject(ctx.app, project);
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => call({ method: 'POST', url: WRITE, payload: {} })),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(37);
    expect(await storedRows(project)).toBe(37);
    expect((await usage(project)).writes).toBe(37);
  });

  it('does not count a write that fails, nor an idempotent replay', async () => {
    const project = await createProject(ctx.app, { monthlyWriteQuota: 1 });
    const call = asProject(ctx.app, project);
    // The guard counts inside the write's transaction; the write then fails and all rolls back.
    const failed = await call({
      method: 'POST',
      url: '/api/v1/message',
      payload: { dialogueId: 'dlg_missing', role: 'user', content: 'hello' },
    });
    expectError(failed, 404, 'DIALOGUE_NOT_FOUND');
    expect((await usage(project)).writes).toBe(0);
    const first = await call({
      method: 'POST',
      url: WRITE,
      payload: {},
      headers: { 'idempotency-key': 'k1' },
    });
    expect(first.statusCode).toBe(201);
    const replay = await call({
      method: 'POST',
      url: WRITE,
      payload: {},
      headers: { 'idempotency-key': 'k1' },
    });
    expect(replay.statusCode).toBe(201);
    expect(replay.body).toBe(first.body);
    expect((await usage(project)).writes).toBe(1);
    expectError(await call({ method: 'POST', url: WRITE, payload: {} }), 429, 'PLAN_LIMIT_EXCEEDED');
  });

  it('counts writes without a quota, and follows a quota that is lowered or raised', async () => {
    const project = await createProject(ctx.app);
    const call = asProject(ctx.app, project);
    await Promise.all(Array.from({ length: 24 }, () => call({ method: 'POST', url: WRITE, payload: {} })));
    expect(await usage(project)).toMatchObject({ writes: 24, monthlyWriteQuota: null, remaining: null });

    await setQuota(project, 20);
    expectError(await call({ method: 'POST', url: WRITE, payload: {} }), 429, 'PLAN_LIMIT_EXCEEDED');
    expect(await usage(project)).toMatchObject({ writes: 24, remaining: 0 });

    await setQuota(project, 30);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => call({ method: 'POST', url: WRITE, payload: {} })),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(6);
    expect(await usage(project)).toMatchObject({ writes: 30, remaining: 0 });

    await setQuota(project, null);
    expect((await call({ method: 'POST', url: WRITE, payload: {} })).statusCode).toBe(201);
  });

  it('refuses every write with a quota of 0', async () => {
    const call = asProject(ctx.app, await createProject(ctx.app, { monthlyWriteQuota: 0 }));
    expectError(await call({ method: 'POST', url: WRITE, payload: {} }), 429, 'PLAN_LIMIT_EXCEEDED');
  });

  it('counts each UTC month on its own', async () => {
    const project = await createProject(ctx.app, { monthlyWriteQuota: 1 });
    const service = createUsageService({ db: ctx.app.db });
    const november = new Date('2026-11-30T23:59:59Z');
    const december = new Date('2026-12-01T00:00:00Z');
    await ctx.app.db.transaction((tx) => service.countWrite(tx, project.projectId, 1, november));
    await expect(
      ctx.app.db.transaction((tx) => service.countWrite(tx, project.projectId, 1, november)),
    ).rejects.toMatchObject({ code: 'PLAN_LIMIT_EXCEEDED', retryAfterSeconds: 1 });
    await ctx.app.db.transaction((tx) => service.countWrite(tx, project.projectId, 1, december));
    expect(await service.currentUsage(project.projectId, 1, december)).toMatchObject({
      month: '2026-12',
      writes: 1,
      resetsAt: '2027-01-01T00:00:00.000Z',
    });
  });

  it('answers the usage of an unknown project with 404, and only to the admin token', async () => {
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/admin/v1/projects/prj_nope/usage',
      headers: admin,
    });
    expectError(missing, 404, 'PROJECT_NOT_FOUND');
    const project = await createProject(ctx.app);
    const asKey = await asProject(
      ctx.app,
      project,
    )({ method: 'GET', url: `/admin/v1/projects/${project.projectId}/usage` });
    expectError(asKey, 401, 'UNAUTHORIZED');
  });
});
