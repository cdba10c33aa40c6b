import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/db/client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, asProject, createProject, createTestContext, expectError } from './helpers/app.js';
import { dataDump } from './helpers/data-dump.js';
import { type Api, V1, createDialogue } from './helpers/dialogues.js';
import { createErasureService } from '../src/modules/erasures/service.js';

// D162-D165: forgetting an end user. After DELETE /namespaces/{ns} the namespace reads as empty at
// once and takes no new objects; the background erasure deletes it batch by batch (the batch size
// is 3 here, the namespace holds 7 objects) through the same code as deletes, and the database then
// holds no byte of its content; its receipt is the `namespace.erased` event. The worker's polling
// is off (an hour): the test runs the erasure's rounds itself, so that every step is observed.

const marker = () => `zq${randomBytes(6).toString('hex')}mark`;

let ctx: TestContext;
let api: Api;
let other: Api;

beforeAll(async () => {
  ctx = await createTestContext({
    ERASURE_BATCH_SIZE: '3',
    ERASURE_POLL_MS: '3600000',
    // Webhook copies are made by replays here; nothing is sent.
    WEBHOOK_WORKER: 'false',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  api = asProject(ctx.app, await createProject(ctx.app));
  other = asProject(ctx.app, await createProject(ctx.app));
});
afterAll(() => ctx.close());

async function ok(client: Api, options: Parameters<Api>[0], status = 200) {
  const response = await client(options);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as Record<string, unknown> & { id: string };
}

/** A namespace's dialogues (with messages, one a thread of another) and memories, all carrying `secret`. */
async function fill(client: Api, namespace: string, secret: string) {
  const dialogues: string[] = [];
  for (let i = 0; i < 5; i++) {
    const dialogue = await createDialogue(client, {
      namespace,
      label: `label ${secret}`,
      tags: [secret],
      state: { note: secret },
      ...(i === 1 ? { threadOf: dialogues[0] } : {}),
      messages: [
        { role: 'user', content: `I am ${secret} and live at 12 Elm Street` },
        { role: 'assistant', content: [{ type: 'text', text: `Noted, ${secret}.` }] },
      ],
    });
    dialogues.push(dialogue.id);
  }
  // A keyed write: its stored answer holds the content too (D73).
  await ok(
    client,
    {
      method: 'POST',
      url: `${V1}/message`,
      headers: { 'idempotency-key': `key-${namespace}-${client === api ? 'a' : 'b'}` },
      payload: { dialogueId: dialogues[2], namespace, role: 'user', content: `again ${secret}` },
    },
    201,
  );
  for (let i = 0; i < 2; i++) {
    await ok(
      client,
      { method: 'POST', url: `${V1}/memory`, payload: { namespace, label: secret, value: { secret, i } } },
      201,
    );
  }
  return dialogues;
}

const erase = (client: Api, namespace: string) =>
  client({ method: 'DELETE', url: `${V1}/namespaces/${encodeURIComponent(namespace)}` });

describe('erasing a namespace (D162-D165)', () => {
  it('hides the namespace at once, refuses writes into it, erases it in batches and leaves no byte of it', async () => {
    const gone = marker();
    const kept = marker();
    const elsewhere = marker();
    const ids = await fill(api, 'user-gone', gone);
    await fill(api, 'user-kept', kept);
    // Another project's namespace of the same name is another user's.
    await fill(other, 'user-gone', elsewhere);

    const requested = await erase(api, 'user-gone');
    expect(requested.statusCode, requested.body).toBe(202);
    const record = requested.json() as { id: string; status: string; namespace: string };
    expect(record).toMatchObject({ namespace: 'user-gone', status: 'pending', completedAt: null });

    // A retry while it is pending answers the same record.
    const retried = await erase(api, 'user-gone');
    expect(retried.statusCode).toBe(202);
    expect(retried.json().id).toBe(record.id);

    // Reads answer as empty from now on.
    expect((await ok(api, { method: 'GET', url: `${V1}/dialogue?namespace=user-gone` })).items).toEqual([]);
    expect((await ok(api, { method: 'GET', url: `${V1}/memory?namespace=user-gone` })).items).toEqual([]);
    const listed = (await ok(api, { method: 'GET', url: `${V1}/dialogue?limit=100` })).items as {
      id: string;
    }[];
    expect(listed.some((d) => ids.includes(d.id))).toBe(false);
    expectError(await api({ method: 'GET', url: `${V1}/dialogue/${ids[0]}` }), 404, 'DIALOGUE_NOT_FOUND');
    expectError(
      await api({ method: 'GET', url: `${V1}/messages?dialogueId=${ids[0]}&namespace=user-gone` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );

    // Writes into it are refused whole, and change nothing.
    expectError(
      await api({ method: 'POST', url: `${V1}/dialogue`, payload: { namespace: 'user-gone' } }),
      409,
      'NAMESPACE_ERASING',
    );
    expectError(
      await api({ method: 'POST', url: `${V1}/memory`, payload: { namespace: 'user-gone', value: 'x' } }),
      409,
      'NAMESPACE_ERASING',
    );
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: ids[3], namespace: 'user-gone', role: 'user', content: 'late' },
      }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    const keptDialogue = await createDialogue(api, { namespace: 'user-kept' });
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/dialogue/${keptDialogue.id}/fork`,
        payload: { namespace: 'user-gone' },
      }),
      409,
      'NAMESPACE_ERASING',
    );

    // The background work: 5 dialogues and 2 memories in batches of 3, then the completion.
    expect(await ctx.app.services.erasures.runDue()).toBe(1);

    const done = await ok(api, { method: 'GET', url: `${V1}/erasures/${record.id}` });
    expect(done).toMatchObject({
      id: record.id,
      namespace: 'user-gone',
      status: 'completed',
      counts: { dialogues: 5, messages: 11, memories: 2 },
    });
    expect(done.completedAt).not.toBeNull();

    // The receipt.
    const events = (await ok(api, { method: 'GET', url: `${V1}/events?after=0&limit=1000&type=namespace.*` }))
      .items as { type: string; objectId: string; namespace: string; data: Record<string, unknown> }[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'namespace.erased',
      objectId: record.id,
      namespace: 'user-gone',
    });
    expect(events[0]!.data).toEqual(done);

    // Not a byte of the erased content is left; the other namespace and project keep theirs.
    const dump = await dataDump(ctx.database);
    expect(dump).not.toContain(gone);
    expect(dump).toContain(kept);
    expect(dump).toContain(elsewhere);
    expect(
      (await ok(other, { method: 'GET', url: `${V1}/dialogue?namespace=user-gone` })).items as unknown[],
    ).toHaveLength(5);
    expect((await ok(api, { method: 'GET', url: `${V1}/dialogue?namespace=user-kept` })).items).toHaveLength(
      6,
    );

    // A retry of the keyed write finds its answer erased (D73), and the namespace takes writes again.
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/message`,
        headers: { 'idempotency-key': 'key-user-gone-a' },
        payload: { dialogueId: ids[2], namespace: 'user-gone', role: 'user', content: `again ${gone}` },
      }),
      409,
      'RESOURCE_CONFLICT',
    );
    await createDialogue(api, { namespace: 'user-gone' });
  });

  it("shows the namespace's summaries and event data as gone from the request on, before the erasure reaches them (D167, D168)", async () => {
    const secret = marker();
    const dialogue = await createDialogue(api, {
      namespace: 'user-feed',
      messages: [
        { role: 'user', content: `I am ${secret}` },
        { role: 'assistant', content: `Hello, ${secret}.` },
      ],
    });
    await ok(api, { method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/compact?namespace=user-feed` });
    const summaries = await ok(api, {
      method: 'GET',
      url: `${V1}/summary?dialogueId=${dialogue.id}&namespace=user-feed`,
    });
    const summaryId = (summaries.items as { id: string }[])[0]!.id;
    await ok(api, { method: 'GET', url: `${V1}/summary/${summaryId}` });
    const stays = await createDialogue(api, {
      namespace: 'user-stays',
      messages: [{ role: 'user', content: `kept ${secret}` }],
    });
    const hook = await ok(
      api,
      { method: 'POST', url: `${V1}/webhooks`, payload: { url: 'http://127.0.0.1:9/hook' } },
      201,
    );
    type Event = {
      id: string;
      seq: number;
      type: string;
      objectId: string;
      dialogueId: string | null;
      data: unknown;
    };
    const feedOf = async (dialogueId: string) =>
      (await ok(api, { method: 'GET', url: `${V1}/events?after=0&limit=1000&dialogueId=${dialogueId}` }))
        .items as Event[];
    const before = await feedOf(dialogue.id);
    expect(JSON.stringify(before)).toContain(secret);

    expect((await erase(api, 'user-feed')).statusCode).toBe(202);

    expectError(await api({ method: 'GET', url: `${V1}/summary/${summaryId}` }), 404, 'SUMMARY_NOT_FOUND');
    // The same events, in the same order, with what their deletion will leave as data.
    const during = await feedOf(dialogue.id);
    expect(during.map(({ id, seq, type }) => ({ id, seq, type }))).toEqual(
      before.map(({ id, seq, type }) => ({ id, seq, type })),
    );
    for (const event of during) {
      expect(event.data).toEqual(
        event.objectId === event.dialogueId
          ? { id: event.objectId, deleted: true }
          : { id: event.objectId, dialogueId: event.dialogueId, deleted: true },
      );
    }
    // Another namespace's events keep their data.
    expect(JSON.stringify(await feedOf(stays.id))).toContain(`kept ${secret}`);

    // Copies made for webhook deliveries (a replay of every event) carry no content of it either.
    const replayed = await ok(
      api,
      {
        method: 'POST',
        url: `${V1}/webhooks/${hook.id}/replay`,
        payload: { after: 0 },
      },
      202,
    );
    expect(replayed.queued).toBeGreaterThan(0);
    const copies = JSON.stringify(
      rowsOf(
        await ctx.app.db.execute(sql`SELECT data FROM webhook_deliveries WHERE endpoint_id = ${hook.id}`),
      ),
    );
    expect(copies).toContain(`kept ${secret}`);
    expect(copies.split(secret)).toHaveLength(2);

    expect(await ctx.app.services.erasures.runDue()).toBe(1);
    expect(await feedOf(dialogue.id)).toEqual(expect.arrayContaining(during));
    expect(await dataDump(ctx.database)).not.toContain(`I am ${secret}`);
  });

  it('erases an empty namespace with zero counts, and answers an unknown erasure 404', async () => {
    const response = await erase(api, 'nobody');
    expect(response.statusCode).toBe(202);
    await ctx.app.services.erasures.runDue();
    expect(await ok(api, { method: 'GET', url: `${V1}/erasures/${response.json().id}` })).toMatchObject({
      status: 'completed',
      counts: { dialogues: 0, messages: 0, memories: 0 },
    });
    expectError(await api({ method: 'GET', url: `${V1}/erasures/era_missing` }), 404, 'RESOURCE_NOT_FOUND');
    // Another project does not see it.
    expectError(
      await other({ method: 'GET', url: `${V1}/erasures/${response.json().id}` }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expectError(
      await api({ method: 'DELETE', url: `${V1}/namespaces/${'n'.repeat(129)}` }),
      400,
      'INVALID_PARAMETER',
    );
  });

  it('is resumed by another instance once the lease of a stopped one runs out, and never run by two at once', async () => {
    const secret = marker();
    await fill(api, 'user-crash', secret);
    const record = (await erase(api, 'user-crash')).json() as { id: string };
    const { dialogues, memories, outbox, eventSequencer } = ctx.app.services;
    let clock = Date.now();
    const instance = () =>
      createErasureService({
        db: ctx.app.db,
        readDb: ctx.app.db,
        dialogues,
        memories,
        outbox,
        sequencer: eventSequencer,
        batchSize: 3,
        leaseMs: 60_000,
        now: () => clock,
      });
    // The first instance stops after one batch (as a crash would), keeping its lease.
    let checks = 0;
    expect(await instance().runDue(() => checks++ >= 2)).toBe(0);
    const halfway = await ok(api, { method: 'GET', url: `${V1}/erasures/${record.id}` });
    expect(halfway).toMatchObject({ status: 'pending', counts: { dialogues: 3, memories: 0 } });
    // Another instance leaves it alone while the lease holds, and takes it over after.
    const other = instance();
    expect(await other.runDue()).toBe(0);
    clock += 61_000;
    expect(await other.runDue()).toBe(1);
    expect(await ok(api, { method: 'GET', url: `${V1}/erasures/${record.id}` })).toMatchObject({
      status: 'completed',
      counts: { dialogues: 5, messages: 11, memories: 2 },
    });
    expect(await dataDump(ctx.database)).not.toContain(secret);
  });
});
