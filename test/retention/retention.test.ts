import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DAY_MS } from '../../src/core/iso-date.js';
import { createRetentionService } from '../../src/modules/retention/service.js';
import type { Services } from '../../src/services.js';
import {
  ADMIN_TOKEN,
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { untilClockPasses } from '../helpers/clock.js';
import { dataDump } from '../helpers/data-dump.js';
import { type Api, V1 } from '../helpers/dialogues.js';

// D151-D154: retention policies delete through the same erasure as a client's delete; the preview
// says beforehand what the sweep then deletes; instances sweeping together erase each object once.

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const marker = () => `zq${randomBytes(6).toString('hex')}keep`;
const OLD = '2020-01-02T03:04:05.000Z';
const OLDER = '2020-01-01T00:00:00.000Z';

let ctx: TestContext;
beforeAll(async () => {
  // The server's own sweeper stays out of the way: these tests run sweeps with a clock of their own.
  ctx = await createTestContext({ RETENTION_SWEEP_INTERVAL_MS: '86400000' });
});
afterAll(() => ctx.close());

async function ok(api: Api, options: Parameters<Api>[0], status = 200) {
  const response = await api(options);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as Record<string, unknown> & { id: string };
}

const patchSettings = (projectId: string, settings: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'PATCH',
    url: `/admin/v1/projects/${projectId}`,
    headers: admin,
    payload: { settings },
  });

/** A retention service of `services` whose clock reads `at`: ages are measured from there. */
const sweeperAt = (services: Services, at: number, onErased?: (count: number) => void) =>
  createRetentionService({
    db: ctx.database.handle.db,
    projects: services.projects,
    dialogues: services.dialogues,
    messages: services.messages,
    memories: services.memories,
    sequencer: services.eventSequencer,
    onErased: (_object, _reason, count) => onErased?.(count),
    now: () => at,
  });

interface Event {
  type: string;
  objectId: string;
  data: { reason?: string; deleted?: boolean };
}
const deletions = async (api: Api): Promise<Event[]> =>
  ((await ok(api, { method: 'GET', url: `${V1}/events?limit=1000` })).items as Event[]).filter((event) =>
    event.type.endsWith('.deleted'),
  );

/**
 * Objects on both sides of a moment `mid`: old ones (messages dated 2020, dialogues and memories
 * last changed before `mid`) and new ones after it, in the project, in namespace `keep` (which
 * has its own empty policy) and in `short` (only a message rule).
 */
async function plant(api: Api, secret: string) {
  const say = (text: string) => `${text} ${secret}`;
  const active = await ok(
    api,
    {
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: {
        messages: [
          { role: 'user', content: say('old one'), created: OLDER },
          { role: 'assistant', content: say('old two'), created: OLD },
        ],
      },
    },
    201,
  );
  const idle = await ok(
    api,
    {
      method: 'POST',
      url: `${V1}/dialogue`,
      headers: { 'idempotency-key': `k-${randomBytes(8).toString('hex')}` },
      payload: { label: say('idle'), messages: [{ role: 'user', content: say('idle msg'), created: OLD }] },
    },
    201,
  );
  const oldMemory = await ok(
    api,
    { method: 'POST', url: `${V1}/memory`, payload: { value: say('stale') } },
    201,
  );
  const keepDialogue = await ok(
    api,
    {
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { namespace: 'keep', messages: [{ role: 'user', content: 'kept', created: OLD }] },
    },
    201,
  );
  const keepMemory = await ok(
    api,
    { method: 'POST', url: `${V1}/memory`, payload: { namespace: 'keep', value: 'kept' } },
    201,
  );
  const short = await ok(
    api,
    {
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { namespace: 'short', messages: [{ role: 'user', content: say('short old'), created: OLD }] },
    },
    201,
  );
  await untilClockPasses(String(short.modified));
  const mid = Date.now();
  await untilClockPasses(mid);
  // After `mid`: the active dialogue and `short` take a new message each; a new memory.
  const fresh = { role: 'user', content: 'fresh' };
  await ok(api, { method: 'POST', url: `${V1}/message`, payload: { dialogueId: active.id, ...fresh } }, 201);
  await ok(
    api,
    { method: 'POST', url: `${V1}/message`, payload: { dialogueId: short.id, namespace: 'short', ...fresh } },
    201,
  );
  const newMemory = await ok(api, { method: 'POST', url: `${V1}/memory`, payload: { value: 'new' } }, 201);
  return { active, idle, oldMemory, keepDialogue, keepMemory, short, newMemory, mid };
}

