import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, asProject, createProject, createTestContext, expectError } from './helpers/app.js';
import { dataDump } from './helpers/data-dump.js';
import { eventually } from './helpers/eventually.js';
import { type Receiver, useReceivers } from './helpers/webhook-receiver.js';
import { type Api, V1, useProjectApi } from './helpers/dialogues.js';

// D73: when a delete answers, no byte of the deleted content remains in any table: rows, search
// text, summaries that drew on it, and stored idempotent responses (kept as tombstones).

const marker = () => `zq${randomBytes(6).toString('hex')}mark`;
const key = () => `key-${randomBytes(8).toString('hex')}`;

async function ok(api: Api, options: Parameters<Api>[0], status = 200) {
  const response = await api(options);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as Record<string, unknown> & { id: string };
}

describe('erasure (D73)', () => {
  // D70: a webhook receiver that fails and echoes what it gets: every event stays a pending
  // delivery (its retry far off), with the echo kept in the delivery log.
  const receivers = useReceivers();
  const state = useProjectApi({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CA_FILE: receivers.caFile,
    WEBHOOK_RETRY_SCHEDULE_MS: '600000',
  });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await receivers.start((request) => ({ status: 500, body: request.body }));
  });
  afterAll(() => receiver.close());

  it('leaves nothing of a deleted dialogue, its messages, summary, continuation and memory', async () => {
    const { api, ctx } = state;
    await ok(api, { method: 'POST', url: `${V1}/webhooks`, payload: { url: receiver.url } }, 201);
    const secret = marker();
    const say = (text: string) => `${text} about ${secret} and the weather on the coast tonight.`;
    const dialogue = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        headers: { 'idempotency-key': key() },
        payload: {
          label: `label ${secret}`,
          tags: [secret],
          metadata: { note: secret },
          state: { memo: secret },
          messages: [{ role: 'user', content: say('First we spoke') }],
        },
      },
      201,
    );
    const id = dialogue.id;
    await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/message`,
        headers: { 'idempotency-key': key() },
        payload: { dialogueId: id, role: 'assistant', content: { text: say('Then I answered') } },
      },
      201,
    );
    await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/messages`,
        headers: { 'idempotency-key': key() },
        payload: {
          dialogueId: id,
          messages: [
            { role: 'user', content: say('A batch asked') },
            { role: 'assistant', content: [{ type: 'text', text: say('And the batch answered') }] },
          ],
        },
      },
      201,
    );
    await ok(api, {
      method: 'PUT',
      url: `${V1}/dialogue/${id}/state`,
      headers: { 'idempotency-key': key() },
      payload: { other: secret },
    });
    const compacted = await ok(api, {
      method: 'PUT',
      url: `${V1}/dialogue/${id}/compact`,
      headers: { 'idempotency-key': key() },
    });
    expect(JSON.stringify(compacted.summary)).toContain(secret);
    const summary = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/summary`,
        headers: { 'idempotency-key': key() },
        payload: { dialogueId: id, tags: [secret], metadata: { m: secret } },
      },
      201,
    );
    expect(summary.content).toContain(secret);
    const continuation = await ok(
      api,
      { method: 'PUT', url: `${V1}/dialogue/${id}/continue`, headers: { 'idempotency-key': key() } },
      201,
    );
    const memory = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/memory`,
        headers: { 'idempotency-key': key() },
        payload: { value: say('Remember'), label: secret, tags: [secret], metadata: { m: secret } },
      },
      201,
    );
    // Every event was sent once (and failed): its copy waits in webhook_deliveries.
    const events = (await ok(api, { method: 'GET', url: `${V1}/events?limit=1000` })).items as unknown[];
    await eventually(
      async () =>
        (await dataDump(ctx.database)).split('\n').filter((line) => line.includes('whd_')).length >=
        events.length,
    );
    // The check can fail: before the deletes, the marker is everywhere.
    expect(await dataDump(ctx.database)).toContain(secret);

    await ok(api, { method: 'DELETE', url: `${V1}/dialogue/${id}` });
    // D73: a continuation is its own content; deleting the old dialogue does not reach into it.
    expect(await dataDump(ctx.database)).toContain(secret);
    await ok(api, { method: 'DELETE', url: `${V1}/dialogue/${continuation.id}` });
    await ok(api, { method: 'DELETE', url: `${V1}/memory/${memory.id}` });

    expect(await dataDump(ctx.database)).not.toContain(secret);
    // D70: the feed keeps the fact and time of every change, never the erased content.
    const feed = (await ok(api, { method: 'GET', url: `${V1}/events?limit=1000` })).items as {
      type: string;
      dialogueId: string | null;
      objectId: string;
      data: Record<string, unknown>;
    }[];
    const ours = feed.filter(
      (event) => [id, continuation.id].includes(event.dialogueId ?? '') || event.objectId === memory.id,
    );
    expect(ours.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'dialogue.created',
        'message.created',
        'dialogue.compacted',
        'dialogue.continued',
      ]),
    );
    for (const event of ours) {
      const inDialogue = event.dialogueId !== null && event.dialogueId !== event.objectId;
      expect(event.data).toEqual(
        inDialogue
          ? { id: event.objectId, dialogueId: event.dialogueId, deleted: true }
          : { id: event.objectId, deleted: true },
      );
    }
  });

  it('removes a summary that drew on a deleted message, and only that content', async () => {
    const { api, ctx } = state;
    const kept = marker();
    const gone = marker();
    const dialogue = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        payload: {
          label: kept,
          messages: [
            { role: 'user', content: `The parcel code is ${gone} and it ships on Monday.` },
            { role: 'assistant', content: `Noted, the delivery goes to ${kept} street tomorrow.` },
          ],
        },
      },
      201,
    );
    const secretMessage = (dialogue.messages as { id: string }[])[0]!.id;
    const compactKey = key();
    const compact = () =>
      api({
        method: 'PUT',
        url: `${V1}/dialogue/${dialogue.id}/compact`,
        headers: { 'idempotency-key': compactKey },
      });
    const compacted = await compact();
    expect(compacted.body).toContain(gone);
    expect(await dataDump(ctx.database)).toContain(gone);

    await ok(api, { method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}/messages/${secretMessage}` });

    const dump = await dataDump(ctx.database);
    expect(dump).not.toContain(gone);
    expect(dump).toContain(kept);
    const after = await ok(api, { method: 'GET', url: `${V1}/dialogue/${dialogue.id}` });
    expect(after.summary).toBeNull();
    // D70: the compaction's event keeps its `summary` key, emptied.
    const events = (await ok(api, { method: 'GET', url: `${V1}/events?dialogueId=${dialogue.id}` }))
      .items as {
      type: string;
      data: Record<string, unknown>;
    }[];
    const compactedEvent = events.find((event) => event.type === 'dialogue.compacted');
    expect(compactedEvent?.data).toMatchObject({ id: dialogue.id, label: kept, summary: null });
    // The stored compact response is a tombstone: its retry is refused and runs nothing.
    const retried = await compact();
    expect(expectError(retried, 409, 'RESOURCE_CONFLICT').message).toMatch(/deleted/);
  });

  it('removes every summary record that covers a deleted message, and keeps the others (D56)', async () => {
    const { api, ctx } = state;
    const kept = marker();
    const gone = marker();
    const at = (minute: number) => `2026-04-01T08:0${minute}:00.000Z`;
    const dialogue = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        payload: {
          messages: [
            { id: 'm1', role: 'user', content: `The locker code is ${gone} for today.`, created: at(1) },
            {
              id: 'm2',
              role: 'assistant',
              content: `Understood, and ${kept} is the pickup name.`,
              created: at(2),
            },
            {
              id: 'm3',
              role: 'user',
              content: `Please remind ${kept} about the pickup on Friday.`,
              created: at(3),
            },
          ],
        },
      },
      201,
    );
    const summarize = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
      api({
        method: 'POST',
        url: `${V1}/summary`,
        payload: { dialogueId: dialogue.id, ...payload },
        headers,
      });
    const summaryKey = key();
    const whole = await summarize({}, { 'idempotency-key': summaryKey });
    expect(whole.statusCode, whole.body).toBe(201);
    expect(whole.body).toContain(gone);
    const covering = await ok(
      api,
      { method: 'POST', url: `${V1}/summary`, payload: { dialogueId: dialogue.id, endId: 'm1' } },
      201,
    );
    // The dialogue's summary is last a range that leaves the message out: it stays.
    const apart = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/summary`,
        payload: { dialogueId: dialogue.id, startId: 'm2', endId: 'm3' },
      },
      201,
    );
    expect(apart.content).toContain(kept);
    expect(apart.content).not.toContain(gone);
    expect(await dataDump(ctx.database)).toContain(gone);

    await ok(api, { method: 'DELETE', url: `${V1}/message/m1?dialogueId=${dialogue.id}` });

    const dump = await dataDump(ctx.database);
    expect(dump).not.toContain(gone);
    expect(dump).toContain(kept);
    for (const id of [(whole.json() as { id: string }).id, covering.id]) {
      expectError(await api({ method: 'GET', url: `${V1}/summary/${id}` }), 404, 'SUMMARY_NOT_FOUND');
    }
    expect(await ok(api, { method: 'GET', url: `${V1}/summary/${apart.id}` })).toEqual(apart);
    const after = await ok(api, { method: 'GET', url: `${V1}/dialogue/${dialogue.id}` });
    expect((after.summary as { text: string }).text).toBe(apart.content);
    // The stored response of the summary is a tombstone: its retry is refused and runs nothing.
    const retried = await summarize({}, { 'idempotency-key': summaryKey });
    expect(expectError(retried, 409, 'RESOURCE_CONFLICT').message).toMatch(/deleted/);

    // Deleting a message the dialogue's summary covers clears it too.
    await ok(api, { method: 'DELETE', url: `${V1}/message/m3?dialogueId=${dialogue.id}` });
    expectError(await api({ method: 'GET', url: `${V1}/summary/${apart.id}` }), 404, 'SUMMARY_NOT_FOUND');
    expect((await ok(api, { method: 'GET', url: `${V1}/dialogue/${dialogue.id}` })).summary).toBeNull();
    expect(await dataDump(ctx.database)).not.toContain('pickup on Friday');
  });

  it('answers a retried key whose object was deleted with 409, and writes nothing', async () => {
    const { api } = state;
    const createKey = key();
    const value = `remember ${marker()}`;
    const create = () =>
      api({
        method: 'POST',
        url: `${V1}/memory`,
        headers: { 'idempotency-key': createKey },
        payload: { value },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const { id } = first.json() as { id: string };
    expect((await create()).headers['idempotent-replayed']).toBe('true');
    await ok(api, { method: 'DELETE', url: `${V1}/memory/${id}` });
    const retried = await create();
    expect(expectError(retried, 409, 'RESOURCE_CONFLICT').message).toMatch(/deleted/);
    const list = await ok(api, { method: 'GET', url: `${V1}/memory` });
    expect((list.items as { id: string }[]).map((m) => m.id)).not.toContain(id);
  });
});

