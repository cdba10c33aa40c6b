import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { rowsOf } from '../../src/db/client.js';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { type Received, useReceivers } from '../helpers/webhook-receiver.js';

// D67-D70 through a real HTTPS receiver on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE for it) whose
// self-signed certificate the sender verifies (WEBHOOK_CA_FILE trusts it), signatures verified
// with the standardwebhooks package. Retry delays are a few milliseconds.

const receivers = useReceivers();
const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_CA_FILE: receivers.caFile,
  WEBHOOK_RETRY_SCHEDULE_MS: '10,10,10,10',
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext(ENV);
});
afterAll(async () => {
  await ctx.close();
});

interface Created {
  id: string;
  secret: string;
}

async function register(
  project: TestProject,
  url: string,
  extra: Record<string, unknown> = {},
): Promise<Created> {
  const response = await asProject(
    ctx.app,
    project,
  )({
    method: 'POST',
    url: '/api/v1/webhooks',
    payload: { url, ...extra },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Created;
}

const parsed = (request: Received) =>
  JSON.parse(request.body) as {
    id: string;
    seq: number;
    type: string;
    dialogueId: string;
    data: { content?: string };
  };

describe('webhook delivery (D68)', () => {
  it('delivers every event once in the end, in per-dialogue order, signed, through failed attempts', async () => {
    // The first two requests fail: they are retried with backoff.
    const receiver = await receivers.start((_request, index) => ({ status: index < 2 ? 500 : 204 }));
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const endpoint = await register(project, receiver.url);
    const dialogue = (
      await as({
        method: 'POST',
        url: '/api/v1/dialogue',
        payload: {
          messages: [
            { role: 'user', content: 'one' },
            { role: 'user', content: 'two' },
          ],
        },
      })
    ).json() as { id: string };
    await as({
      method: 'POST',
      url: `/api/v1/message?dialogueId=${dialogue.id}`,
      payload: { role: 'user', content: 'three' },
    });
    const feed = (await as({ method: 'GET', url: '/api/v1/events' })).json() as {
      items: { id: string; seq: number }[];
    };
    expect(feed.items.length).toBe(4);

    const succeeded = () => receiver.received.slice(2);
    await eventually(() => new Set(succeeded().map((request) => request.headers['webhook-id'])).size === 4);
    const verifier = new Webhook(endpoint.secret);
    for (const request of receiver.received) {
      expect(() => verifier.verify(request.body, request.headers as Record<string, string>)).not.toThrow();
      expect(request.headers['webhook-id']).toBe(parsed(request).id);
    }
    // Each event exactly once among the successes, and in seq order (one dialogue).
    const seqs = succeeded().map((request) => parsed(request).seq);
    expect(seqs).toEqual(feed.items.map((event) => event.seq));
    // A retry carries the same webhook-id.
    expect(receiver.received[0]!.headers['webhook-id']).toBe(receiver.received[1]!.headers['webhook-id']);
    expect(parsed(receiver.received.at(-1)!).data.content).toBe('three');

    const readLog = async () =>
      (await as({ method: 'GET', url: `/api/v1/webhooks/${endpoint.id}/deliveries` })).json() as {
        items: { status: string; attempt: number; responseStatus: number | null }[];
      };
    // Each answer is recorded just after the receiver got its request.
    await eventually(
      async () => (await readLog()).items.filter((item) => item.status === 'succeeded').length === 4,
    );
    const log = await readLog();
    expect(log.items.filter((item) => item.status === 'failed').map((item) => item.responseStatus)).toEqual([
      500, 500,
    ]);
    expect(log.items.filter((item) => item.status === 'succeeded')).toHaveLength(4);
    expect(Math.max(...log.items.map((item) => item.attempt))).toBe(3);
    // D72: the attempts in /metrics.
    const metrics = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/parley_webhook_deliveries_total\{outcome="succeeded"\} [4-9]/);
    expect(metrics).toMatch(/parley_webhook_deliveries_total\{outcome="failed"\} [2-9]/);
    expect(metrics).toMatch(/parley_webhook_delivery_seconds_count\{outcome="failed"\} [2-9]/);
    expect(metrics).toContain('# TYPE parley_webhook_oldest_pending_seconds gauge');
    await receiver.close();
  });

  it('keeps a dialogue waiting while its earlier event is retried; other dialogues go on', async () => {
    let failFirst = true;
    const receiver = await receivers.start((request) => {
      const event = parsed(request);
      if (failFirst && event.type === 'dialogue.created') {
        failFirst = false;
        return { status: 503 };
      }
      return { status: 200 };
    });
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    await register(project, receiver.url, { types: ['dialogue.created', 'message.*'] });
    const dialogue = (
      await as({
        method: 'POST',
        url: '/api/v1/dialogue',
        payload: { messages: [{ role: 'user', content: 'a' }] },
      })
    ).json() as { id: string };
    await eventually(() => receiver.received.filter((request) => request.headers['webhook-id']).length >= 3);
    const order = receiver.received.map((request) => parsed(request).type);
    // The failed dialogue.created came first, then again, and only then its message.
    expect(order).toEqual(['dialogue.created', 'dialogue.created', 'message.created']);
    expect(receiver.received.every((request) => parsed(request).dialogueId === dialogue.id)).toBe(true);
    await receiver.close();
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const receiver = await receivers.start();
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const endpoint = await register(project, receiver.url);
    const rotated = (
      await as({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/rotate-secret` })
    ).json() as Created;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
    await eventually(() => receiver.received.length === 1);
    const request = receiver.received[0]!;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret])
      expect(() =>
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>),
      ).not.toThrow();
    await receiver.close();
  });

  it('serves a project whose first events found no endpoint once one is registered', async () => {
    // The worker stops looking up endpoints for a project it found without any until its next
    // poll (most projects have none): an endpoint registered meanwhile still gets the next event.
    const receiver = await receivers.start();
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'nobody listens' } });
    await as({ method: 'GET', url: '/api/v1/events' });
    await register(project, receiver.url);
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'now somebody does' } });
    await eventually(() => receiver.received.length === 1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ data: { value: 'now somebody does' } });
    await receiver.close();
  });

  it('sends a test event whatever the types, and replays events after a seq', async () => {
    const receiver = await receivers.start();
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'before' } });
    const endpoint = await register(project, receiver.url, { types: ['dialogue.created'] });
    const test = await as({ method: 'POST', url: `/api/v1/webhooks/${endpoint.id}/test` });
    expect(test.statusCode).toBe(202);
    expect(test.json()).toMatchObject({ status: 'pending', attempt: 1, seq: null });
    await eventually(() => receiver.received.length === 1);
    expect(parsed(receiver.received[0]!).type).toBe('webhook.test');

    // The memory came before the endpoint and is not of its types: a replay of its type sends it.
    await as({ method: 'PATCH', url: `/api/v1/webhooks/${endpoint.id}`, payload: { types: ['memory.*'] } });
    const replay = await as({
      method: 'POST',
      url: `/api/v1/webhooks/${endpoint.id}/replay`,
      payload: { after: 0 },
    });
    expect(replay.statusCode).toBe(202);
    expect(replay.json()).toEqual({ queued: 1, next: 1 });
    await eventually(() => receiver.received.length === 2);
    expect(parsed(receiver.received[1]!)).toMatchObject({ type: 'memory.created', seq: 1 });
    await receiver.close();
  });

  it('does not follow redirects and keeps at most 1 KiB of a long answer', async () => {
    const receiver = await receivers.start((_request, index) =>
      index === 0
        ? { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }
        : { status: 200, body: 'x'.repeat(200_000) },
    );
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    const endpoint = await register(project, receiver.url);
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
    await eventually(async () => {
      const log = (await as({ method: 'GET', url: `/api/v1/webhooks/${endpoint.id}/deliveries` })).json() as {
        items: { status: string }[];
      };
      return log.items.some((item) => item.status === 'succeeded');
    });
    expect(receiver.received).toHaveLength(2);
    const rows = rowsOf<{ response_status: number; len: number }>(
      await ctx.app.db.execute(sql`SELECT response_status, length(response_body) AS len FROM webhook_attempts
        WHERE project_id = ${project.projectId} AND status <> 'pending' ORDER BY attempt`),
    );
    expect(rows.map((row) => Number(row.response_status))).toEqual([302, 200]);
    expect(Number(rows[1]!.len)).toBe(1024);
    await receiver.close();
  });

  it('ends an attempt that gets no answer within WEBHOOK_TIMEOUT_MS, and retries it', async () => {
    const local = await createTestContext({ ...ENV, WEBHOOK_TIMEOUT_MS: '200' });
    const receiver = await receivers.start((_request, index) =>
      index === 0 ? { hang: true } : { status: 200 },
    );
    try {
      const project = await createProject(local.app);
      const as = asProject(local.app, project);
      const created = (
        await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url } })
      ).json() as Created;
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      const log = async () =>
        (await as({ method: 'GET', url: `/api/v1/webhooks/${created.id}/deliveries` })).json() as {
          items: { status: string; error: string | null; attempt: number }[];
        };
      await eventually(async () => (await log()).items.some((item) => item.status === 'succeeded'));
      const failed = (await log()).items.find((item) => item.status === 'failed')!;
      expect(failed).toMatchObject({ attempt: 1, error: 'no answer within 200 ms' });
    } finally {
      await receiver.close();
      await local.close();
    }
  });

  it("delivers another project's events while one receiver hangs until its time limit (D90)", async () => {
    // The app's attempts wait WEBHOOK_TIMEOUT_MS (10 s) for an answer. Served one project at a
    // time, the other project would wait for that time limit; served side by side, its delivery
    // arrives while the hanging attempt is still open: nothing recorded for it, no retry sent.
    expect(ctx.config.WEBHOOK_TIMEOUT_MS).toBe(10_000);
    const hanging = await receivers.start(() => ({ hang: true }));
    const healthy = await receivers.start();
    try {
      const stalled = await createProject(ctx.app);
      const other = await createProject(ctx.app);
      const stalledEndpoint = await register(stalled, hanging.url);
      await register(other, healthy.url);
      await asProject(ctx.app, stalled)({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      await eventually(() => hanging.received.length === 1, {
        what: 'the hanging receiver to get its request',
      });

      await asProject(
        ctx.app,
        other,
      )({ method: 'POST', url: '/api/v1/memory', payload: { value: 'coffee' } });
      await eventually(() => healthy.received.length === 1, { what: "the other project's delivery" });
      const log = (
        await asProject(
          ctx.app,
          stalled,
        )({ method: 'GET', url: `/api/v1/webhooks/${stalledEndpoint.id}/deliveries` })
      ).json() as { items: { status: string }[] };
      expect(log.items.filter((item) => item.status !== 'pending')).toEqual([]);
      expect(hanging.received).toHaveLength(1);
      expect(parsed(healthy.received[0]!).type).toBe('memory.created');
    } finally {
      await hanging.close();
      await healthy.close();
    }
  });

  it('cuts an attempt short at shutdown and releases its claim for the next instance', async () => {
    const local = await createTestContext(ENV);
    const receiver = await receivers.start(() => ({ hang: true }));
    try {
      const project = await createProject(local.app);
      const as = asProject(local.app, project);
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url } });
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      await eventually(() => receiver.received.length === 1);
      // The attempt would wait 10 s for its answer; closing does not.
      const started = Date.now();
      await local.app.close();
      expect(Date.now() - started).toBeLessThan(local.config.SHUTDOWN_GRACE_MS);
      const [row] = rowsOf<{ attempts: number; locked_until: string | null; status: string }>(
        await local.database.handle.db.execute(
          sql`SELECT attempts, locked_until, status FROM webhook_deliveries WHERE project_id = ${project.projectId}`,
        ),
      );
      expect(row).toMatchObject({ attempts: 0, locked_until: null, status: 'pending' });
    } finally {
      await receiver.close();
      await local.database.close();
    }
  });

  it('prunes finished deliveries and their log after EVENTS_RETENTION_DAYS', async () => {
    const local = await createTestContext({ ...ENV, EVENTS_RETENTION_DAYS: String(1 / 86_400) });
    const receiver = await receivers.start();
    try {
      const project = await createProject(local.app);
      const as = asProject(local.app, project);
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url } });
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      await eventually(() => receiver.received.length === 1);
      const count = async () =>
        rowsOf<{ n: number }>(
          await local.app.db.execute(sql`SELECT
            (SELECT count(*) FROM webhook_deliveries WHERE project_id = ${project.projectId})
            + (SELECT count(*) FROM webhook_attempts WHERE project_id = ${project.projectId}) AS n`),
        )[0]!.n;
      await eventually(async () => Number(await count()) === 0);
    } finally {
      await receiver.close();
      await local.close();
    }
  });

  it('disables an endpoint that keeps failing past the threshold, with its reason', async () => {
    const local = await createTestContext({ ...ENV, WEBHOOK_DISABLE_AFTER_MS: '1' });
    const receiver = await receivers.start(() => ({ status: 500 }));
    try {
      const project = await createProject(local.app);
      const as = asProject(local.app, project);
      const created = (
        await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url } })
      ).json() as Created;
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      await eventually(async () => {
        const got = (await as({ method: 'GET', url: `/api/v1/webhooks/${created.id}` })).json() as {
          enabled: boolean;
        };
        return !got.enabled;
      });
      const got = (await as({ method: 'GET', url: `/api/v1/webhooks/${created.id}` })).json() as {
        disabledReason: string;
      };
      expect(got.disabledReason).toMatch(/answered 500/);
      const again = (
        await as({ method: 'PATCH', url: `/api/v1/webhooks/${created.id}`, payload: { enabled: true } })
      ).json() as { enabled: boolean; disabledReason: string | null };
      expect(again).toMatchObject({ enabled: true, disabledReason: null });
    } finally {
      await receiver.close();
      await local.close();
    }
  });

  it('erases a deleted dialogue from pending deliveries and the log (D70)', async () => {
    const receiver = await receivers.start(() => ({ status: 500, body: 'echo: secret-plum-word' }));
    const local = await createTestContext({ ...ENV, WEBHOOK_RETRY_SCHEDULE_MS: '600000' });
    try {
      const project = await createProject(local.app);
      const as = asProject(local.app, project);
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url } });
      const dialogue = (
        await as({
          method: 'POST',
          url: '/api/v1/dialogue',
          payload: { messages: [{ role: 'user', content: 'secret-plum-word' }] },
        })
      ).json() as { id: string };
      await eventually(() => receiver.received.length >= 1);
      await eventually(
        async () =>
          rowsOf(
            await local.app.db.execute(
              sql`SELECT 1 FROM webhook_attempts WHERE project_id = ${project.projectId} AND status = 'failed'`,
            ),
          ).length > 0,
      );
      expect((await as({ method: 'DELETE', url: `/api/v1/dialogue/${dialogue.id}` })).statusCode).toBe(200);
      const dump = rowsOf<{ text: string }>(
        await local.app.db.execute(sql`
          SELECT (SELECT coalesce(string_agg(d::text, ' '), '') FROM webhook_deliveries d WHERE d.project_id = ${project.projectId})
            || (SELECT coalesce(string_agg(a::text, ' '), '') FROM webhook_attempts a WHERE a.project_id = ${project.projectId}) AS text`),
      )[0]!.text;
      expect(dump).toContain(dialogue.id);
      expect(dump).not.toContain('secret-plum-word');
    } finally {
      await local.close();
      await receiver.close();
    }
  });

  it('resumes a delivery after a restart on the same database', async () => {
    let failing = true;
    const receiver = await receivers.start(() => ({ status: failing ? 500 : 200 }));
    const local = await createTestContext({
      ...ENV,
      WEBHOOK_RETRY_SCHEDULE_MS: '300,300,300,300,300,300,300,300',
    });
    try {
      const project = await createProject(local.app);
      const as = asProject(local.app, project);
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url } });
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      await eventually(() => receiver.received.length >= 1);
      await local.app.close();
      failing = false;
      const count = receiver.received.length;
      const second = await buildApp({ config: local.config, database: local.database.handle });
      await second.ready();
      try {
        await eventually(() => receiver.received.length > count);
        // The answer is recorded just after the receiver got the request.
        await eventually(
          async () =>
            rowsOf(
              await second.db.execute(
                sql`SELECT 1 FROM webhook_deliveries WHERE project_id = ${project.projectId} AND status = 'succeeded'`,
              ),
            ).length === 1,
        );
      } finally {
        await second.close();
      }
    } finally {
      await local.database.close();
      await receiver.close();
    }
  });
});
