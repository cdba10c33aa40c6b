import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { deleteExpiredEvents } from '../../src/modules/events/repository.js';
import { eventually } from '../helpers/eventually.js';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';

// D65: GET /events: filters, the cursor, the limit, isolation, and 410 EVENTS_EXPIRED once pruned.

interface FeedEvent {
  seq: number;
  type: string;
  dialogueId: string | null;
  namespace: string | null;
  objectId: string;
}
interface Feed {
  items: FeedEvent[];
  next: number;
}

/** Retention of about a second (fractions of a day are allowed for this, D65). */
const RETENTION_DAYS = 1 / 86_400;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/v1/events (D65)', () => {
  it('filters by type (repeatable, with prefixes), dialogue and namespace; pages with next', async () => {
    const as = asProject(ctx.app, await createProject(ctx.app));
    const one = (
      await as({
        method: 'POST',
        url: '/api/v1/dialogue',
        payload: {
          namespace: 'n1',
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: 'b' },
          ],
        },
      })
    ).json() as { id: string };
    const two = (
      await as({
        method: 'POST',
        url: '/api/v1/dialogue',
        payload: { message: { role: 'user', content: 'c' } },
      })
    ).json() as { id: string };
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'v', namespace: 'n1' } });
    const get = async (query: string): Promise<Feed> => {
      const response = await as({ method: 'GET', url: `/api/v1/events${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Feed;
    };
    const types = (feed: Feed) => feed.items.map((event) => event.type);

    expect(types(await get(''))).toEqual([
      'dialogue.created',
      'message.created',
      'message.created',
      'dialogue.created',
      'message.created',
      'memory.created',
    ]);
    expect(types(await get('?type=message.*'))).toEqual([
      'message.created',
      'message.created',
      'message.created',
    ]);
    expect(types(await get('?type=memory.created&type=dialogue.created'))).toEqual([
      'dialogue.created',
      'dialogue.created',
      'memory.created',
    ]);
    expect((await get(`?dialogueId=${two.id}`)).items.map((event) => event.dialogueId)).toEqual([
      two.id,
      two.id,
    ]);
    expect(types(await get('?namespace=n1'))).toEqual([
      'dialogue.created',
      'message.created',
      'message.created',
      'memory.created',
    ]);
    expect((await get(`?dialogueId=${one.id}&type=message.created`)).items).toHaveLength(2);

    // Pages: `next` is the last seq returned, then the given `after` once nothing is newer.
    const first = await get('?limit=4');
    expect(first.items.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(first.next).toBe(4);
    const second = await get(`?after=${first.next}&limit=4`);
    expect(second.items.map((event) => event.seq)).toEqual([5, 6]);
    const empty = await get(`?after=${second.next}`);
    expect(empty).toEqual({ items: [], next: 6 });
  });

  it("shows only the key's own project", async () => {
    const a = asProject(ctx.app, await createProject(ctx.app));
    const b = asProject(ctx.app, await createProject(ctx.app));
    await a({ method: 'POST', url: '/api/v1/memory', payload: { value: 'only a' } });
    const feed = (await b({ method: 'GET', url: '/api/v1/events' })).json() as Feed;
    expect(feed.items).toEqual([]);
    expect((await b({ method: 'GET', url: '/api/v1/events?after=0' })).statusCode).toBe(200);
  });

  it('refuses bad parameters with 400 and a missing key with 401', async () => {
    const as = asProject(ctx.app, await createProject(ctx.app));
    for (const query of [
      '?type=message',
      '?type=nope.*',
      '?limit=1001',
      '?limit=0',
      '?after=-1',
      '?after=x',
      '?cursor=1',
    ]) {
      const response = await as({ method: 'GET', url: `/api/v1/events${query}` });
      expect(response.statusCode, query).toBe(400);
    }
    expectError(await ctx.app.inject({ method: 'GET', url: '/api/v1/events' }), 401, 'UNAUTHORIZED');
  });

  it('answers 410 EVENTS_EXPIRED from before the oldest kept event; after=0 reads from it', async () => {
    const short = await createTestContext({ EVENTS_RETENTION_DAYS: String(RETENTION_DAYS) });
    onTestFinished(() => short.close());
    const as = asProject(short.app, await createProject(short.app));
    for (const value of ['one', 'two', 'three'])
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value } });
    expect(((await as({ method: 'GET', url: '/api/v1/events' })).json() as Feed).items).toHaveLength(3);
    // Events are aged by their ids' time: the fourth is written once the clock has moved on.
    const afterThree = Date.now();
    await eventually(() => Date.now() > afterThree, { what: 'the clock to pass the third event' });
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'four' } });
    await as({ method: 'GET', url: '/api/v1/events' });
    // The pruner of the upkeep loop, run here with its clock one retention period past the third
    // event: the first three have expired, the fourth has not.
    await deleteExpiredEvents(
      short.app.db,
      RETENTION_DAYS,
      undefined,
      afterThree + 1 + RETENTION_DAYS * 86_400_000,
    );

    const expired = expectError(
      await as({ method: 'GET', url: '/api/v1/events?after=1' }),
      410,
      'EVENTS_EXPIRED',
    );
    expect(expired.type).toBe('not_found');
    expect(expired.message).toContain('the oldest kept seq is 4');
    expect(expired.details).toEqual([
      { field: 'after', code: 'EVENTS_EXPIRED', message: 'the oldest kept seq is 4' },
    ]);
    for (const query of ['?after=0', '', '?after=3']) {
      const feed = (await as({ method: 'GET', url: `/api/v1/events${query}` })).json() as Feed;
      expect(
        feed.items.map((event) => event.seq),
        query,
      ).toEqual([4]);
    }
  });
});
