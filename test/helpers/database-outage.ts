import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.js';
import { type Embedder, normalize } from '../../src/embedders/embedder.js';
import { ADMIN_TOKEN } from './app.js';
import type { capturedLogger } from './captured-logger.js';
import { type Api, V1 } from './dialogues.js';

// What the database-outage tests share (D77): an app on a given connection string, a load of
// writers and readers that accept only success or 503 with Retry-After, and the checks that no
// acknowledged write was lost. The default suite asserts the behaviour; the slow suite also the
// time bounds, which a loaded machine cannot be held to.

/** A deterministic embedder: the worker's calls need no model. */
export function fakeEmbedder(): Embedder {
  return {
    id: 'outage-test-8',
    dimensions: 8,
    async embed(texts) {
      return texts.map((text) =>
        normalize(Array.from({ length: 8 }, (_, i) => (text.charCodeAt(i % text.length) % 7) + 1)),
      );
    },
    async close() {},
  };
}

export interface Sent {
  dialogueId: string;
  id: string;
  key: string;
  status?: number;
  ms?: number;
}

export interface Outcome {
  status: number;
  ms: number;
  body: string;
  retryAfter: string | undefined;
}

export async function timed(
  request: Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>,
) {
  const start = performance.now();
  const response = await request;
  return {
    status: response.statusCode,
    ms: performance.now() - start,
    body: response.body,
    retryAfter: response.headers['retry-after'] as string | undefined,
  } satisfies Outcome;
}

/** The only answers D77 allows while the database comes and goes: success, or 503 with Retry-After. */
export function expectSucceededOrUnavailable(outcome: Outcome, success?: number) {
  if (success !== undefined && outcome.status === success) return;
  expect(outcome.status, outcome.body).toBe(503);
  expect(JSON.parse(outcome.body).error.code).toBe('SERVICE_UNAVAILABLE');
  expect(Number(outcome.retryAfter)).toBeGreaterThanOrEqual(1);
}

export function sendMessage(api: Api, message: Sent) {
  return timed(
    api({
      method: 'POST',
      url: `${V1}/message`,
      headers: { 'idempotency-key': message.key },
      payload: {
        dialogueId: message.dialogueId,
        id: message.id,
        role: 'user',
        content: `text of ${message.id}`,
      },
    }),
  );
}

/** Writers that send messages (each with its own Idempotency-Key) and readers, until stopped. */
export function startLoad(api: Api, dialogueIds: string[], writers: number, tag: string) {
  const sent: Sent[] = [];
  const reads: Outcome[] = [];
  let stopped = false;
  const writer = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const message: Sent = {
        dialogueId: dialogueIds[(w + n) % dialogueIds.length]!,
        id: `${tag}-w${w}-n${n}`,
        key: `${tag}-key-w${w}-n${n}`,
      };
      sent.push(message);
      const outcome = await sendMessage(api, message);
      expectSucceededOrUnavailable(outcome, 201);
      message.status = outcome.status;
      message.ms = outcome.ms;
      if (outcome.status === 503) await sleep(20);
    }
  };
  const reader = async () => {
    for (let n = 0; !stopped; n++) {
      const outcome = await timed(
        api({
          method: 'GET',
          url: `${V1}/messages?dialogueId=${dialogueIds[n % dialogueIds.length]}&limit=5`,
        }),
      );
      expectSucceededOrUnavailable(outcome, 200);
      reads.push(outcome);
      if (outcome.status === 503) await sleep(20);
    }
  };
  const running = Promise.all([...Array.from({ length: writers }, (_, w) => writer(w)), reader()]);
  // A failed expectation surfaces from stop(), not as an unhandled rejection meanwhile.
  running.catch(() => {});
  return {
    sent,
    reads,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** Retries every write that got 503 with its own Idempotency-Key (D77); then all must be stored once. */
export async function retryUnacknowledged(api: Api, sent: Sent[]) {
  for (const message of sent.filter((m) => m.status === 503)) {
    const outcome = await sendMessage(api, message);
    expect(outcome.status, outcome.body).toBe(201);
  }
}

export async function storedIds(db: DatabaseHandle['db'], prefix: string): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM messages WHERE id LIKE ${`${prefix}-%`}`),
  );
  return rows.map((row) => row.id);
}

export async function openApp(
  url: string,
  handleOptions: { connectTimeoutMs: number; statementTimeoutMs: number; poolMax: number },
  extra: { embedder?: Embedder; logger?: ReturnType<typeof capturedLogger>['logger'] } = {},
) {
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'unused', ...handleOptions });
  const config = configFrom({
    ADMIN_TOKEN,
    // The embedder, if any, is given to buildApp below; none is made from the configuration.
    EMBEDDINGS: 'none',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    RATE_LIMIT_MAX: '1000000',
  });
  const app = await buildApp({
    config,
    database: handle,
    embedder: extra.embedder ?? null,
    logger: extra.logger,
  });
  await app.ready();
  return { app, handle };
}
