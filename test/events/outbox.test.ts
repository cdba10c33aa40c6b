import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectContext } from '../../src/core/context.js';
import { RawJson } from '../../src/core/raw-json.js';
import { runWrite } from '../../src/db/unit-of-work.js';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { untilClockPasses } from '../helpers/clock.js';

// D63, D64: every change writes its event in its own transaction, from every REST write path;
// a write that rolls back writes none. (MCP, import, erasure and the feed's own rules have their
// own files in this folder.)

interface FeedEvent {
  id: string;
  seq: number;
  type: string;
  created: string;
  projectId: string;
  namespace: string | null;
  dialogueId: string | null;
  objectId: string;
  data: Record<string, unknown>;
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

async function fixture(): Promise<{ project: TestProject; as: ReturnType<typeof asProject> }> {
  const project = await createProject(ctx.app);
  return { project, as: asProject(ctx.app, project) };
}

/** The whole feed after `after`. */
async function feed(as: ReturnType<typeof asProject>, after = 0): Promise<FeedEvent[]> {
  const response = await as({ method: 'GET', url: `/api/v1/events?after=${after}&limit=1000` });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: FeedEvent[] }).items;
}

describe('outbox: every REST write emits its events (D63, D64)', () => {
  it('dialogue creation: the dialogue after its messages, then one event per message', async () => {
    const { project, as } = await fixture();
    const created = await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: {
        namespace: 'user-1',
        label: 'Order',
        messages: [{ role: 'system', content: 'Be brief.' }],
        message: { role: 'user', content: { text: 'where', n: 1 } },
      },
    });
    expect(created.statusCode).toBe(201);
    const dialogue = created.json() as { id: string; messages: { id: string }[] };
    const events = await feed(as);
    expect(events.map((event) => event.type)).toEqual([
      'dialogue.created',
      'message.created',
      'message.created',
    ]);
    const [first, m1, m2] = events as [FeedEvent, FeedEvent, FeedEvent];
    expect(first).toMatchObject({
      projectId: project.projectId,
      namespace: 'user-1',
      dialogueId: dialogue.id,
      objectId: dialogue.id,
      data: { id: dialogue.id, label: 'Order', totalMessages: 2 },
    });
    expect(first.id).toMatch(/^evt_[0-9a-z]{26}$/);
    expect(first.data).not.toHaveProperty('messages');
    expect([m1.objectId, m2.objectId]).toEqual(dialogue.messages.map((message) => message.id));
    expect(m2.data).toMatchObject({
      dialogueId: dialogue.id,
      role: 'user',
      content: { text: 'where', n: 1 },
    });
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  it('message content reaches the feed byte for byte (D28)', async () => {
    const { as } = await fixture();
    const dialogue = (await as({ method: 'POST', url: '/api/v1/dialogue', payload: {} })).json() as {
      id: string;
    };
    const body = `{"dialogueId":"${dialogue.id}","role":"user","content":{"z":1,"a":12345678901234567890,"s":"\\u00e9"}}`;
    const sent = await as({
      method: 'POST',
      url: '/api/v1/message',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(sent.statusCode).toBe(201);
    const response = await as({ method: 'GET', url: '/api/v1/events?type=message.created' });
    // The content's own text; the JSON around it may space its separators (the append statement
    // builds the event in SQL, json_build_object style).
    expect(response.body).toMatch(/"content"\s*:\s*\{"z":1,"a":12345678901234567890,"s":"\\u00e9"\}/);
  });

  it('each write path and its type: update, state, end, messages, tags, deletes, memories', async () => {
    const { as } = await fixture();
    const dialogue = (
      await as({ method: 'POST', url: '/api/v1/dialogue', payload: { tags: ['a'] } })
    ).json() as { id: string };
    const id = dialogue.id;
    const after = (await feed(as)).at(-1)!.seq;

    const steps: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      [
        'dialogue.updated',
        () => as({ method: 'PUT', url: `/api/v1/dialogue/${id}`, payload: { label: 'L' } }),
      ],
      [
        'message.created',
        () =>
          as({
            method: 'PUT',
            url: `/api/v1/dialogue/${id}`,
            payload: { message: { role: 'user', content: 'hi' } },
          }),
      ],
      [
        'dialogue.updated',
        () => as({ method: 'PUT', url: `/api/v1/dialogue/${id}/state`, payload: { step: 2 } }),
      ],
      [
        'message.created',
        () =>
          as({
            method: 'POST',
            url: '/api/v1/message',
            payload: { dialogueId: id, id: 'm1', role: 'user', content: 'one' },
          }),
      ],
      [
        'message.created message.created',
        () =>
          as({
            method: 'POST',
            url: '/api/v1/messages',
            payload: {
              dialogueId: id,
              messages: [
                { id: 'm2', role: 'user', content: 'two' },
                { id: 'm3', role: 'assistant', content: 'three' },
              ],
            },
          }),
      ],
      [
        'message.updated',
        () => as({ method: 'PUT', url: `/api/v1/message/m1?dialogueId=${id}`, payload: { tags: ['t'] } }),
      ],
      ['message.deleted', () => as({ method: 'DELETE', url: `/api/v1/message/m2?dialogueId=${id}` })],
      ['dialogue.ended', () => as({ method: 'POST', url: `/api/v1/dialogue/${id}/end` })],
      // Ending again changes nothing: no event (D21 is idempotent).
      ['', () => as({ method: 'POST', url: `/api/v1/dialogue/${id}/end` })],
      ['dialogue.deleted', () => as({ method: 'DELETE', url: `/api/v1/dialogue/${id}` })],
    ];
    let seen = after;
    for (const [types, run] of steps) {
      const response = await run();
      expect(response.statusCode, `${types}: ${response.body}`).toBeLessThan(300);
      const events = await feed(as, seen);
      expect(events.map((event) => event.type).join(' '), types || '(none)').toBe(types);
      seen = events.at(-1)?.seq ?? seen;
    }
  });

  it('memories: created, updated, deleted', async () => {
    const { as } = await fixture();
    const memory = (
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'likes tea', namespace: 'u1' } })
    ).json() as { id: string };
    await as({ method: 'PUT', url: `/api/v1/memory/${memory.id}`, payload: { value: 'likes coffee' } });
    await as({ method: 'DELETE', url: `/api/v1/memory/${memory.id}` });
    const events = await feed(as);
    expect(events.map((event) => [event.type, event.objectId, event.namespace, event.dialogueId])).toEqual([
      ['memory.created', memory.id, 'u1', null],
      ['memory.updated', memory.id, 'u1', null],
      ['memory.deleted', memory.id, 'u1', null],
    ]);
    // D70: the deletion erased the earlier events' content.
    expect(events.map((event) => event.data)).toEqual([
      { id: memory.id, deleted: true },
      { id: memory.id, deleted: true },
      { id: memory.id, deleted: true },
    ]);
  });

  it('a write that rolls back writes no event; the next one is numbered right after the last', async () => {
    const { project, as } = await fixture();
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'kept' } });
    const context: ProjectContext = { projectId: project.projectId, settings: {} };
    await expect(
      runWrite(ctx.app.writeDeps, context, 201, async (tx) => {
        await ctx.app.services.memories.create(tx, context, { value: new RawJson('"rolled back"') });
        throw new Error('the write fails after its change');
      }),
    ).rejects.toThrow('the write fails after its change');
    // Refused by a rule inside the transaction, after nothing was written: nothing either.
    const refused = await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: { threadOf: 'dlg_missing', message: { role: 'user', content: 'x' } },
    });
    expect(refused.statusCode).toBe(404);
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'kept too' } });
    const events = await feed(as);
    expect(events.map((event) => [event.seq, (event.data as { value: string }).value])).toEqual([
      [1, 'kept'],
      [2, 'kept too'],
    ]);
  });
});