const POLICY = {
  messageDays: 10,
  idleDialogueDays: 10,
  memoryDays: 10,
  namespaces: { keep: {}, short: { messageDays: 10 } },
};

describe('retention policies (D151)', () => {
  it('deletes by each rule, a namespace policy wins, and the preview said so beforehand', async () => {
    const project = await createProject(ctx.app);
    const api = asProject(ctx.app, project);
    const secret = marker();
    const planted = await plant(api, secret);
    expect((await patchSettings(project.projectId, { retention: POLICY })).statusCode).toBe(200);
    // Ten days after `mid`: what was last changed before `mid` is older than the rules.
    const sweeper = sweeperAt(ctx.app.services, planted.mid + 10 * DAY_MS);

    const preview = await sweeper.preview(project.projectId);
    const rule = (object: string, namespace: string | null) =>
      preview.rules.find((r) => r.object === object && r.namespace === namespace && r.reason === 'retention');
    expect(rule('dialogue', null)).toMatchObject({ count: 1, days: 10, measuredBy: 'modified' });
    expect(rule('dialogue', null)?.oldest).toBe(planted.idle.modified);
    // The idle dialogue's message goes with it and is not counted again.
    expect(rule('message', null)).toMatchObject({ count: 2, oldest: OLDER, newest: OLD });
    expect(rule('memory', null)).toMatchObject({ count: 1, oldest: planted.oldMemory.modified });
    expect(rule('message', 'short')).toMatchObject({ count: 1, oldest: OLD, newest: OLD });
    expect(rule('dialogue', 'short')).toBeUndefined();
    expect(preview.rules.filter((r) => r.namespace === 'keep')).toEqual([]);
    expect(preview.total).toEqual({ messages: 3, dialogues: 1, memories: 1 });

    // The check can fail: before the sweep the marker is in the data.
    expect(await dataDump(ctx.database)).toContain(secret);
    expect(await sweeper.sweepProject(project.projectId)).toBe(5);
    expect((await sweeper.preview(project.projectId)).total).toEqual({
      messages: 0,
      dialogues: 0,
      memories: 0,
    });

    const deleted = await deletions(api);
    expect(deleted.map((event) => [event.type, event.data.reason]).sort()).toEqual([
      ['dialogue.deleted', 'retention'],
      ['memory.deleted', 'retention'],
      ['message.deleted', 'retention'],
      ['message.deleted', 'retention'],
      ['message.deleted', 'retention'],
    ]);
    expect((await api({ method: 'GET', url: `${V1}/dialogue/${planted.idle.id}` })).statusCode).toBe(404);
    expect((await api({ method: 'GET', url: `${V1}/memory/${planted.oldMemory.id}` })).statusCode).toBe(404);
    const active = await ok(api, { method: 'GET', url: `${V1}/dialogue/${planted.active.id}` });
    expect(active.totalMessages).toBe(1);
    const short = await ok(api, { method: 'GET', url: `${V1}/dialogue/${planted.short.id}?namespace=short` });
    expect(short.totalMessages).toBe(1);
    // `keep` has its own policy, with no rule: nothing of it goes.
    const kept = await ok(api, { method: 'GET', url: `${V1}/dialogue/${planted.keepDialogue.id}` });
    expect(kept.totalMessages).toBe(1);
    await ok(api, { method: 'GET', url: `${V1}/memory/${planted.keepMemory.id}` });
    await ok(api, { method: 'GET', url: `${V1}/memory/${planted.newMemory.id}` });

    // D73: no byte of the deleted content is left, stored idempotent answers included.
    const left = (await dataDump(ctx.database)).split('\n').filter((line) => line.includes(secret));
    expect(left).toEqual([]);
  });

  it('two instances sweeping together erase each object once', async () => {
    const project = await createProject(ctx.app);
    const api = asProject(ctx.app, project);
    const planted = await plant(api, marker());
    expect((await patchSettings(project.projectId, { retention: POLICY })).statusCode).toBe(200);
    // A second app on the same database: another instance with its own services.
    const other = await buildApp({
      config: ctx.config,
      database: ctx.database.handle,
      validateResponses: true,
    });
    await other.ready();
    try {
      let erased = 0;
      const count = (n: number) => {
        erased += n;
      };
      const at = planted.mid + 10 * DAY_MS;
      const totals = await Promise.all([
        sweeperAt(ctx.app.services, at, count).sweepProject(project.projectId),
        sweeperAt(other.services, at, count).sweepProject(project.projectId),
        sweeperAt(ctx.app.services, at, count).sweepProject(project.projectId),
      ]);
      expect(totals.reduce((a, b) => a + b, 0)).toBe(5);
      expect(erased).toBe(5);
      const deleted = await deletions(api);
      expect(deleted).toHaveLength(5);
      expect(new Set(deleted.map((event) => event.objectId)).size).toBe(5);
    } finally {
      await other.close();
    }
  });

  it('counts what the server sweeper erased in parley_retention_erased_total', async () => {
    const project = await createProject(ctx.app);
    const api = asProject(ctx.app, project);
    const memory = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/memory`,
        payload: { value: 'soon gone', expiresAt: new Date(Date.now() + 50).toISOString() },
      },
      201,
    );
    await untilClockPasses(String(memory.expiresAt));
    expect(await ctx.app.services.retention.sweepProject(project.projectId)).toBe(1);
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/parley_retention_erased_total\{object="memory",reason="expired"\} [1-9]/);
  });
});

describe('the retention setting (D151)', () => {
  it('is merged rule by rule: null removes a rule, a namespace or the whole policy', async () => {
    const { projectId } = await createProject(ctx.app, { retention: { messageDays: 30, memoryDays: 0.5 } });
    const settingsAfter = async (retention: unknown) => {
      const response = await patchSettings(projectId, { retention });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { settings: { retention?: unknown } }).settings.retention;
    };
    expect(await settingsAfter({ idleDialogueDays: 7, namespaces: { a: { memoryDays: 1 }, b: {} } })).toEqual(
      {
        messageDays: 30,
        memoryDays: 0.5,
        idleDialogueDays: 7,
        namespaces: { a: { memoryDays: 1 }, b: {} },
      },
    );
    expect(await settingsAfter({ memoryDays: null, namespaces: { a: null, b: { messageDays: 2 } } })).toEqual(
      {
        messageDays: 30,
        idleDialogueDays: 7,
        namespaces: { b: { messageDays: 2 } },
      },
    );
    expect(await settingsAfter(null)).toBeUndefined();
  });

  it('refuses bad input with the error envelope and changes nothing', async () => {
    const { projectId } = await createProject(ctx.app, { retention: { messageDays: 30 } });
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`ns${i}`, {}]));
    for (const retention of [
      { messageDays: 0 },
      { messageDays: -1 },
      { messageDays: '7' },
      { messageDays: 36_501 },
      { keepDays: 3 },
      { namespaces: { a: { messageDays: 1, other: 1 } } },
      { namespaces: { '': {} } },
      { namespaces: tooMany },
    ]) {
      const response = await patchSettings(projectId, { retention });
      expect(response.statusCode, JSON.stringify(retention)).toBe(400);
      expect((response.json() as { error: { type: string } }).error.type).toBe('validation_error');
    }
    const project = await ctx.app.inject({
      method: 'GET',
      url: `/admin/v1/projects/${projectId}`,
      headers: admin,
    });
    expect((project.json() as { settings: unknown }).settings).toEqual({ retention: { messageDays: 30 } });
  });

  it('previews the stored policy or a proposed one through the admin API', async () => {
    const project = await createProject(ctx.app, { retention: { messageDays: 10 } });
    const api = asProject(ctx.app, project);
    await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        payload: { messages: [{ role: 'user', content: 'old', created: OLD }] },
      },
      201,
    );
    const url = `/admin/v1/projects/${project.projectId}/retention/preview`;
    const stored = await ctx.app.inject({ method: 'GET', url, headers: admin });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toMatchObject({
      projectId: project.projectId,
      policy: { messageDays: 10 },
      total: { messages: 1, dialogues: 0, memories: 0 },
    });
    const proposed = await ctx.app.inject({
      method: 'POST',
      url,
      headers: admin,
      payload: { retention: { memoryDays: 1, messageDays: null } },
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    expect(proposed.json()).toMatchObject({ policy: { memoryDays: 1 }, total: { messages: 0 } });
    // Nothing was stored by the preview.
    expect((await ctx.app.inject({ method: 'GET', url, headers: admin })).json()).toMatchObject({
      policy: { messageDays: 10 },
    });

    expectError(
      await ctx.app.inject({
        method: 'POST',
        url,
        headers: admin,
        payload: { retention: { messageDays: 0 } },
      }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await ctx.app.inject({ method: 'POST', url, headers: admin, payload: {} }),
      400,
      'MISSING_PARAMETER',
    );
    expectError(
      await ctx.app.inject({
        method: 'GET',
        url: '/admin/v1/projects/prj_missing/retention/preview',
        headers: admin,
      }),
      404,
      'PROJECT_NOT_FOUND',
    );
    expectError(await ctx.app.inject({ method: 'GET', url }), 401, 'UNAUTHORIZED');
  });
});
