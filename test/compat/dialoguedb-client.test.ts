import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialogueDbError, DialogueDbTransport } from '../helpers/dialoguedb-client.js';
import {
  type RunningServer,
  SPAWNING_TEST_TIMEOUT_MS,
  freshStoreEnv,
  startServerProcess,
} from '../helpers/processes.js';
import { selfSignedCertificate } from '../helpers/tls.js';

// D62: the DialogueDB Node client, reproduced by its transport (test/helpers/dialoguedb-client.ts),
// against a real Parley process over TLS. Every call of the table in dialoguedb-compat.md, then a
// session in the order a client application makes them, then the error cases the client relies on.
// On PostgreSQL when TEST_DATABASE_URL is set (a fresh database), on PGlite otherwise.

const API_KEY = 'compat-client-key-0123456789abcdef';
const NS = 'user-42';
const dir = mkdtempSync(join(tmpdir(), 'parley-compat-'));
let server: RunningServer;
let removeStore: () => Promise<void>;
let client: DialogueDbTransport;

type Json = Record<string, unknown>;
interface Page {
  items: Json[];
  next?: string | null;
}
interface Message extends Json {
  id: string;
  role: string;
  tags: string[];
}
interface Dialogue extends Json {
  id: string;
  tags: string[];
  messages: Message[];
}

const call = <T = Json>(...args: Parameters<DialogueDbTransport['request']>) => client.request<T>(...args);

/** What the client checks of a dialogue it reads back. */
function expectDialogue(value: Json): asserts value is Dialogue {
  expect(typeof value.id).toBe('string');
  expect(Array.isArray(value.tags)).toBe(true);
  for (const tag of value.tags as unknown[]) expect(typeof tag).toBe('string');
  for (const message of (value.messages as Json[] | undefined) ?? []) expectMessage(message);
}

function expectMessage(value: Json): asserts value is Message {
  expect(typeof value.id).toBe('string');
  expect(typeof value.role).toBe('string');
  expect(Array.isArray(value.tags)).toBe(true);
}

/** A 2xx body the client reads: JSON (the transport parsed it) and not empty. */
function expectNonEmpty(value: unknown) {
  expect(value).not.toBeNull();
  expect(typeof value).toBe('object');
  expect(Object.keys(value as object).length).toBeGreaterThan(0);
}

/** Every item of a list, following `next` as the client does; also counts the pages. */
async function walk(path: string, query: Record<string, string | number | undefined>) {
  const items: Json[] = [];
  let next: string | undefined;
  let pages = 0;
  do {
    const page = await call<Page>('GET', path, { query: { ...query, next } });
    expect(Array.isArray(page.items)).toBe(true);
    items.push(...page.items);
    next = page.next ?? undefined;
    pages++;
  } while (next);
  return { items, pages };
}

async function rejection(promise: Promise<unknown>): Promise<DialogueDbError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DialogueDbError);
  return error as DialogueDbError;
}

beforeAll(async () => {
  const tls = selfSignedCertificate(dir);
  const store = await freshStoreEnv();
  removeStore = store.remove;
  server = await startServerProcess({
    ...store.env,
    BOOTSTRAP_API_KEY: API_KEY,
    TLS_CERT_FILE: tls.certFile,
    TLS_KEY_FILE: tls.keyFile,
  });
  // The client is pointed at Parley by its endpoint alone; `localhost` matches the certificate.
  client = new DialogueDbTransport({
    endpoint: `https://localhost:${new URL(server.baseUrl).port}`,
    apiKey: API_KEY,
    ca: tls.cert,
    retryDelaysMs: [100, 200, 400],
  });
}, SPAWNING_TEST_TIMEOUT_MS);

