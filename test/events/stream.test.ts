import { eventually } from '../helpers/eventually.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { deleteExpiredEvents } from '../../src/modules/events/repository.js';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { openEventStream } from '../helpers/event-stream.js';
import { listen } from '../helpers/mcp.js';

// D66: GET /events/stream over real HTTP: framing, start without a cursor, resume by
// Last-Event-ID and `after` with nothing lost or doubled, heartbeats, errors before the stream,
// no pooled connection held while idle, and streams ended by the server's close. The wake-up from
// another instance through LISTEN/NOTIFY: stream-instances.test.ts (two server processes).

/** The stream of `project` on the app at `baseUrl`. */
const openStream = (
  baseUrl: string,
  project: TestProject,
  query = '',
  headers: Record<string, string> = {},
) => openEventStream(baseUrl, project.auth, query, headers);

let ctx: TestContext;
let baseUrl: string;
beforeAll(async () => {
  ctx = await createTestContext({ EVENTS_HEARTBEAT_MS: '300' });
  baseUrl = await listen(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

async function writeMemory(project: TestProject, value: string): Promise<string> {
  const response = await asProject(
    ctx.app,
    project,
  )({ method: 'POST', url: '/api/v1/memory', payload: { value } });
  expect(response.statusCode).toBe(201);
  return (response.json() as { id: string }).id;
}

describe('GET /api/v1/events/stream (D66)', () => {
  it('starts with the next new event, each as id: seq, event: type, data: the event JSON', async () => {
    const project = await createProject(ctx.app);
    await writeMemory(project, 'before the stream');
    const stream = await openStream(baseUrl, project);
    onTestFinished(() => stream.close());
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('x-request-id')).toBeTruthy();
    const first = await writeMemory(project, 'after one');
    const second = await writeMemory(project, 'after two');
    const received = await stream.events(2);
    expect(received.map((message) => [message.id, message.event])).toEqual([
      ['2', 'memory.created'],
      ['3', 'memory.created'],
    ]);
    const events = received.map((message) => JSON.parse(message.data!) as Record<string, unknown>);
    expect(events.map((event) => event.objectId)).toEqual([first, second]);
    expect(events[0]).toMatchObject({ seq: 2, type: 'memory.created', data: { value: 'after one' } });
  });

  it('resumes after a dropped connection by Last-Event-ID, or by after, without loss or duplicates', async () => {
    const project = await createProject(ctx.app);
    for (const value of ['a', 'b', 'c']) await writeMemory(project, value);
    const first = await openStream(baseUrl, project, '?after=0');
    const got = await first.events(2);
    expect(got.map((message) => message.id)).toEqual(['1', '2']);
    first.close();
    for (const value of ['d', 'e']) await writeMemory(project, value);

    // A reconnecting EventSource sends the last id it saw; the header wins over the URL's `after`.
    const resumed = await openStream(baseUrl, project, '?after=0', { 'last-event-id': '2' });
    onTestFinished(() => resumed.close());
    expect((await resumed.events(3)).map((message) => message.id)).toEqual(['3', '4', '5']);
    await writeMemory(project, 'f');
    expect((await resumed.events(1)).map((message) => message.id)).toEqual(['6']);

    const byQuery = await openStream(baseUrl, project, '?after=4&type=memory.created');
    onTestFinished(() => byQuery.close());
    expect((await byQuery.events(2)).map((message) => message.id)).toEqual(['5', '6']);
  });

  it('applies the feed filters', async () => {
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const stream = await openStream(baseUrl, project, '?type=message.*&namespace=n1');
    onTestFinished(() => stream.close());
    await writeMemory(project, 'not a message');
    await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: { message: { role: 'user', content: 'no namespace' } },
    });
    await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: { namespace: 'n1', message: { role: 'user', content: 'kept' } },
    });
    const [message] = await stream.events(1);
    expect(message!.event).toBe('message.created');
    expect(JSON.parse(message!.data!)).toMatchObject({ namespace: 'n1', data: { content: 'kept' } });
  });

  it('sends a comment line as heartbeat while nothing happens', async () => {
    const stream = await openStream(baseUrl, await createProject(ctx.app));
    onTestFinished(() => stream.close());
    expect(await stream.comment(3_000)).toBe('heartbeat');
  });

  it('answers errors as JSON before any stream: 400, 401, 410', async () => {
    const project = await createProject(ctx.app);
    const bad = await fetch(`${baseUrl}/api/v1/events/stream`, {
      headers: { ...project.auth, 'last-event-id': 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_PARAMETER');
    const badType = await fetch(`${baseUrl}/api/v1/events/stream?type=nope`, { headers: project.auth });
    expect(badType.status).toBe(400);
    await badType.body?.cancel();
    const anonymous = await fetch(`${baseUrl}/api/v1/events/stream`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();

    const short = await createTestContext({ EVENTS_RETENTION_DAYS: String(1 / 86_400) });
    onTestFinished(() => short.close());
    const shortUrl = await listen(short.app);
    const old = await createProject(short.app);
    const as = asProject(short.app, old);
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'x' } });
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'y' } });
    await as({ method: 'GET', url: '/api/v1/events' });
    // The pruner with its clock two seconds ahead: both events are past their one second.
    await deleteExpiredEvents(short.app.db, 1 / 86_400, undefined, Date.now() + 2_000);
    const expired = await fetch(`${shortUrl}/api/v1/events/stream`, {
      headers: { ...old.auth, 'last-event-id': '1' },
    });
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { error: { code: string } }).error.code).toBe('EVENTS_EXPIRED');
  });

  it('holds no pooled connection while idle, and counts open streams in /metrics', async () => {
    // The earlier tests' clients have gone: the server closed their streams when it saw them go.
    await eventually(() => ctx.app.services.eventHub.size === 0, { what: 'the earlier streams to close' });
    const project = await createProject(ctx.app);
    const streams = await Promise.all([1, 2, 3].map(() => openStream(baseUrl, project)));
    onTestFinished(() => {
      for (const stream of streams) stream.close();
    });
    await writeMemory(project, 'wake them');
    for (const stream of streams) expect(await stream.events(1)).toHaveLength(1);
    // Every stream has its event: the reads that fed them hand their connections back.
    await eventually(
      () => {
        const pool = ctx.database.handle.poolStats();
        return pool.total - pool.idle === 0;
      },
      { what: 'every pooled connection idle' },
    );
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^parley_event_streams_open 3$/m);
    expect(metrics.body).toMatch(/^parley_events_written_total\{type="memory.created"\} \d+$/m);
  });

  it('ends open streams when the server closes, within the shutdown grace', async () => {
    const own = await createTestContext();
    const ownUrl = await listen(own.app);
    const project = await createProject(own.app);
    // Default heartbeat (15 s): the stream's headers come at once, not with its first byte.
    const stream = await openStream(ownUrl, project);
    expect(stream.status).toBe(200);
    // The close resolves only once the open stream let go of the server; the stream has ended
    // by then, well inside the grace a SIGTERM allows (no timing asserted: the wait is a bound).
    await own.close();
    await stream.ended(own.config.SHUTDOWN_GRACE_MS);
  });
});