describe('message.created data is the message as the REST API returns it (D63)', () => {
  // The append statement builds these events' data in SQL (messages/repository.ts
  // messageRecordJson) beside records.ts toMessageRecord, which answers the REST call: the two
  // must not drift apart, for any field.
  const content = '{"text":"caf\\u00e9 \\"quoted\\"","n":1.50,"nested":[{"k":null}]}';
  const rich = (dialogueId: string) =>
    `{"dialogueId":"${dialogueId}","role":"assistant","name":"helper","tags":["b","a"],` +
    `"metadata":{"z":1,"a":{"deep":[1,2.5,"x"]},"flag":true},"created":"2026-01-02T03:04:05.678Z",` +
    `"content":${content}}`;

  it('on POST /message, POST /messages and dialogue creation, field for field, content verbatim', async () => {
    const { as } = await fixture();
    const dialogue = (
      await as({ method: 'POST', url: '/api/v1/dialogue', payload: { namespace: 'ns-1' } })
    ).json() as { id: string };
    const single = await as({
      method: 'POST',
      url: '/api/v1/message?namespace=ns-1',
      headers: { 'content-type': 'application/json' },
      payload: rich(dialogue.id),
    });
    expect(single.statusCode, single.body).toBe(201);
    const batch = await as({
      method: 'POST',
      url: '/api/v1/messages?namespace=ns-1',
      headers: { 'content-type': 'application/json' },
      payload: `{"dialogueId":"${dialogue.id}","messages":[{"role":"user","content":"plain"},{"role":"user","content":${content},"metadata":{"k":"v"}}]}`,
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const created = await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      headers: { 'content-type': 'application/json' },
      payload: `{"messages":[{"role":"user","content":${content},"tags":["t"]}]}`,
    });
    expect(created.statusCode, created.body).toBe(201);

    const written = [
      single.json(),
      ...(batch.json() as { items: unknown[] }).items,
      ...(created.json() as { messages: unknown[] }).messages,
    ] as { id: string }[];
    const listed = await as({ method: 'GET', url: '/api/v1/events?type=message.created&limit=1000' });
    const events = (listed.json() as { items: FeedEvent[] }).items;
    expect(events.map((event) => event.objectId)).toEqual(written.map((message) => message.id));
    for (const [index, event] of events.entries()) expect(event.data).toStrictEqual(written[index]);
    // D28: the content's own text, escapes and number forms included, in the feed's body.
    expect(listed.body.split(content).length - 1).toBe(3);
  });
});

