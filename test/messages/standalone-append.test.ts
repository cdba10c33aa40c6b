import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, messages, usageCounters } from '../../src/db/schema.js';
import { USAGE_SHARDS } from '../../src/modules/usage/service.js';
import {
  ADMIN_TOKEN,
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { testServerIsCitus } from '../helpers/database.js';
import { callError, callOk, connectMcp, listen } from '../helpers/mcp.js';

// D174: a message append without an Idempotency-Key is one statement run outside a transaction,
// its write counted (D44) by that statement, up to a quota's common case; anything it cannot
// settle (a refusing dialogue, a taken id, a full shard or spent quota, a key) runs in the
// transaction, and the statement's attempt leaves nothing behind.

const statements: string[] = [];
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { queryLogger: { logQuery: (query) => statements.push(query) } });
});
afterAll(() => ctx.close());

const countsWrites = (query: string) => /usage_counters/i.test(query) && !/^\s*select/i.test(query);
const appends = (query: string) => /insert into messages/i.test(query);

/** The statements that counted a write while `request` ran. */
async function countingStatements<T>(request: () => Promise<T>): Promise<{ result: T; counted: string[] }> {
  statements.length = 0;
  const result = await request();
  return { result, counted: statements.filter(countsWrites) };
}

async function fixture(settings: Record<string, unknown> = {}) {
  const project = await createProject(ctx.app, settings);
  const as = asProject(ctx.app, project);
  const created = await as({ method: 'POST', url: '/api/v1/dialogue', payload: {} });
  expect(created.statusCode, created.body).toBe(201);
  return { project, as, dialogueId: (created.json() as { id: string }).id };
}

