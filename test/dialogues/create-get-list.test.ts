import { describe, expect, it } from 'vitest';
import { asProject, createProject, expectError } from '../helpers/app.js';
import {
  type Api,
  V1,
  useProjectApi,
  addMessage,
  createDialogue,
  getDialogue,
  walk,
} from '../helpers/dialogues.js';

const file = useProjectApi();
const api: Api = (options) => file.api(options);

const msg = (content: unknown, role = 'user') => ({ role, content });
const DIALOGUE_FIELDS = [
  'id',
  'projectId',
  'namespace',
  'threadOf',
  'label',
  'status',
  'expired',
  'tags',
  'metadata',
  'state',
  'summary',
  'totalMessages',
  // D160
  'forkedFrom',
  'threadCount',
  'lastMessageCreated',
  'expiresAt',
  'created',
  'modified',
];
const MESSAGE_FIELDS = [
  'id',
  'dialogueId',
  'namespace',
  'role',
  'content',
  'contentLength',
  'name',
  'tags',
  'metadata',
  'created',
  'modified',
];

describe('POST /dialogue', () => {
  it('creates an empty dialogue with every field present (D15)', async () => {
    const response = await api({ method: 'POST', url: `${V1}/dialogue`, payload: {} });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual([...DIALOGUE_FIELDS, 'messages'].sort());
    expect(body).toMatchObject({
      namespace: null,
      threadOf: null,
      label: null,
      status: 'active',
      expired: false,
      tags: [],
      metadata: {},
      state: {},
      summary: null,
      totalMessages: 0,
      threadCount: 0,
      lastMessageCreated: null,
      messages: [],
    });
    expect(body.id).toMatch(/^dlg_[0-9a-z]{26}$/);
  });

  it('adds `messages` first in order, then `message` (D16)', async () => {
    const dialogue = await createDialogue(api, {
      namespace: 'ns-1',
      label: 'Support',
      tags: ['a', 'b'],
      metadata: { channel: 'web' },
      state: { step: 1 },
      messages: [msg('one'), msg('two', 'assistant')],
      message: {
        role: 'system',
        content: 'three',
        name: 'bot',
        id: 'custom-3',
        tags: ['x'],
        metadata: { k: 1 },
      },
    });
    expect(dialogue.messages.map((m) => m.content)).toEqual(['one', 'two', 'three']);
    expect(dialogue.totalMessages).toBe(3);
    expect(dialogue.lastMessageCreated).toBe(dialogue.messages[2]!.created);
    expect(dialogue).toMatchObject({
      namespace: 'ns-1',
      label: 'Support',
      tags: ['a', 'b'],
      state: { step: 1 },
    });
    const last = dialogue.messages[2]!;
    expect(Object.keys(last).sort()).toEqual([...MESSAGE_FIELDS].sort());
    expect(last).toMatchObject({
      id: 'custom-3',
      name: 'bot',
      tags: ['x'],
      metadata: { k: 1 },
      namespace: 'ns-1',
    });
    expect(dialogue.messages[0]).toMatchObject({ name: null, tags: [], metadata: null });
  });

  it('accepts 25 messages and refuses 26 with TOO_MANY_MESSAGES', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => msg(`m${i}`));
    expect((await createDialogue(api, { messages: many(25) })).totalMessages).toBe(25);
    expect((await createDialogue(api, { messages: many(24), message: msg('x') })).totalMessages).toBe(25);
    const tooMany = await api({ method: 'POST', url: `${V1}/dialogue`, payload: { messages: many(26) } });
    expectError(tooMany, 400, 'TOO_MANY_MESSAGES');
    const mixed = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { messages: many(25), message: msg('x') },
    });
    expectError(mixed, 400, 'TOO_MANY_MESSAGES');
  });

  it('accepts every content shape at creation (D16)', async () => {
    const dialogue = await createDialogue(api, {
      messages: [msg({ kind: 'structured' }), msg([{ type: 'text', text: 'hi' }])],
    });
    expect(dialogue.messages.map((m) => m.content)).toEqual([
      { kind: 'structured' },
      [{ type: 'text', text: 'hi' }],
    ]);
  });

  it('bounds namespace and label at 128 characters (D17)', async () => {
    await createDialogue(api, { namespace: 'n'.repeat(128), label: 'l'.repeat(128) });
    const namespace = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { namespace: 'n'.repeat(129) },
    });
    expect(expectError(namespace, 400, 'INVALID_INPUT').details?.[0]?.field).toBe('namespace');
    const label = await api({ method: 'POST', url: `${V1}/dialogue`, payload: { label: 'l'.repeat(129) } });
    expect(expectError(label, 400, 'INVALID_INPUT').details?.[0]?.field).toBe('label');
  });

  it('refuses badly formed tags, metadata and messages with INVALID_INPUT and details', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ tags: 'not-a-list' }, 'tags'],
      [{ tags: [''] }, 'tags[0]'],
      [{ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags'],
      [{ metadata: 'text' }, 'metadata'],
      [{ metadata: { big: 'x'.repeat(16 * 1024) } }, 'metadata'],
      [{ state: [1] }, 'state'],
      [{ messages: [msg('ok'), { role: 'robot', content: 'x' }] }, 'messages[1].role'],
      [{ message: { role: 'user', content: 'x', created: '2024-01-01T00:00:00' } }, 'message.created'],
    ];
    for (const [payload, field] of cases) {
      const response = await api({ method: 'POST', url: `${V1}/dialogue`, payload });
      const error = expectError(response, 400, 'INVALID_INPUT');
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
  });

  it('answers `messages` that is not a list with INVALID_MESSAGE_ARRAY', async () => {
    const response = await api({ method: 'POST', url: `${V1}/dialogue`, payload: { messages: 'hello' } });
    expectError(response, 400, 'INVALID_MESSAGE_ARRAY');
  });

  it('refuses message content that is empty, in a message of the creation', async () => {
    const response = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { messages: [msg('a'), msg('')] },
    });
    expect(expectError(response, 400, 'MESSAGE_CONTENT_EMPTY').details?.[0]?.field).toBe(
      'messages[1].content',
    );
    const missingRole = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { message: { content: 'x' } },
    });
    expect(expectError(missingRole, 400, 'MISSING_PARAMETER').details?.[0]?.field).toBe('message.role');
  });

  it('makes a thread with threadOf and counts it on the parent', async () => {
    const parent = await createDialogue(api);
    const thread = await createDialogue(api, { threadOf: parent.id });
    await createDialogue(api, { threadOf: parent.id });
    expect(thread.threadOf).toBe(parent.id);
    expect((await getDialogue(api, parent.id)).threadCount).toBe(2);
  });

  it('answers an unknown parent with PARENT_DIALOGUE_NOT_FOUND and stores nothing', async () => {
    const before = await walk(api, `${V1}/dialogue?limit=100`);
    const response = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { threadOf: 'dlg_missing', messages: [msg('x')] },
    });
    expectError(response, 404, 'PARENT_DIALOGUE_NOT_FOUND');
    expect(await walk(api, `${V1}/dialogue?limit=100`)).toHaveLength(before.length);
  });

  it('refuses a body that is not an object', async () => {
    const response = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'INVALID_INPUT');
  });
});

