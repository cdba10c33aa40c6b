import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
  stubEmbedder,
} from '../helpers/app.js';
import { rowsOf } from '../../src/db/client.js';
import { type Api, type DialogueBody, V1, createDialogue, sendRaw, walk } from '../helpers/dialogues.js';

// D160: a fork is a new dialogue holding copies of the original's messages up to one of them:
// content byte for byte, `created` kept, new ids, `forkedFrom` shown and filterable, the copy
// made in one statement, and the fork whole after the original is deleted.

let ctx: TestContext;
let api: Api;
/** Every statement the app runs, so that the copy's statements can be counted. */
const statements: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext(
    {},
    { embedder: stubEmbedder(), queryLogger: { logQuery: (query) => statements.push(query) } },
  );
  api = asProject(ctx.app, await createProject(ctx.app));
});
afterAll(() => ctx.close());

interface Message {
  id: string;
  dialogueId: string;
  created: string;
  content: unknown;
  role: string;
}

const messagesOf = (dialogueId: string, namespace?: string) =>
  walk<Message>(
    api,
    `${V1}/messages?dialogueId=${dialogueId}&order=asc&limit=100${namespace ? `&namespace=${namespace}` : ''}`,
  );

async function fork(id: string, body: Record<string, unknown> = {}, query = '') {
  return api({ method: 'POST', url: `${V1}/dialogue/${id}/fork${query}`, payload: body });
}

