import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parley, ParleyError, type ParleyEvent } from '@parley/client';
import { ADMIN_TOKEN, type TestContext, createProject, createTestContext } from '../helpers/app.js';

// The first-party client, `@parley/client` imported by its package name (its built dist/), against a
// real server listening on 127.0.0.1.

async function listening(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

let ctx: TestContext;
let baseUrl: string;
let parley: Parley;
let apiKey: string;

beforeAll(async () => {
  ctx = await createTestContext();
  baseUrl = await listening(ctx);
  const project = await createProject(ctx.app);
  apiKey = project.apiKey;
  parley = new Parley({ baseUrl, apiKey, adminToken: ADMIN_TOKEN });
});
afterAll(() => ctx?.close());

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};

describe('Parley client', () => {
  it('calls every dialogue and message operation', async () => {
    const created = await parley.dialogues.create({
      namespace: 'client',
      messages: [{ role: 'user', content: 'Where is my order #1234?' }],
    });
    const id = created.id;
    expect((await parley.dialogues.get(id, { namespace: 'client' })).messages).toHaveLength(1);
    expect((await parley.dialogues.update(id, { label: 'order' }, { namespace: 'client' })).label).toBe(
      'order',
    );
    expect((await parley.dialogues.setState(id, { step: 2 }, { namespace: 'client' })).state).toEqual({
      step: 2,
    });

    const message = await parley.messages.create({
      dialogueId: id,
      namespace: 'client',
      role: 'assistant',
      content: [{ type: 'text', text: 'It ships tomorrow.' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'It ships tomorrow.' }]);
    const batch = await parley.messages.createMany(
      [
        { role: 'user', content: { question: 'And the invoice?' } },
        { role: 'assistant', content: 'Attached.' },
      ],
      { dialogueId: id, namespace: 'client' },
    );
    expect(Array.isArray(batch) && batch.length).toBe(2);
    expect((await parley.messages.get(message.id, { dialogueId: id, namespace: 'client' })).id).toBe(
      message.id,
    );
    const tagged = await parley.messages.updateTags(
      message.id,
      { tags: ['answer'] },
      { dialogueId: id, namespace: 'client' },
    );
    expect(tagged.tags).toEqual(['answer']);
    expect((await collect(parley.messages.list({ dialogueId: id, namespace: 'client' }))).length).toBe(4);
    expect((await parley.messages.pageOfDialogue(id, { namespace: 'client' })).items.length).toBe(4);
    expect((await parley.dialogues.context(id, { namespace: 'client' })).messages?.length).toBeGreaterThan(0);

    const summary = await parley.summaries.create({ dialogueId: id, namespace: 'client' });
    expect((await parley.summaries.get(summary.id, { namespace: 'client' })).id).toBe(summary.id);
    expect(
      (await collect(parley.summaries.list({ dialogueId: id, namespace: 'client' }))).map((s) => s.id),
    ).toContain(summary.id);
    expect((await parley.dialogues.compact(id, { namespace: 'client' })).id).toBe(id);
    const next = await parley.dialogues.continue(id, { namespace: 'client' });
    expect(next.id).not.toBe(id);
    // D160
    const fork = await parley.dialogues.fork(id, { label: 'fork' }, { namespace: 'client' });
    expect(fork.forkedFrom?.dialogueId).toBe(id);
    expect((await collect(parley.dialogues.list({ forkedFrom: id }))).map((d) => d.id)).toEqual([fork.id]);

    await parley.messages.delete(message.id, { dialogueId: id, namespace: 'client' });
    const [first] = batch as { id: string }[];
    await parley.messages.deleteFromDialogue(id, first!.id, { namespace: 'client' });
    expect((await parley.dialogues.end(next.id, { namespace: 'client' })).status).toBe('ended');
    expect((await parley.dialogues.delete(next.id, { namespace: 'client' })).success).toBe(true);
  });

  it('erases a namespace and reads its erasure (D162)', async () => {
    await parley.dialogues.create({ namespace: 'client-gone' });
    const erasure = await parley.namespaces.erase('client-gone');
    expect(erasure.namespace).toBe('client-gone');
    expect((await parley.erasures.get(erasure.id)).id).toBe(erasure.id);
    expect((await parley.dialogues.page({ namespace: 'client-gone' })).items).toEqual([]);
  });

  it('calls the memory and search operations', async () => {
    const memory = await parley.memories.create({ value: 'Prefers email', label: 'contact' });
    expect((await parley.memories.get(memory.id)).value).toBe('Prefers email');
    expect((await parley.memories.update(memory.id, { value: { channel: 'email' } })).value).toEqual({
      channel: 'email',
    });
    expect((await collect(parley.memories.list())).map((m) => m.id)).toContain(memory.id);
    const results = await parley.search({ query: 'email', object: 'memory' });
    expect(Array.isArray(results.results)).toBe(true);
    expect((await parley.memories.delete(memory.id)).success).toBe(true);
  });

  it('follows `next` across pages', async () => {
    for (let i = 0; i < 5; i++) await parley.dialogues.create({ namespace: 'paged', label: `d${i}` });
    const all = await collect(parley.dialogues.list({ namespace: 'paged', limit: 2 }));
    expect(all.map((d) => d.label).sort()).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
  });

  it('throws a ParleyError carrying the envelope', async () => {
    const error = await parley.dialogues.get('dlg_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({
      status: 404,
      code: 'DIALOGUE_NOT_FOUND',
      type: 'not_found',
      requestId: expect.any(String),
    });
    const invalid = await parley.messages
      .create({ dialogueId: 'x', role: 'narrator' as 'user', content: 'hi' })
      .catch((e: ParleyError) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((invalid as ParleyError).details.length).toBeGreaterThan(0);
  });

  it('reads the event feed and follows the stream, resuming after the last event', async () => {
    const stop = new AbortController();
    let opens = 0;
    let opened: () => void = () => {};
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const stream = parley.events.stream({
      signal: stop.signal,
      type: ['dialogue.created'],
      onOpen: () => {
        opens++;
        opened();
      },
    });
    const firstEvent = stream.next();
    // The stream starts with the next new event; onOpen says from when: an event committed right
    // after it is delivered.
    await open;
    const made = await parley.dialogues.create({ label: 'streamed' });
    const { value } = await firstEvent;
    const event = value as ParleyEvent;
    expect(event).toMatchObject({ type: 'dialogue.created' });
    expect((event.data as { id: string }).id).toBe(made.id);
    expect(opens).toBe(1);
    stop.abort();
    await stream.return(undefined);

    const later = await parley.dialogues.create({ label: 'after the break' });
    const resumed = parley.events.stream({ after: event.seq, type: ['dialogue.created'] });
    const { value: again } = await resumed.next();
    expect(((again as ParleyEvent).data as { id: string }).id).toBe(later.id);
    await resumed.return(undefined);

    const feed = await collect(parley.events.list({ after: 0, limit: 3 }));
    expect(feed.map((e) => e.seq)).toEqual([...feed.map((e) => e.seq)].sort((a, b) => a - b));
    expect(feed.some((e) => e.seq === event.seq)).toBe(true);
    expect((await parley.events.page({ after: 0, limit: 1 })).items).toHaveLength(1);
  });

  it('calls every admin operation', async () => {
    const { project, apiKey } = await parley.admin.createProject({ name: 'client-admin' });
    expect(apiKey).toBeTruthy();
    expect((await parley.admin.listProjects()).items.map((p) => p.id)).toContain(project.id);
    expect((await parley.admin.getProject(project.id)).name).toBe('client-admin');
    expect((await parley.admin.updateProject(project.id, { name: 'renamed' })).name).toBe('renamed');
    const key = await parley.admin.createKey(project.id);
    expect((await parley.admin.listKeys(project.id)).items.length).toBe(2);
    expect((await parley.admin.revokeKey(project.id, key.id)).success).toBe(true);
    expect((await parley.admin.revokeKeyByValue({ apiKey })).success).toBe(true);
    expect(await parley.admin.usage(project.id)).toBeDefined();
    // D151: the stored policy's preview, and a proposed one's.
    await parley.admin.updateProject(project.id, { settings: { retention: { messageDays: 30 } } });
    expect((await parley.admin.previewRetention(project.id)).policy).toEqual({ messageDays: 30 });
    expect((await parley.admin.previewRetention(project.id, { memoryDays: 1 })).policy).toEqual({
      memoryDays: 1,
    });
    const erased = await parley.admin.eraseProject(project.id);
    expect(erased.erasure.status).toBe('completed');
    // D166: the record outlives the project.
    expect(await parley.admin.getProjectErasure(erased.erasure.id)).toEqual(erased.erasure);
  });
});

describe('Parley client retries', () => {
  let limited: TestContext;
  let limitedUrl: string;
  beforeAll(async () => {
    limited = await createTestContext({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '1' });
    limitedUrl = await listening(limited);
  });
  afterAll(() => limited?.close());

  it('waits out a 429 as Retry-After says and succeeds', async () => {
    const project = await createProject(limited.app);
    const statuses: number[] = [];
    const retryAfter: (string | null)[] = [];
    const client = new Parley({
      baseUrl: limitedUrl,
      apiKey: project.apiKey,
      fetch: async (request) => {
        const response = await fetch(request);
        statuses.push(response.status);
        retryAfter.push(response.headers.get('retry-after'));
        return response;
      },
    });
    for (let i = 0; i < 3; i++) await client.dialogues.page();
    expect(statuses).toContain(429);
    expect(retryAfter[statuses.indexOf(429)]).toBe('1');
    expect(statuses.at(-1)).toBe(200);
  });

  it('sends a create again with the same Idempotency-Key when its answer was lost: one object', async () => {
    const project = await createProject(ctx.app);
    const keys: (string | null)[] = [];
    let dropped = false;
    const client = new Parley({
      baseUrl,
      apiKey: project.apiKey,
      fetch: async (request) => {
        keys.push(request.headers.get('idempotency-key'));
        const response = await fetch(request);
        if (!dropped && request.method === 'POST') {
          // The server made the dialogue; the answer never reaches the client.
          dropped = true;
          await response.body?.cancel();
          throw new TypeError('fetch failed: connection reset');
        }
        return response;
      },
    });
    const made = await client.dialogues.create({ label: 'once' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const all = await collect(client.dialogues.list());
    expect(all.map((d) => d.id)).toEqual([made.id]);
  });
});