describe('a message that changes keeps its earlier events as they were (D63)', () => {
  // A `message.created` event reads its data from the message row until the message first
  // changes; the change writes the message as it was into the event first.
  it('message.created shows the tags and time of creation after a tag update; message.updated the new ones', async () => {
    const { as } = await fixture();
    const dialogue = (await as({ method: 'POST', url: '/api/v1/dialogue', payload: {} })).json() as {
      id: string;
    };
    const created = (
      await as({
        method: 'POST',
        url: '/api/v1/message',
        payload: { dialogueId: dialogue.id, role: 'user', content: 'hello', tags: ['first'] },
      })
    ).json() as { id: string; tags: string[]; modified: string };
    let modified = created.modified;
    for (const tags of [['second'], ['third']]) {
      // Apart in time, so that `modified` tells the versions apart.
      await untilClockPasses(modified);
      const updated = await as({
        method: 'PUT',
        url: `/api/v1/message/${created.id}?dialogueId=${dialogue.id}`,
        payload: { tags },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      modified = (updated.json() as { modified: string }).modified;
    }
    const events = await feed(as);
    const ofMessage = events.filter((event) => event.objectId === created.id);
    expect(ofMessage.map((event) => [event.type, event.data.tags])).toEqual([
      ['message.created', ['first']],
      ['message.updated', ['second']],
      ['message.updated', ['third']],
    ]);
    expect(ofMessage[0]!.data).toStrictEqual(created);
    expect(ofMessage[0]!.data.modified).not.toBe(ofMessage[1]!.data.modified);
  });
});
