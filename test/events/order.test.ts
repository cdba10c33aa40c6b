import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';

// D63: under concurrent writers on two instances (two apps, each with its own sequencer, on one
// database), a reader walking the feed never meets an event below a seq it has already read: at
// the end, the feed read from the start holds exactly the events the walk saw, in the same order.

interface FeedEvent {
  id: string;
  seq: number;
}

const WRITERS = 12;
const WRITES_EACH = 25;

let ctx: TestContext;
let second: FastifyInstance;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) return;
  // The walk reads as fast as it can: the per-key rate limit (D43) is not what is tested here.
  ctx = await createTestContext({ RATE_LIMIT_MAX: '1000000' });
  second = await buildApp({ config: ctx.config, database: ctx.database.handle, validateResponses: true });
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await ctx?.close();
});

// PostgreSQL only: the embedded database runs one statement at a time on one connection, where
// transactions cannot commit out of order in the first place.
describe.runIf(process.env.TEST_DATABASE_URL)('feed order under concurrent writers (D63)', () => {
  it('never shows a new event below a seq already read', { timeout: 60_000 }, async () => {
    const project = await createProject(ctx.app);
    const instances = [asProject(ctx.app, project), asProject(second, project)];
    const reader = instances[0]!;
    const dialogue = (await reader({ method: 'POST', url: '/api/v1/dialogue', payload: {} })).json() as {
      id: string;
    };

    let writing = true;
    const writers = Array.from({ length: WRITERS }, async (_, writer) => {
      const as = instances[writer % 2]!;
      for (let i = 0; i < WRITES_EACH; i++) {
        // Memories and messages: writes that lock nothing in common, and writes to one dialogue.
        const response =
          i % 3 === 0
            ? await as({
                method: 'POST',
                url: '/api/v1/messages',
                payload: {
                  dialogueId: dialogue.id,
                  messages: [
                    { role: 'user', content: `w${writer}-${i}-a` },
                    { role: 'user', content: `w${writer}-${i}-b` },
                  ],
                },
              })
            : await as({ method: 'POST', url: '/api/v1/memory', payload: { value: `w${writer}-${i}` } });
        expect(response.statusCode, response.body).toBe(201);
      }
    });
    const done = Promise.allSettled(writers).finally(() => {
      writing = false;
    });

    const walked: FeedEvent[] = [];
    let cursor = 0;
    let reads = 0;
    for (let quiet = 0; writing || quiet < 2; ) {
      const response = await reader({ method: 'GET', url: `/api/v1/events?after=${cursor}&limit=50` });
      expect(response.statusCode).toBe(200);
      const { items, next } = response.json() as { items: FeedEvent[]; next: number };
      reads++;
      for (const event of items) {
        expect(event.seq).toBeGreaterThan(cursor);
        cursor = event.seq;
        walked.push(event);
      }
      expect(next).toBe(cursor);
      quiet = writing ? 0 : items.length === 0 ? quiet + 1 : 0;
    }
    // A writer's failure fails the test here, after every writer stopped (none outlives the app).
    for (const outcome of await done) if (outcome.status === 'rejected') throw outcome.reason;

    const all: FeedEvent[] = [];
    for (let after = 0; ; ) {
      const { items, next } = (
        await reader({ method: 'GET', url: `/api/v1/events?after=${after}&limit=1000` })
      ).json() as { items: FeedEvent[]; next: number };
      if (items.length === 0) break;
      all.push(...items);
      after = next;
    }
    const expected = 1 + WRITERS * WRITES_EACH + WRITERS * Math.ceil(WRITES_EACH / 3);
    expect(all).toHaveLength(expected);
    expect(walked.map((event) => event.id)).toEqual(all.map((event) => event.id));
    expect(new Set(all.map((event) => event.seq)).size).toBe(expected);
    // The walk read while the writers wrote, not only at the end.
    expect(reads).toBeGreaterThan(3);
  });
});
