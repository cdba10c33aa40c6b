import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { type Api, V1, createDialogue } from '../helpers/dialogues.js';

// D169: what no read shows (an expired memory or dialogue, the messages of an expired dialogue, a
// namespace being erased) is left out of the search's candidates, not dropped after the ranking:
// a page of `limit` results is full whenever enough visible rows match. Each case below puts the
// best match out of sight and asks for one result: the next best must come.

let ctx: TestContext;
let api: Api;

beforeAll(async () => {
  // The erasure worker waits an hour: the namespace stays in its pending erasure for the test.
  ctx = await createTestContext({ ERASURE_POLL_MS: '3600000' });
  api = asProject(ctx.app, await createProject(ctx.app));
});
afterAll(async () => {
  await ctx.close();
});

/** An instant already past: the object is expired from its creation on (D150). */
const PAST = '2020-01-01T00:00:00.000Z';

async function topId(body: Record<string, unknown>): Promise<string | undefined> {
  const response = await api({ method: 'POST', url: `${V1}/search`, payload: { ...body, limit: 1 } });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { results: { item: { id: string } }[] }).results[0]?.item.id;
}

async function memory(value: string, expiresAt?: string): Promise<string> {
  const response = await api({ method: 'POST', url: `${V1}/memory`, payload: { value, expiresAt } });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

describe('search candidates leave out what reads do not show (D169)', () => {
  it('an expired memory gives its place to the next best', async () => {
    await memory('walnut orchard walnut orchard harvest walnut', PAST);
    const visible = await memory('the walnut orchard');
    expect(await topId({ query: 'walnut orchard harvest', object: 'memory' })).toBe(visible);
  });

  it("an expired dialogue's messages give their place to another dialogue's", async () => {
    const expiring = await createDialogue(api, {
      messages: [{ role: 'user', content: 'lighthouse keeper lighthouse keeper storm lighthouse' }],
    });
    // Expired since a moment ago (a dialogue created expired would not be shown to its creator).
    await ctx.app.db.execute(
      sql`UPDATE dialogues SET expires_at = now() - interval '1 second' WHERE id = ${expiring.id}`,
    );
    const live = await createDialogue(api, {
      messages: [{ role: 'user', content: 'the lighthouse keeper' }],
    });
    const messageId = (live.messages as { id: string }[])[0]!.id;
    expect(await topId({ query: 'lighthouse keeper storm', object: 'message' })).toBe(messageId);
  });

  it('a namespace being erased gives its place to the rest of the project', async () => {
    await createDialogue(api, {
      namespace: 'leaving',
      label: 'glacier trek glacier trek crevasse glacier',
      messages: [{ role: 'user', content: 'glacier trek crevasse glacier' }],
    });
    const staying = await createDialogue(api, {
      namespace: 'staying',
      label: 'a glacier trek',
      messages: [{ role: 'user', content: 'a glacier trek' }],
    });
    const erased = await api({ method: 'DELETE', url: `${V1}/namespaces/leaving` });
    expect(erased.statusCode, erased.body).toBe(202);
    const messageId = (staying.messages as { id: string }[])[0]!.id;
    expect(await topId({ query: 'glacier trek crevasse', object: 'message' })).toBe(messageId);
    expect(await topId({ query: 'glacier trek crevasse', object: 'dialogue' })).toBe(staying.id);
  });
});