afterAll(async () => {
  client?.close();
  await server?.stop('SIGKILL');
  await removeStore?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('the transport (D60, D52)', () => {
  it('speaks HTTPS with keep-alive, the lower-case authorization and no Content-Type', async () => {
    const created = await call<Dialogue>('POST', 'dialogue', {
      body: { message: { role: 'user', content: 'hi' } },
    });
    expectDialogue(created);
    // Keep-alive: the next call reuses the agent's socket.
    await call('GET', `dialogue/${created.id}`);
    expect(Object.values(client.agent.freeSockets).flat().length).toBeGreaterThan(0);
    expect(client.sent.at(-1)).toEqual({ method: 'GET', path: `/api/v1/dialogue/${created.id}` });
  });
});

describe('every call of the table', () => {
  let dialogue: Dialogue;

  it('create dialogue with messages, with message, and with a client id and created', async () => {
    dialogue = await call<Dialogue>('POST', 'dialogue', {
      body: {
        namespace: NS,
        label: 'Support chat',
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: 'My order #1234 is late', tags: ['order'] },
        ],
        state: { step: 1, topic: 'order' },
        metadata: { channel: 'web' },
        tags: ['support'],
      },
    });
    expectDialogue(dialogue);
    expect(dialogue.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(dialogue).toMatchObject({ namespace: NS, label: 'Support chat', tags: ['support'] });

    const single = await call<Dialogue>('POST', 'dialogue', {
      body: { namespace: NS, message: { role: 'user', content: 'one message' } },
    });
    expectDialogue(single);
    expect(single.messages).toHaveLength(1);

    const given = await call<Dialogue>('POST', 'dialogue', {
      body: {
        id: 'dlg-client-given-1',
        created: '2024-03-05T10:00:00.000Z',
        namespace: NS,
        messages: [{ role: 'user', content: 'from history' }],
      },
    });
    expectDialogue(given);
    expect(given.id).toBe('dlg-client-given-1');
    expect(given.created).toBe('2024-03-05T10:00:00.000Z');
    expect(given.messages[0]!.created).toBe('2024-03-05T10:00:00.000Z');
  });

  it('get dialogue', async () => {
    const read = await call<Dialogue>('GET', `dialogue/${dialogue.id}`, { query: { namespace: NS } });
    expectDialogue(read);
    expect(read).toMatchObject({ id: dialogue.id, state: { step: 1, topic: 'order' } });
  });

  it('update dialogue with its id in the body and the whole state, merged by the client', async () => {
    const state = { ...(dialogue.state as Json), step: 2, topic: null };
    const updated = await call<Dialogue>('PUT', `dialogue/${dialogue.id}`, {
      query: { namespace: NS },
      body: { id: dialogue.id, namespace: NS, state, tags: ['support', 'escalated'], label: 'Escalated' },
    });
    expectDialogue(updated);
    expect(updated.state).toEqual({ step: 2 });
    expect(updated).toMatchObject({ tags: ['support', 'escalated'], label: 'Escalated' });
    expect(typeof updated.modified).toBe('string');
  });

  it('list dialogues with next, created, startDate/endDate and threadOf', async () => {
    const all = await walk('dialogue', { limit: 1, order: 'asc', namespace: NS });
    expect(all.pages).toBeGreaterThanOrEqual(3);
    expect(all.items.map((d) => d.id)).toContain(dialogue.id);
    for (const item of all.items) expectDialogue(item);

    const onDay = await call<Page>('GET', 'dialogue', { query: { namespace: NS, created: '2024-03-05' } });
    expect(onDay.items.map((d) => d.id)).toEqual(['dlg-client-given-1']);
    const inRange = await call<Page>('GET', 'dialogue', {
      query: { namespace: NS, startDate: '2024-03-05T09:00:00Z', endDate: '2024-03-05T10:00:00.000Z' },
    });
    expect(inRange.items.map((d) => d.id)).toEqual(['dlg-client-given-1']);

    const thread = await call<Dialogue>('POST', 'dialogue', {
      body: { namespace: NS, threadOf: dialogue.id, message: { role: 'user', content: 'a side question' } },
    });
    expectDialogue(thread);
    const threads = await call<Page>('GET', 'dialogue', { query: { namespace: NS, threadOf: dialogue.id } });
    expect(threads.items.map((d) => d.id)).toEqual([thread.id]);
  });

  it('add message, in the body form and the older query form', async () => {
    const added = await call<Message>('POST', 'message', {
      body: {
        dialogueId: dialogue.id,
        namespace: NS,
        id: 'msg-client-1',
        role: 'assistant',
        content: 'Let me check.',
        name: 'agent',
        tags: ['reply'],
        metadata: { confidence: 0.9 },
        created: '2030-01-01T00:00:00.000Z',
      },
    });
    expectMessage(added);
    expect(added).toMatchObject({ id: 'msg-client-1', name: 'agent', metadata: { confidence: 0.9 } });

    const older = await call<Message>('POST', 'message', {
      query: { dialogueId: dialogue.id, namespace: NS },
      body: { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    });
    expectMessage(older);
    expect(older.content).toEqual([{ type: 'text', text: 'thanks' }]);
  });

  it('add messages: a bare array in, a bare array out', async () => {
    const stored = await call<Message[]>('POST', 'messages', {
      query: { dialogueId: dialogue.id, namespace: NS },
      body: [
        { role: 'assistant', content: 'Found it.', id: 'msg-batch-1' },
        { role: 'user', content: 'Great', tags: ['happy'] },
      ],
    });
    expect(Array.isArray(stored)).toBe(true);
    expect(stored).toHaveLength(2);
    for (const message of stored) expectMessage(message);
    expect(stored[0]!.id).toBe('msg-batch-1');
  });

  it('list messages, paging with next, and with created and startDate/endDate', async () => {
    const all = await walk('messages', { dialogueId: dialogue.id, namespace: NS, limit: 2, order: 'asc' });
    expect(all.pages).toBe(3);
    expect(all.items.map((m) => m.content)).toEqual([
      'You are helpful.',
      'My order #1234 is late',
      [{ type: 'text', text: 'thanks' }],
      'Found it.',
      'Great',
      'Let me check.',
    ]);
    const onDay = await call<Page>('GET', 'messages', {
      query: { dialogueId: dialogue.id, namespace: NS, created: '2030-01-01' },
    });
    expect(onDay.items.map((m) => m.id)).toEqual(['msg-client-1']);
    const inRange = await call<Page>('GET', 'messages', {
      query: { dialogueId: dialogue.id, namespace: NS, startDate: '2029-12-31', endDate: '2030-01-01' },
    });
    expect(inRange.items.map((m) => m.id)).toEqual(['msg-client-1']);
  });

  it('get, update the tags of and delete a message', async () => {
    const query = { dialogueId: dialogue.id, namespace: NS };
    const read = await call<Message>('GET', 'message/msg-batch-1', { query });
    expectMessage(read);
    const tagged = await call<Message>('PUT', 'message/msg-batch-1', { query, body: { tags: ['resolved'] } });
    expectMessage(tagged);
    expect(tagged.tags).toEqual(['resolved']);
    const deleted = await call('DELETE', 'message/msg-batch-1', { query });
    expectNonEmpty(deleted);
    const gone = await rejection(call('GET', 'message/msg-batch-1', { query }));
    expect(gone.isNotFound).toBe(true);
  });

  it('summarize: POST /summary answers the summary object', async () => {
    const summary = await call<Json>('POST', 'summary', { body: { dialogueId: dialogue.id, namespace: NS } });
    expect(summary).toMatchObject({ dialogueId: dialogue.id, status: 'completed', namespace: NS });
    for (const field of [
      'id',
      'projectId',
      'content',
      'contentTokenCount',
      'provider',
      'model',
      'template',
      'fromCreated',
      'toCreated',
      'messageCount',
      'summarizedCount',
      'skippedCount',
      'metadata',
      'tags',
      'created',
      'modified',
    ])
      expect(summary).toHaveProperty(field);
    expect(typeof summary.content).toBe('string');
    expect(summary.messageCount).toBe(5);
  });

  it('end dialogue with POST {} and with the older PUT without a body', async () => {
    const ended = await call<Dialogue>('POST', `dialogue/${dialogue.id}/end`, {
      query: { namespace: NS },
      body: {},
    });
    expectDialogue(ended);
    expect(ended.status).toBe('ended');
    const other = await call<Dialogue>('POST', 'dialogue', {
      body: { message: { role: 'user', content: 'x' } },
    });
    const endedByPut = await call<Dialogue>('PUT', `dialogue/${other.id}/end`);
    expect(endedByPut).toMatchObject({ id: other.id, status: 'ended' });
  });

  it('create memory with each type of value, a description and a client id', async () => {
    const values: unknown[] = ['prefers email', 42, true, { tz: 'Europe/Oslo', vip: true }, ['a', 1]];
    const topics = ['contact', 'age', 'loyalty', 'timezone', 'devices'];
    for (const [i, value] of values.entries()) {
      const memory = await call<Json>('POST', 'memory', {
        body: {
          value,
          id: `mem-${i}`,
          namespace: NS,
          label: `fact ${i}`,
          description: `the customer's ${topics[i]}`,
          tags: ['profile'],
          metadata: { source: 'onboarding' },
        },
      });
      expect(typeof memory.id).toBe('string');
      expect(memory).toMatchObject({ id: `mem-${i}`, value, description: `the customer's ${topics[i]}` });
    }
  });

  it('get, list, update and delete a memory', async () => {
    const read = await call<Json>('GET', 'memory/mem-3', { query: { namespace: NS } });
    expect(read.value).toEqual({ tz: 'Europe/Oslo', vip: true });
    const all = await walk('memory', { namespace: NS, limit: 2, order: 'asc' });
    expect(all.items.map((m) => m.id)).toEqual(['mem-0', 'mem-1', 'mem-2', 'mem-3', 'mem-4']);
    const today = new Date().toISOString().slice(0, 10);
    const onDay = await call<Page>('GET', 'memory', { query: { namespace: NS, created: today } });
    expect(onDay.items).toHaveLength(5);
    const inRange = await call<Page>('GET', 'memory', {
      query: { namespace: NS, startDate: '2000-01-01', endDate: '2000-12-31' },
    });
    expect(inRange.items).toEqual([]);
    const updated = await call<Json>('PUT', 'memory/mem-1', {
      query: { namespace: NS },
      body: { tags: ['number'] },
    });
    expect(updated.tags).toEqual(['number']);
    expect(typeof updated.modified).toBe('string');
    expectNonEmpty(await call('DELETE', 'memory/mem-1', { query: { namespace: NS } }));
    expect((await rejection(call('GET', 'memory/mem-1', { query: { namespace: NS } }))).isNotFound).toBe(
      true,
    );
  });

  it('search each object with tags, filter, metadata and orderBy', async () => {
    const messages = await call<{ results: Json[]; request: Json }>('POST', 'search', {
      body: {
        query: 'order late',
        object: 'message',
        namespace: NS,
        tags: { $in: ['order'] },
        filter: { created: { gte: '2020-01-01T00:00:00Z' } },
        timezone: 'Europe/Oslo',
        orderBy: 'created',
        order: 'asc',
      },
    });
    expect(messages.results.length).toBeGreaterThan(0);
    for (const result of messages.results) {
      expect(result.object).toBe('message');
      expect(typeof result.relevance).toBe('number');
      expect((result.item as Json).tags).toContain('order');
    }
    expect(messages.request).toMatchObject({
      orderBy: 'created',
      order: 'asc',
      candidateOrderBy: 'relevance',
    });

    const dialogues = await call<{ results: Json[] }>('POST', 'search', {
      body: { query: 'order late', object: 'dialogue', tags: ['support'], metadata: { channel: 'web' } },
    });
    expect(dialogues.results.map((r) => (r.item as Json).id)).toEqual([dialogue.id]);
    expect(dialogues.results[0]!.object).toBe('dialogue');
    expect(Array.isArray(dialogues.results[0]!.matches)).toBe(true);

    const memories = await call<{ results: Json[] }>('POST', 'search', {
      body: {
        query: 'timezone',
        object: 'memory',
        namespace: NS,
        tags: ['profile'],
        metadata: { source: { $in: ['onboarding'] } },
        orderBy: 'modified',
      },
    });
    expect(memories.results.map((r) => (r.item as Json).id)).toEqual(['mem-3']);
    expect(memories.results[0]!.object).toBe('memory');
  });

  it('delete dialogue', async () => {
    expectNonEmpty(await call('DELETE', `dialogue/${dialogue.id}`, { query: { namespace: NS } }));
    const gone = await rejection(call('GET', `dialogue/${dialogue.id}`, { query: { namespace: NS } }));
    expect(gone.isNotFound).toBe(true);
  });
});

describe('a session in the order a client application calls', () => {
  it('creates, appends, pages, threads, summarizes, ends, remembers, searches and deletes', async () => {
    const ns = 'session-user';
    const chat = await call<Dialogue>('POST', 'dialogue', {
      body: {
        namespace: ns,
        label: 'Trip planning',
        tags: ['travel'],
        messages: [
          { role: 'system', content: 'You plan trips.' },
          { role: 'user', content: 'I want to visit Lisbon in May' },
        ],
      },
    });
    expectDialogue(chat);
    const query = { dialogueId: chat.id, namespace: ns };
    expectMessage(
      await call<Message>('POST', 'message', {
        body: { ...query, role: 'assistant', content: 'Lisbon in May is warm. How many days?' },
      }),
    );
    const batch = await call<Message[]>('POST', 'messages', {
      query,
      body: Array.from({ length: 7 }, (_, i) => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `turn ${i}: ${i % 2 === 0 ? 'what about the tram' : 'tram 28 crosses the old town'}`,
      })),
    });
    expect(batch).toHaveLength(7);

    const paged = await walk('messages', { ...query, limit: 4 });
    expect(paged.pages).toBe(3);
    expect(paged.items).toHaveLength(10);
    expect(paged.items.slice(-7).map((m) => m.id)).toEqual(batch.map((m) => m.id));

    // The client merges state itself and sends all of it.
    const current = await call<Dialogue>('GET', `dialogue/${chat.id}`, { query: { namespace: ns } });
    const withState = await call<Dialogue>('PUT', `dialogue/${chat.id}`, {
      query: { namespace: ns },
      body: { id: chat.id, state: { ...(current.state as Json), city: 'Lisbon', days: 4 } },
    });
    expect(withState.state).toEqual({ city: 'Lisbon', days: 4 });

    const thread = await call<Dialogue>('POST', 'dialogue', {
      body: {
        namespace: ns,
        threadOf: chat.id,
        messages: [{ role: 'user', content: 'Hotel near the tram?' }],
      },
    });
    expect(thread.threadOf).toBe(chat.id);

    const summary = await call<Json>('POST', 'summary', { body: { dialogueId: chat.id, namespace: ns } });
    expect(summary).toMatchObject({ status: 'completed', messageCount: 10 });
    expect(await call('GET', `summary/${summary.id}`, { query: { namespace: ns } })).toMatchObject({
      id: summary.id,
    });

    expect(
      await call('POST', `dialogue/${chat.id}/end`, { query: { namespace: ns }, body: {} }),
    ).toMatchObject({
      status: 'ended',
    });

    const memory = await call<Json>('POST', 'memory', {
      body: {
        namespace: ns,
        value: { city: 'Lisbon', month: 'May' },
        description: 'travel wish',
        tags: ['travel'],
      },
    });
    expect(typeof memory.id).toBe('string');

    for (const object of ['message', 'dialogue', 'memory'] as const) {
      const found = await call<{ results: Json[] }>('POST', 'search', {
        body: { query: object === 'memory' ? 'travel wish' : 'tram', object, namespace: ns, limit: 5 },
      });
      expect(found.results.length, object).toBeGreaterThan(0);
      for (const result of found.results) expect(result.object).toBe(object);
    }

    expectNonEmpty(await call('DELETE', `dialogue/${thread.id}`, { query: { namespace: ns } }));
    expectNonEmpty(await call('DELETE', `dialogue/${chat.id}`, { query: { namespace: ns } }));
    expectNonEmpty(await call('DELETE', `memory/${memory.id}`, { query: { namespace: ns } }));
    expect((await call<Page>('GET', 'dialogue', { query: { namespace: ns } })).items).toEqual([]);
  });
});

