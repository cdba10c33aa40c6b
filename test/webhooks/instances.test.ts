import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { useReceivers } from '../helpers/webhook-receiver.js';

// D68: two instances on one PostgreSQL deliver together: claims with FOR UPDATE SKIP LOCKED
// (one project per statement) never hand one delivery to both, and a dialogue's events still
// arrive in seq order. Every third answer fails, so retries are shared too. The receiver is an
// HTTPS server with a self-signed certificate, trusted through WEBHOOK_CA_FILE.

const receivers = useReceivers();
const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_CA_FILE: receivers.caFile,
  WEBHOOK_RETRY_SCHEDULE_MS: '10,10,10,10,10,10',
  RATE_LIMIT_MAX: '1000000',
};

let ctx: TestContext;
let second: FastifyInstance;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) return;
  ctx = await createTestContext(ENV);
  second = await buildApp({ config: ctx.config, database: ctx.database.handle, validateResponses: true });
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await ctx?.close();
});

const succeeded = async (app: FastifyInstance) =>
  (await app.metrics.webhookDeliveries.get()).values
    .filter((value) => value.labels.outcome === 'succeeded')
    .reduce((sum, value) => sum + value.value, 0);

describe.runIf(process.env.TEST_DATABASE_URL)('two instances share the deliveries (D68)', () => {
  it('delivers each event once, in per-dialogue order, with both instances at work', {
    timeout: 60_000,
  }, async () => {
    let calls = 0;
    const receiver = await receivers.start(() => ({ status: ++calls % 3 === 0 ? 500 : 200 }));
    // One after the other: on Citus, concurrent writes to the reference table of projects can
    // deadlock across nodes (and are retried by nobody here).
    const projects = [];
    for (let p = 0; p < 4; p++) projects.push(await createProject(ctx.app));
    let expected = 0;
    await Promise.all(
      projects.map(async (project, p) => {
        const as = [asProject(ctx.app, project), asProject(second, project)];
        await as[0]!({
          method: 'POST',
          url: '/api/v1/webhooks',
          payload: { url: receiver.url, types: ['message.created'] },
        });
        const dialogues = await Promise.all(
          [0, 1].map(
            async () =>
              (await as[0]!({ method: 'POST', url: '/api/v1/dialogue', payload: {} })).json() as {
                id: string;
              },
          ),
        );
        for (let i = 0; i < 8; i++) {
          for (const [d, dialogue] of dialogues.entries()) {
            await as[(i + d + p) % 2]!({
              method: 'POST',
              url: '/api/v1/message',
              payload: { dialogueId: dialogue.id, role: 'user', content: `m${i}` },
            });
            expected++;
          }
        }
      }),
    );
    const ok = () => receiver.received.filter((_request, index) => (index + 1) % 3 !== 0);
    await eventually(() => new Set(ok().map((request) => request.headers['webhook-id'])).size === expected, {
      timeoutMs: 40_000,
    });
    // Every answer recorded (the counters move after the request), and any duplicate arrived.
    // As generous a wait as the deliveries': under a full parallel suite recording lags too.
    await eventually(async () => (await succeeded(ctx.app)) + (await succeeded(second)) >= expected, {
      timeoutMs: 40_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = ok().map((request) => String(request.headers['webhook-id']));
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);

    const byDialogue = new Map<string, number[]>();
    for (const request of ok()) {
      const event = JSON.parse(request.body) as { dialogueId: string; seq: number };
      byDialogue.set(event.dialogueId, [...(byDialogue.get(event.dialogueId) ?? []), event.seq]);
    }
    for (const seqs of byDialogue.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    const [first, other] = [await succeeded(ctx.app), await succeeded(second)];
    expect(first + other).toBe(expected);
    expect(first).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(0);
    await receiver.close();
  });
});