describe('a message deleted while its dialogue is summarized (D73)', () => {
  /** Joins the texts it is given; before answering, runs `during` once (a concurrent delete). */
  const summarizer = {
    provider: 'test',
    model: 'echo',
    maxSummaryTokens: 1000,
    during: undefined as (() => Promise<void>) | undefined,
    async summarize(input: { previous: string | null; messages: readonly { text: string }[] }) {
      const during = summarizer.during;
      summarizer.during = undefined;
      await during?.();
      return [input.previous ?? '', ...input.messages.map((message) => message.text)].join(' ');
    },
  };
  const state = {} as { ctx: TestContext; api: Api };
  beforeAll(async () => {
    state.ctx = await createTestContext({}, { summarizer });
    state.api = asProject(state.ctx.app, await createProject(state.ctx.app));
  });
  afterAll(() => state.ctx.close());

  it('never stores a summary drawn on it', async () => {
    const { api, ctx } = state;
    const gone = marker();
    const dialogue = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        payload: {
          messages: [
            { role: 'user', content: `secret ${gone}` },
            { role: 'assistant', content: 'an answer that stays' },
          ],
        },
      },
      201,
    );
    const secretMessage = (dialogue.messages as { id: string }[])[0]!.id;
    summarizer.during = async () => {
      await ok(api, { method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}/messages/${secretMessage}` });
    };
    const compacted = await ok(api, { method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/compact` });
    // The round that read the deleted message was dropped and made again from what remains.
    expect(JSON.stringify(compacted.summary)).toContain('an answer that stays');
    expect(await dataDump(ctx.database)).not.toContain(gone);
  });

  it('never stores a summary record of a range drawn on it (D56)', async () => {
    const { api, ctx } = state;
    const gone = marker();
    const dialogue = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        payload: {
          messages: [
            { id: 'x1', role: 'user', content: `secret ${gone}` },
            { id: 'x2', role: 'assistant', content: 'a ranged answer that stays' },
          ],
        },
      },
      201,
    );
    summarizer.during = async () => {
      await ok(api, { method: 'DELETE', url: `${V1}/message/x1?dialogueId=${dialogue.id}` });
    };
    // The range's first message is gone when the round is made again: it is not found.
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/summary`,
        payload: { dialogueId: dialogue.id, startId: 'x1', endId: 'x2' },
      }),
      404,
      'MESSAGE_NOT_FOUND',
    );
    expect(await dataDump(ctx.database)).not.toContain(gone);
  });
});
