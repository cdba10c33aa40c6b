import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { testServerUrl } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { type OpenStream, type SseMessage, openEventStream } from '../helpers/event-stream.js';
import {
  type RunningServer,
  SPAWNING_TEST_TIMEOUT_MS,
  freshStoreEnv,
  spawnServerProcess,
} from '../helpers/processes.js';

// D66: a stream on one instance sees the writes made through another. Two real server
// processes (src/server.ts) on one fresh Postgres database: streams are read over HTTP on A, every
// write goes through B. PGlite is one process's database, so this runs with TEST_DATABASE_URL only.
//
// What can wake a stream on A: a NOTIFY from another instance's numbering, through A's LISTEN
// connection; or A numbering events itself (after its own writes, when a stream opens without a
// cursor, and in its upkeep sweep). Streams never poll. Here A writes nothing, every stream that
// starts without a cursor opens before the writes it waits for, and the sweep runs once at A's
// start and then only after EVENTS_SWEEP_INTERVAL_MS, set to a day: so every event that reaches
// an open stream after a write through B was woken by NOTIFY. (Turning A's wake-up on notification
// off makes both tests fail.)

/** A bound for a loaded 2-core machine, not a measure: D66's "1 s" is not asserted by tests. */
const WAIT_MS = 30_000;

interface StreamedEvent {
  id: string;
  seq: number;
  type: string;
  projectId: string;
  dialogueId: string | null;
  objectId: string;
  data: Record<string, unknown>;
}

const started: RunningServer[] = [];
let removeStore: (() => Promise<void>) | undefined;
let a: RunningServer;
let b: RunningServer;