async function forkOk(id: string, body: Record<string, unknown> = {}): Promise<DialogueBody> {
  const response = await fork(id, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as DialogueBody;
}

/** A dialogue of `count` messages, sent in batches, each message's text naming its place. */
async function dialogueWith(count: number, body: Record<string, unknown> = {}): Promise<DialogueBody> {
  const dialogue = await createDialogue(api, body);
  for (let start = 0; start < count; start += 100) {
    const messages = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
      role: (start + i) % 2 === 0 ? 'user' : 'assistant',
      content: `turn ${start + i}`,
    }));
    const response = await api({
      method: 'POST',
      url: `${V1}/messages`,
      payload: { dialogueId: dialogue.id, namespace: body.namespace, messages },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  return dialogue;
}

describe('forking a dialogue (D160)', () => {
  it('copies the messages up to the given one: bytes exact, new ids, created kept', async () => {
    const original = await createDialogue(api, {
      namespace: 'user-fork',
      label: 'original',
      tags: ['a'],
      metadata: { channel: 'web' },
      state: { step: 2 },
    });
    // Key order, an integer beyond 2^53 and escapes must survive the copy byte for byte (D28).
    const raw = '{"z":1,"a":12345678901234567890123,"s":"caf\\u00e9 \\"q\\"","n":[1.50,{"2":0,"1":0}]}';
    const first = await sendRaw(
      api,
      'POST',
      `${V1}/message`,
      `{"dialogueId":"${original.id}","namespace":"user-fork","role":"user","content":${raw},"created":"2020-01-02T03:04:05.678Z"}`,
    );
    expect(first.statusCode, first.body).toBe(201);
    for (const text of ['second', 'third', 'fourth']) {
      const response = await api({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: original.id, namespace: 'user-fork', role: 'assistant', content: text },
      });
      expect(response.statusCode).toBe(201);
    }
    const before = await messagesOf(original.id, 'user-fork');
    const upTo = before[2]!;

    const forked = await forkOk(original.id, { upToMessageId: upTo.id });
    expect(forked.id).not.toBe(original.id);
    expect(forked).toMatchObject({
      namespace: 'user-fork',
      label: 'original',
      tags: ['a'],
      metadata: { channel: 'web' },
      state: { step: 2 },
      totalMessages: 3,
      threadOf: null,
      status: 'active',
      forkedFrom: { dialogueId: original.id, messageId: upTo.id },
      lastMessageCreated: upTo.created,
    });

    const copies = await messagesOf(forked.id, 'user-fork');
    expect(copies).toHaveLength(3);
    copies.forEach((copy, i) => {
      const source = before[i]!;
      expect(copy.id).not.toBe(source.id);
      expect(copy.dialogueId).toBe(forked.id);
      expect(copy.created).toBe(source.created);
      expect(copy.role).toBe(source.role);
      expect(copy.content).toEqual(source.content);
    });
    // The first copy's content, as the API writes it, is the text that was sent.
    const listed = await api({
      method: 'GET',
      url: `${V1}/messages?dialogueId=${forked.id}&namespace=user-fork&order=asc`,
    });
    expect(listed.body).toContain(`"content":${raw}`);
    // The original is untouched.
    expect((await messagesOf(original.id, 'user-fork')).map((m) => m.id)).toEqual(before.map((m) => m.id));
  });

  it('copies every message without upToMessageId, takes the given namespace, tags and label, and forks an empty dialogue', async () => {
    const original = await dialogueWith(5, { label: 'five' });
    const forked = await forkOk(original.id, { namespace: 'elsewhere', tags: ['b', 'c'], label: 'other' });
    const copies = await messagesOf(forked.id, 'elsewhere');
    expect(copies.map((m) => m.content)).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 3', 'turn 4']);
    expect(forked).toMatchObject({
      namespace: 'elsewhere',
      tags: ['b', 'c'],
      label: 'other',
      totalMessages: 5,
    });
    expect(forked.forkedFrom).toEqual({
      dialogueId: original.id,
      messageId: (await messagesOf(original.id))[4]!.id,
    });
    // The fork takes messages like any dialogue, in its own namespace.
    const added = await api({
      method: 'POST',
      url: `${V1}/message`,
      payload: { dialogueId: forked.id, namespace: 'elsewhere', role: 'user', content: 'after the fork' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await messagesOf(forked.id, 'elsewhere')).map((m) => m.content).at(-1)).toBe('after the fork');
    expect(await messagesOf(original.id)).toHaveLength(5);

    const empty = await createDialogue(api);
    const emptyFork = await forkOk(empty.id);
    expect(emptyFork).toMatchObject({
      totalMessages: 0,
      forkedFrom: { dialogueId: empty.id, messageId: null },
    });
  });

  it('lists the forks of a dialogue with forkedFrom', async () => {
    const original = await dialogueWith(2);
    const a = await forkOk(original.id);
    const b = await forkOk(original.id);
    const ofFork = await forkOk(a.id);
    const listed = await walk<DialogueBody>(api, `${V1}/dialogue?forkedFrom=${original.id}&order=asc`);
    expect(listed.map((d) => d.id)).toEqual([a.id, b.id]);
    const second = await walk<DialogueBody>(api, `${V1}/dialogue?forkedFrom=${a.id}`);
    expect(second.map((d) => d.id)).toEqual([ofFork.id]);
    const plain = await walk<DialogueBody>(api, `${V1}/dialogue?limit=100`);
    expect(plain.find((d) => d.id === original.id)?.forkedFrom).toBeNull();
  });

  it('leaves the fork whole when the original is deleted', async () => {
    const original = await dialogueWith(4);
    const forked = await forkOk(original.id);
    const copies = await messagesOf(forked.id);
    const deleted = await api({ method: 'DELETE', url: `${V1}/dialogue/${original.id}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await messagesOf(forked.id)).toEqual(copies);
    const got = await api({ method: 'GET', url: `${V1}/dialogue/${forked.id}` });
    expect(got.json()).toMatchObject({ totalMessages: 4, forkedFrom: { dialogueId: original.id } });
    // The list filter still finds it by the deleted original's id.
    const listed = await walk<DialogueBody>(api, `${V1}/dialogue?forkedFrom=${original.id}`);
    expect(listed.map((d) => d.id)).toEqual([forked.id]);
  });

  it('copies 300 messages in one statement, and queues the copies for embedding', async () => {
    const original = await dialogueWith(300);
    statements.length = 0;
    const forked = await forkOk(original.id);
    const inserts = statements.filter((text) => /insert\s+into\s+"?messages"?/i.test(text));
    expect(inserts).toHaveLength(1);
    // Nothing runs per message. The embedding worker may be embedding the originals meanwhile,
    // three statements per message on its own timers: its statements are not the fork's.
    const forks = statements.filter((text) => !/embedding_jobs|SET embedding|search_text AS text/.test(text));
    expect(forks.length).toBeLessThan(100);
    expect((await messagesOf(forked.id)).map((m) => m.content)).toEqual(
      Array.from({ length: 300 }, (_, i) => `turn ${i}`),
    );
    // Every copy whose original had no vector yet is queued; the others carry the original's.
    const [copies] = rowsOf<{ queued: number; unembedded: number }>(
      await ctx.database.handle.db.execute(
        sql`SELECT (SELECT count(*)::int FROM embedding_jobs WHERE dialogue_id = ${forked.id}) AS queued,
          (SELECT count(*)::int FROM messages WHERE dialogue_id = ${forked.id} AND embedding IS NULL) AS unembedded`,
      ),
    );
    expect(copies!.queued).toBe(copies!.unembedded);
  });

  it('writes a dialogue.created event with forkedFrom and no message events for the copies', async () => {
    const original = await dialogueWith(3);
    const forked = await forkOk(original.id);
    const { items } = (await api({ method: 'GET', url: `${V1}/events?after=0&limit=1000` })).json() as {
      items: { type: string; dialogueId: string; data: Record<string, unknown> }[];
    };
    const ofFork = items.filter((event) => event.dialogueId === forked.id);
    expect(ofFork.map((event) => event.type)).toEqual(['dialogue.created']);
    expect(ofFork[0]!.data.forkedFrom).toEqual(forked.forkedFrom);
  });

  it('answers an unknown dialogue 404 and a message of another dialogue 404 MESSAGE_NOT_FOUND, changing nothing', async () => {
    expectError(await fork('dlg_missing'), 404, 'DIALOGUE_NOT_FOUND');
    const original = await dialogueWith(2);
    const other = await dialogueWith(1);
    const foreign = (await messagesOf(other.id))[0]!.id;
    const count = async () => (await walk<DialogueBody>(api, `${V1}/dialogue?limit=100`)).length;
    const before = await count();
    const error = expectError(await fork(original.id, { upToMessageId: foreign }), 404, 'MESSAGE_NOT_FOUND');
    expect(error.details).toEqual([expect.objectContaining({ field: 'upToMessageId' })]);
    expectError(await fork(original.id, { upToMessageId: 'msg_nope' }), 404, 'MESSAGE_NOT_FOUND');
    expectError(await fork(original.id, { unknown: 1 }), 400, 'INVALID_INPUT');
    expectError(await fork(original.id, {}, '?namespace=not-its'), 404, 'DIALOGUE_NOT_FOUND');
    expect(await count()).toBe(before);
  });

  it('is not seen by another project', async () => {
    const original = await dialogueWith(1);
    const stranger = asProject(ctx.app, await createProject(ctx.app));
    expectError(
      await stranger({ method: 'POST', url: `${V1}/dialogue/${original.id}/fork`, payload: {} }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });
});
