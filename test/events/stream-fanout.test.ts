import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { openEventStream } from '../helpers/event-stream.js';
import { listen } from '../helpers/mcp.js';

// D66 over real HTTP with many streams open: streams of one project share each read of new
// events (src/modules/events/fanout.ts), and each still gets every event it selects once and in
// order; a stream with more events waiting than EVENTS_STREAM_BACKLOG is closed with the reason
// `lagging` and resumes by Last-Event-ID without loss.

let ctx: TestContext;
let baseUrl: string;
/**
 * Listens with EVENTS_STREAM_BACKLOG at `backlog`: the sharing test needs room for a loaded
 * machine numbering all its writes at once (one read of nine events); the lagging test, a
 * backlog one batch of five messages overflows.
 */
function serving(backlog: number) {
  beforeAll(async () => {
    ctx = await createTestContext({ EVENTS_STREAM_BACKLOG: String(backlog) });
    baseUrl = await listen(ctx.app);
  });
  afterAll(async () => {
    await ctx.close();
  });
}

const writeMemories = async (project: TestProject, count: number) => {
  const as = asProject(ctx.app, project);
  for (let i = 0; i < count; i++) {
    const response = await as({ method: 'POST', url: '/api/v1/memory', payload: { value: `m${i}` } });
    expect(response.statusCode).toBe(201);
  }
};

describe('many event streams (D66)', () => {
  serving(100);

  it('hands every open stream each event it selects, once and in order', async () => {
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const dialogue = await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: { message: { role: 'user', content: 'start' } },
    });
    const dialogueId = (dialogue.json() as { id: string }).id;
    const queries = ['', '?type=memory.created', '?type=message.*', `?dialogueId=${dialogueId}`];
    const streams = await Promise.all(
      Array.from({ length: 24 }, (_, i) => openEventStream(baseUrl, project.auth, queries[i % 4])),
    );
    onTestFinished(() => {
      for (const stream of streams) stream.close();
    });
    expect(ctx.app.services.events.openStreams).toBe(24);

    // Writes that interleave: two memories, then one message, three times; one event each.
    for (let round = 0; round < 3; round++) {
      await writeMemories(project, 2);
      const sent = await as({
        method: 'POST',
        url: '/api/v1/message',
        payload: { dialogueId, role: 'user', content: `r${round}` },
      });
      expect(sent.statusCode).toBe(201);
    }
    const feed = (await as({ method: 'GET', url: '/api/v1/events?after=0' })).json() as {
      items: { seq: number; type: string; dialogueId: string | null }[];
    };
    const written = feed.items.slice(-9);
    const selects = [
      () => true,
      (event: (typeof written)[number]) => event.type === 'memory.created',
      (event: (typeof written)[number]) => event.type.startsWith('message.'),
      (event: (typeof written)[number]) => event.dialogueId === dialogueId,
    ];
    await Promise.all(
      streams.map(async (stream, i) => {
        const expected = written.filter(selects[i % 4]!).map((event) => String(event.seq));
        const got = await stream.events(expected.length, 15_000);
        expect(got.map((message) => message.id)).toEqual(expected);
      }),
    );
  });
});

describe('a stream that lags (D66)', () => {
  serving(3);

  it('closes a stream with more events waiting than its backlog, with a reason; it resumes by Last-Event-ID', async () => {
    const project = await createProject(ctx.app);
    const stream = await openEventStream(baseUrl, project.auth);
    onTestFinished(() => stream.close());
    // One write of five messages: five events numbered together arrive at once, more than the
    // backlog of 3 lets a stream have waiting.
    const as = asProject(ctx.app, project);
    const created = await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: { message: { role: 'user', content: 'opening' } },
    });
    const dialogueId = (created.json() as { id: string }).id;
    const got = await stream.events(2, 15_000);
    expect(got.map((message) => message.event)).toEqual(['dialogue.created', 'message.created']);
    const batch = await as({
      method: 'POST',
      url: '/api/v1/messages',
      payload: {
        dialogueId,
        messages: ['a', 'b', 'c', 'd', 'e'].map((content) => ({ role: 'user', content })),
      },
    });
    expect(batch.statusCode).toBe(201);

    const [closing] = await stream.events(1, 15_000);
    expect(closing!.event).toBe('stream.closed');
    expect(closing!.id).toBeUndefined();
    expect(JSON.parse(closing!.data!)).toMatchObject({ reason: 'lagging' });
    await stream.ended(15_000);

    // The client resumes after the last event it received: nothing is lost or doubled.
    const resumed = await openEventStream(baseUrl, project.auth, '', { 'last-event-id': got.at(-1)!.id! });
    onTestFinished(() => resumed.close());
    const feed = (await as({ method: 'GET', url: '/api/v1/events?after=0' })).json() as {
      items: { seq: number }[];
    };
    const afterLast = feed.items.filter((event) => event.seq > Number(got.at(-1)!.id));
    expect(afterLast.length).toBeGreaterThanOrEqual(5);
    const rest = await resumed.events(afterLast.length, 15_000);
    expect(rest.map((message) => message.id)).toEqual(afterLast.map((event) => String(event.seq)));
  });
});