/** A project and its key, created through A: B learns the key from the database. */
async function createProject(): Promise<{ authorization: string }> {
  const response = await fetch(`${a.baseUrl}/admin/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `stream-instances-${Math.random().toString(36).slice(2)}` }),
  });
  const body = await response.text();
  expect(response.status, body).toBe(201);
  return { authorization: `Bearer ${(JSON.parse(body) as { apiKey: string }).apiKey}` };
}

/** A call to the API of `server` with the project's key; fails the test on anything but 2xx. */
async function call<T = Record<string, unknown>>(
  server: RunningServer,
  auth: { authorization: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (text ? JSON.parse(text) : {}) as T;
}

/** The event a stream message carries, after checking that its id and event lines agree with it. */
function eventOf(message: SseMessage): StreamedEvent {
  const event = JSON.parse(message.data!) as StreamedEvent;
  expect([message.id, message.event]).toEqual([String(event.seq), event.type]);
  return event;
}

/** The next `count` events of `stream`, failing with `what` when they do not come in time. */
async function next(stream: OpenStream, count: number, what: string): Promise<StreamedEvent[]> {
  const messages = await stream.eventsUntil((_, index) => index === count - 1, WAIT_MS, what);
  return messages.map(eventOf);
}

/** The whole feed of the project, read through B. */
async function feedOf(auth: { authorization: string }): Promise<StreamedEvent[]> {
  return (await call<{ items: StreamedEvent[] }>(b, auth, 'GET', '/events?after=0&limit=1000')).items;
}

/** Each seq above the one before (in order, no duplicate), and each event id once. */
function expectOrderedOnce(events: StreamedEvent[]): void {
  const seqs = events.map((event) => event.seq);
  expect(
    seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!),
    `seqs in order: ${seqs.join(', ')}`,
  ).toBe(true);
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
}

const identity = (event: StreamedEvent) => [event.seq, event.id, event.type, event.objectId];

describe.runIf(testServerUrl())(
  'a stream on one instance, writes through another (D66: LISTEN/NOTIFY)',
  {
    timeout: SPAWNING_TEST_TIMEOUT_MS,
  },
  () => {
    beforeAll(async () => {
      const store = await freshStoreEnv('postgres');
      removeStore = store.remove;
      const env = {
        ...store.env,
        ADMIN_TOKEN,
        // Only NOTIFY may wake A's streams (see above): no sweep while the tests run.
        EVENTS_SWEEP_INTERVAL_MS: String(86_400_000),
        // Nothing here is delivered by webhook: less work for a shared machine.
        WEBHOOK_WORKER: 'false',
      };
      // Each kept for the cleanup as soon as it is spawned; both start (and migrate) at once.
      a = await spawnServerProcess(env);
      started.push(a);
      b = await spawnServerProcess(env);
      started.push(b);
      await Promise.all(started.map((server) => server.ready(120_000)));
    }, SPAWNING_TEST_TIMEOUT_MS);

    afterAll(async () => {
      // Each child by its own pid, then the database they shared.
      for (const server of started.splice(0)) await server.stop('SIGKILL');
      await removeStore?.();
    });

    it('receives every event of the writes made through B, in seq order, once, with their data', async () => {
      const auth = await createProject();
      const stream = await openEventStream(a.baseUrl, auth);
      onTestFinished(() => stream.close());
      expect(stream.status).toBe(200);
      const received: StreamedEvent[] = [];
      /** Waits for the events of one write on A's stream before the next write is made. */
      const expectOnA = async (types: string[], what: string) => {
        const events = await next(stream, types.length, `${what} (${types.join(', ')}) on A's stream`);
        expect(
          events.map((event) => event.type),
          what,
        ).toEqual(types);
        received.push(...events);
        return events;
      };

      const dialogue = await call<{ id: string; messages: { id: string }[] }>(b, auth, 'POST', '/dialogue', {
        label: 'across instances',
        tags: ['stream'],
        messages: [
          { role: 'user', content: 'written through B' },
          { role: 'assistant', content: 'read on A' },
        ],
      });
      const [created, first, second] = await expectOnA(
        ['dialogue.created', 'message.created', 'message.created'],
        'the dialogue and its messages',
      );
      expect(created).toMatchObject({
        dialogueId: dialogue.id,
        objectId: dialogue.id,
        data: { id: dialogue.id, label: 'across instances', tags: ['stream'], totalMessages: 2 },
      });
      expect(created!.data).not.toHaveProperty('messages');
      expect(
        [first, second].map((event) => [event!.objectId, event!.dialogueId, event!.data.content]),
      ).toEqual([
        [dialogue.messages[0]!.id, dialogue.id, 'written through B'],
        [dialogue.messages[1]!.id, dialogue.id, 'read on A'],
      ]);

      const message = await call<{ id: string }>(b, auth, 'POST', '/message', {
        dialogueId: dialogue.id,
        role: 'user',
        content: 'one more',
      });
      const [added] = await expectOnA(['message.created'], 'a message added');
      expect(added).toMatchObject({ objectId: message.id, data: { id: message.id, content: 'one more' } });

      await call(b, auth, 'PUT', `/dialogue/${dialogue.id}`, { label: 'renamed', tags: ['stream', 'b'] });
      const [updated] = await expectOnA(['dialogue.updated'], 'the dialogue updated');
      expect(updated).toMatchObject({
        objectId: dialogue.id,
        data: { label: 'renamed', tags: ['stream', 'b'], totalMessages: 3 },
      });

      const memory = await call<{ id: string }>(b, auth, 'POST', '/memory', { value: 'likes tea' });
      const [memoryCreated] = await expectOnA(['memory.created'], 'a memory');
      expect(memoryCreated).toMatchObject({
        objectId: memory.id,
        dialogueId: null,
        data: { id: memory.id, value: 'likes tea' },
      });

      await call(b, auth, 'PUT', `/memory/${memory.id}`, { value: 'likes coffee' });
      const [memoryUpdated] = await expectOnA(['memory.updated'], 'the memory updated');
      expect(memoryUpdated).toMatchObject({ objectId: memory.id, data: { value: 'likes coffee' } });

      await call(b, auth, 'DELETE', `/message/${message.id}?dialogueId=${dialogue.id}`);
      const [messageDeleted] = await expectOnA(['message.deleted'], 'the message deleted');
      expect(messageDeleted!.data).toEqual({ id: message.id, dialogueId: dialogue.id, deleted: true });

      await call(b, auth, 'DELETE', `/memory/${memory.id}`);
      const [memoryDeleted] = await expectOnA(['memory.deleted'], 'the memory deleted');
      expect(memoryDeleted!.data).toEqual({ id: memory.id, deleted: true });

      await call(b, auth, 'DELETE', `/dialogue/${dialogue.id}`);
      const [dialogueDeleted] = await expectOnA(['dialogue.deleted'], 'the dialogue deleted');
      expect(dialogueDeleted!.data).toEqual({ id: dialogue.id, deleted: true });

      // A last write: any duplicate or stray event would come before its event, in seq order.
      const last = await call<{ id: string }>(b, auth, 'POST', '/memory', { value: 'the last write' });
      const [lastEvent] = await expectOnA(['memory.created'], 'the last write');
      expect(lastEvent!.objectId).toBe(last.id);

      expectOrderedOnce(received);
      // Exactly the project's feed: nothing lost, nothing added.
      expect(received.map(identity)).toEqual((await feedOf(auth)).map(identity));
    });

    it('resumed with Last-Event-ID after each drop while B keeps writing, gets every event exactly once', async () => {
      const auth = await createProject();
      const total = 30;
      const received: StreamedEvent[] = [];
      let stream = await openEventStream(a.baseUrl, auth);
      onTestFinished(() => stream.close());

      // B writes memories one after another, all through the drops and reconnections below.
      let written = 0;
      let writeError: unknown;
      const writer = (async () => {
        for (let i = 0; i < total && writeError === undefined; i++) {
          await call(b, auth, 'POST', '/memory', { value: `m${i}` });
          written++;
        }
      })();
      writer.catch((error: unknown) => {
        writeError = error;
      });
      onTestFinished(() => {
        // A failure elsewhere stops the writer too.
        writeError ??= new Error('the test ended');
      });
      const waitForWrites = async (count: number, what: string) => {
        await eventually(() => writeError !== undefined || written >= count, {
          what: `B to write ${count} memories before ${what}`,
          timeoutMs: WAIT_MS,
        });
        // The writer's own failure, if that is what ended the wait.
        if (writeError !== undefined) await writer;
      };
      for (const drop of [1, 2]) {
        received.push(...(await next(stream, 5, `5 events before drop ${drop}`)));
        // The client goes away; B goes on writing, and a few events are committed while no stream is open.
        stream.close();
        await waitForWrites(Math.min(total, written + 3), `the reconnection after drop ${drop}`);
        stream = await openEventStream(a.baseUrl, auth, '', {
          'last-event-id': String(received.at(-1)!.seq),
        });
        expect(stream.status).toBe(200);
      }
      const lastWritten = `m${total - 1}`;
      received.push(
        ...(
          await stream.eventsUntil(
            (message) => (JSON.parse(message.data!) as StreamedEvent).data.value === lastWritten,
            WAIT_MS,
            `the event of ${lastWritten} after the last reconnection`,
          )
        ).map(eventOf),
      );
      await writer;
      // And after the resumed stream caught up, a write only a NOTIFY can bring to it.
      await call(b, auth, 'POST', '/memory', { value: 'after the catch-up' });
      received.push(...(await next(stream, 1, 'the write made after the catch-up')));

      expect(received.map((event) => event.data.value)).toEqual([
        ...Array.from({ length: total }, (_, i) => `m${i}`),
        'after the catch-up',
      ]);
      expect(received.every((event) => event.type === 'memory.created')).toBe(true);
      expectOrderedOnce(received);
      expect(received.map(identity)).toEqual((await feedOf(auth)).map(identity));
    });
  },
);