describe('GET /dialogue/{id}', () => {
  it('returns the 10 most recent messages oldest first, or the first 10 (D18)', async () => {
    const dialogue = await createDialogue(api, {
      messages: Array.from({ length: 12 }, (_, i) => msg(`m${i}`)),
    });
    const last = await getDialogue(api, dialogue.id);
    expect(last.totalMessages).toBe(12);
    expect(last.messages.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i + 2}`));
    const firstResponse = await api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}?messages=first` });
    const first = firstResponse.json() as { messages: { content: string }[] };
    expect(first.messages.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
    expect(Object.keys(last).sort()).toEqual([...DIALOGUE_FIELDS, 'messages'].sort());
  });

  it('answers an unknown id with DIALOGUE_NOT_FOUND', async () => {
    expectError(await api({ method: 'GET', url: `${V1}/dialogue/dlg_nope` }), 404, 'DIALOGUE_NOT_FOUND');
  });

  it('serves the unversioned alias too (D1)', async () => {
    const dialogue = await createDialogue(api);
    const response = await api({ method: 'GET', url: `/api/dialogue/${dialogue.id}` });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /dialogue', () => {
  it('pages with keyset cursors, newest first by default, and ends with next: null (D26)', async () => {
    const project = asProject(file.ctx.app, await createProject(file.ctx.app));
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createDialogue(project, { label: `d${i}` })).id);
    const first = await project({ method: 'GET', url: `${V1}/dialogue?limit=3` });
    const page = first.json() as { items: { id: string }[]; next: string | null };
    expect(page.items.map((d) => d.id)).toEqual(ids.slice().reverse().slice(0, 3));
    expect(page.next).toEqual(expect.any(String));
    const all = await walk<{ id: string }>(project, `${V1}/dialogue?limit=3`);
    expect(all.map((d) => d.id)).toEqual(ids.slice().reverse());
    const asc = await walk<{ id: string }>(project, `${V1}/dialogue?limit=2&order=asc`);
    expect(asc.map((d) => d.id)).toEqual(ids);
    const last = await project({ method: 'GET', url: `${V1}/dialogue?limit=100` });
    expect(last.json().next).toBeNull();
    expect(last.json().items[0]).not.toHaveProperty('messages');
  });

  it('filters by namespace, tag (all given), status and threads', async () => {
    const project = asProject(file.ctx.app, await createProject(file.ctx.app));
    const a = await createDialogue(project, { namespace: 'alice', tags: ['x', 'y'] });
    const b = await createDialogue(project, { namespace: 'bob', tags: ['x'] });
    const thread = await createDialogue(project, { threadOf: a.id });
    await createDialogue(project, { threadOf: b.id });
    await project({ method: 'PUT', url: `${V1}/dialogue/${b.id}/end` });
    const ids = async (query: string) =>
      (await walk<{ id: string }>(project, `${V1}/dialogue?${query}`)).map((d) => d.id).sort();
    expect(await ids('namespace=alice')).toEqual([a.id]);
    expect(await ids('tag=x')).toEqual([a.id, b.id].sort());
    expect(await ids('tag=x&tag=y')).toEqual([a.id]);
    expect(await ids('status=ended')).toEqual([b.id]);
    expect(await ids(`query=threads&threadOf=${a.id}`)).toEqual([thread.id]);
    expect(await ids('query=threads')).toHaveLength(2);
  });

  it('filters by a UTC day and by intervals of dates or date-times', async () => {
    const project = asProject(file.ctx.app, await createProject(file.ctx.app));
    const dialogue = await createDialogue(project);
    const created = new Date(dialogue.created as string);
    const day = created.toISOString().slice(0, 10);
    const nextDay = new Date(created.getTime() + 86_400_000).toISOString().slice(0, 10);
    const count = async (date: string) =>
      (await walk(project, `${V1}/dialogue?date=${encodeURIComponent(date)}`)).length;
    expect(await count(day)).toBe(1);
    expect(await count(nextDay)).toBe(0);
    expect(await count(`${day}/${day}`)).toBe(1);
    expect(await count(`${day}/`)).toBe(1);
    expect(await count(`/${day}`)).toBe(1);
    expect(await count(`${nextDay}/`)).toBe(0);
    expect(await count(`${created.toISOString()}/${new Date(created.getTime() + 1).toISOString()}`)).toBe(1);
    expect(await count(`/${created.toISOString()}`)).toBe(0);
    for (const bad of ['yesterday', '2024-02-30', '/', '2024-01-02/2024-01-01', '2024-01-01T25:00Z']) {
      const response = await project({
        method: 'GET',
        url: `${V1}/dialogue?date=${encodeURIComponent(bad)}`,
      });
      expectError(response, 400, 'INVALID_PARAMETER');
    }
  });

  it('refuses bad limits, orders and cursors with INVALID_PARAMETER', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'order=up', 'next=garbage', 'status=gone']) {
      expectError(await api({ method: 'GET', url: `${V1}/dialogue?${query}` }), 400, 'INVALID_PARAMETER');
    }
    const messagesCursor = await api({ method: 'GET', url: `${V1}/dialogue?limit=100` });
    expect(messagesCursor.statusCode).toBe(200);
  });

  it('shows message counts kept by message creation', async () => {
    const dialogue = await createDialogue(api);
    await addMessage(api, dialogue.id);
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(1);
  });
});