describe('the errors the client reads', () => {
  it('answers every 404 with type not_found, and the fields the client reads', async () => {
    const misses = [
      () => call('GET', 'dialogue/no-such-dialogue'),
      () => call('GET', 'memory/no-such-memory'),
      () => call('GET', 'summary/no-such-summary'),
      () => call('POST', 'message', { body: { dialogueId: 'no-such-dialogue', role: 'user', content: 'x' } }),
    ];
    // One at a time: a rejection left waiting would be unhandled.
    for (const miss of misses) {
      const error = await rejection(miss());
      expect(error.status).toBe(404);
      expect(error.type).toBe('not_found');
      expect(error.isNotFound).toBe(true);
      expect(error.code).toMatch(/_NOT_FOUND$/);
      expect(typeof error.requestId).toBe('string');
      expect(error.message).not.toBe('');
    }
    // A 400 is not "not found", and carries its details.
    const invalid = await rejection(
      call('POST', 'dialogue', { body: { messages: [{ role: 'nobody', content: 'x' }] } }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.isNotFound).toBe(false);
    expect(Array.isArray(invalid.details)).toBe(true);
  });

  it('answers a repeated create (the client retries POSTs) with 409 DUPLICATE_ID and stores nothing twice', async () => {
    const ns = 'retry-user';
    const create = {
      id: 'dlg-retried',
      namespace: ns,
      messages: [{ role: 'user', content: 'sent once, delivered twice' }],
    };
    // The first attempt reaches Parley but its answer is lost on the way back; the client sends it again.
    expect((await client.raw('POST', 'dialogue', create)).status).toBe(201);
    const repeated = await rejection(call('POST', 'dialogue', { body: create }));
    expect(repeated).toMatchObject({ status: 409, code: 'DUPLICATE_ID' });

    const memory = { id: 'mem-retried', namespace: ns, value: 'once' };
    expect((await client.raw('POST', 'memory', memory)).status).toBe(201);
    expect(await rejection(call('POST', 'memory', { body: memory }))).toMatchObject({ code: 'DUPLICATE_ID' });

    const query = { dialogueId: 'dlg-retried', namespace: ns };
    const batch = [{ id: 'msg-retried', role: 'assistant', content: 'once' }];
    expect((await client.raw('POST', `messages?dialogueId=dlg-retried&namespace=${ns}`, batch)).status).toBe(
      201,
    );
    expect(await rejection(call('POST', 'messages', { query, body: batch }))).toMatchObject({
      code: 'DUPLICATE_ID',
    });

    const dialogues = await call<Page>('GET', 'dialogue', { query: { namespace: ns } });
    expect(dialogues.items.map((d) => d.id)).toEqual(['dlg-retried']);
    expect(dialogues.items[0]!.totalMessages).toBe(2);
    const messages = await call<Page>('GET', 'messages', { query });
    expect(messages.items.map((m) => m.content)).toEqual(['sent once, delivered twice', 'once']);
    expect((await call<Page>('GET', 'memory', { query: { namespace: ns } })).items.map((m) => m.id)).toEqual([
      'mem-retried',
    ]);
  });

  it('sends a request answered with a 4xx once: the client retries only network errors, 429 and 5xx', async () => {
    const before = client.sent.length;
    await rejection(call('GET', 'dialogue/no-such-dialogue'));
    expect(client.sent.length - before).toBe(1);
  });
});