async function usageWrites(project: TestProject): Promise<number> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/admin/v1/projects/${project.projectId}/usage`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { writes: number }).writes;
}

/** What a write may change: the project's messages, its events, its count of writes, the dialogue. */
async function state(project: TestProject, as: ReturnType<typeof asProject>, dialogueId: string) {
  const [stored] = await ctx.app.db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.projectId, project.projectId), eq(messages.dialogueId, dialogueId)));
  const [recorded] = await ctx.app.db
    .select({ n: count() })
    .from(events)
    .where(eq(events.projectId, project.projectId));
  const dialogue = await as({ method: 'GET', url: `/api/v1/dialogue/${dialogueId}` });
  const { totalMessages, modified } = dialogue.json() as { totalMessages: number; modified: string };
  return {
    messages: stored!.n,
    events: recorded!.n,
    writes: await usageWrites(project),
    totalMessages,
    modified,
  };
}

const message = (dialogueId: string, fields: Record<string, unknown> = {}) => ({
  method: 'POST' as const,
  url: '/api/v1/message',
  payload: { dialogueId, role: 'user', content: 'hello', ...fields },
});

describe('a message append as one statement (D174)', () => {
  it('counts the write of a project without a quota in the append statement itself', async () => {
    // On Citus the append is several routed statements in a transaction (docs/scaling.md).
    const standalone = !(await testServerIsCitus());
    const { project, as, dialogueId } = await fixture();
    const single = await countingStatements(() => as(message(dialogueId)));
    expect(single.result.statusCode, single.result.body).toBe(201);
    expect(single.counted).toHaveLength(1);
    expect(appends(single.counted[0]!)).toBe(standalone);

    const batch = await countingStatements(() =>
      as({
        method: 'POST',
        url: '/api/v1/messages',
        payload: { dialogueId, messages: [1, 2, 3].map((n) => ({ role: 'user', content: `m${n}` })) },
      }),
    );
    expect(batch.result.statusCode, batch.result.body).toBe(201);
    expect(batch.counted).toHaveLength(1);
    expect(appends(batch.counted[0]!)).toBe(standalone);
    expect(await state(project, as, dialogueId)).toMatchObject({ messages: 4, writes: 3, totalMessages: 4 });
  });

  it('counts the write of a project with a quota in the append statement, while its shard has room', async () => {
    const standalone = !(await testServerIsCitus());
    const { project, as, dialogueId } = await fixture({ monthlyWriteQuota: 1000 });
    // Every shard row of the month in place, each far below its share of 62 or 63 (the month's
    // first writes create them, in the transaction).
    const month = new Date().toISOString().slice(0, 7);
    await ctx.app.db
      .insert(usageCounters)
      .values(
        Array.from({ length: USAGE_SHARDS }, (_, shard) => ({ projectId: project.projectId, month, shard })),
      )
      .onConflictDoNothing();
    const written = await countingStatements(() => as(message(dialogueId)));
    expect(written.result.statusCode, written.result.body).toBe(201);
    expect(written.counted).toHaveLength(1);
    expect(appends(written.counted[0]!)).toBe(standalone);
    expect(await usageWrites(project)).toBe(2);
  });

  it('lets exactly the quota through concurrent appends, some racing for one id', async () => {
    const { project, as, dialogueId } = await fixture({ monthlyWriteQuota: 25 });
    // 1 write so far (the dialogue); 24 left for forty appends, five of them with one id.
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => as(message(dialogueId, i % 8 === 0 ? { id: 'msg_raced' } : {}))),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(24);
    expect(statuses.every((status) => [201, 409, 429].includes(status))).toBe(true);
    expect(await state(project, as, dialogueId)).toMatchObject({
      messages: 24,
      writes: 25,
      totalMessages: 24,
    });
    expectError(await as(message(dialogueId)), 429, 'PLAN_LIMIT_EXCEEDED');
  });

  it('counts the write in its transaction with an Idempotency-Key, or a quota of 0 refuses it', async () => {
    const free = await fixture();
    const keyed = await countingStatements(() =>
      free.as({ ...message(free.dialogueId), headers: { 'idempotency-key': 'one' } }),
    );
    expect(keyed.result.statusCode).toBe(201);
    expect(keyed.counted.length).toBeGreaterThan(0);
    expect(keyed.counted.some(appends)).toBe(false);
    expect(await usageWrites(free.project)).toBe(2);

    const closed = await createProject(ctx.app, { monthlyWriteQuota: 0 });
    expectError(await asProject(ctx.app, closed)(message('dlg_any')), 429, 'PLAN_LIMIT_EXCEEDED');
  });

  it('writes in one statement with no write guard at all (the quota bench measures that floor)', async () => {
    const { project, as, dialogueId } = await fixture();
    const guards = ctx.app.writeGuards.splice(0);
    try {
      const written = await countingStatements(() => as(message(dialogueId)));
      expect(written.result.statusCode, written.result.body).toBe(201);
      expect(written.counted).toEqual([]);
    } finally {
      ctx.app.writeGuards.push(...guards);
    }
    expect(await state(project, as, dialogueId)).toMatchObject({ messages: 1, writes: 1, totalMessages: 1 });
  });

  it('changes nothing when an id is taken, and names it as the transaction does', async () => {
    const { project, as, dialogueId } = await fixture();
    expect((await as(message(dialogueId, { id: 'msg_taken' }))).statusCode).toBe(201);
    const before = await state(project, as, dialogueId);

    const again = expectError(await as(message(dialogueId, { id: 'msg_taken' })), 409, 'DUPLICATE_ID');
    expect(again.details).toEqual([
      { field: 'id', code: 'DUPLICATE_ID', message: 'id msg_taken already exists' },
    ]);
    const batch = expectError(
      await as({
        method: 'POST',
        url: '/api/v1/messages',
        payload: {
          dialogueId,
          messages: [
            { role: 'user', content: 'new' },
            { id: 'msg_taken', role: 'user', content: 'taken' },
            { role: 'user', content: 'new too' },
          ],
        },
      }),
      409,
      'DUPLICATE_ID',
    );
    expect(batch.details).toEqual([
      { field: 'messages[1].id', code: 'DUPLICATE_ID', message: 'id msg_taken already exists' },
    ]);
    const bare = await as({
      method: 'POST',
      url: `/api/v1/messages?dialogueId=${dialogueId}`,
      payload: [{ id: 'msg_taken', role: 'user', content: 'taken' }],
    });
    expect(expectError(bare, 409, 'DUPLICATE_ID').details?.[0]?.field).toBe('[0].id');
    expect(await state(project, as, dialogueId)).toEqual(before);
  });

  it("takes MCP's add_messages too, which names a taken id as REST does", async () => {
    const standalone = !(await testServerIsCitus());
    const { project, as, dialogueId } = await fixture();
    const client = await connectMcp(await listen(ctx.app), project.apiKey);
    try {
      const added = await countingStatements(() =>
        callOk(client, 'add_messages', {
          dialogueId,
          messages: [{ id: 'msg_mcp', role: 'user', content: 'hi' }],
        }),
      );
      expect(added.result).toMatchObject({ totalMessages: 1 });
      expect(added.counted).toHaveLength(1);
      expect(appends(added.counted[0]!)).toBe(standalone);
      const before = await state(project, as, dialogueId);
      const taken = await callError(
        client,
        'add_messages',
        { dialogueId, messages: [{ id: 'msg_mcp', role: 'user', content: 'again' }] },
        'DUPLICATE_ID',
      );
      expect(taken.details?.[0]?.field).toBe('messages[0].id');
      expect(await state(project, as, dialogueId)).toEqual(before);
    } finally {
      await client.close();
    }
  });

  it('changes nothing when the dialogue refuses the messages, and names why', async () => {
    const { project, as, dialogueId } = await fixture();
    expect((await as(message(dialogueId))).statusCode).toBe(201);
    expectError(await as(message('dlg_missing')), 404, 'DIALOGUE_NOT_FOUND');
    expectError(await as(message(dialogueId, { namespace: 'elsewhere' })), 404, 'DIALOGUE_NOT_FOUND');
    const ended = await as({ method: 'PUT', url: `/api/v1/dialogue/${dialogueId}/end` });
    expect(ended.statusCode, ended.body).toBe(200);
    const before = await state(project, as, dialogueId);
    expectError(await as(message(dialogueId)), 409, 'DIALOGUE_ENDED');
    expect(await state(project, as, dialogueId)).toEqual(before);
  });

  it('counts exactly the writes that happened, among concurrent writers racing for one id', async () => {
    const { project, as, dialogueId } = await fixture();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => as(message(dialogueId, i % 3 === 0 ? { id: 'msg_raced' } : {}))),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(21);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect(await state(project, as, dialogueId)).toMatchObject({
      messages: 21,
      writes: 22,
      totalMessages: 21,
    });
  });
});
