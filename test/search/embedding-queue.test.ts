import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Database, rowsOf } from '../../src/db/client.js';
import { createOpenAiEmbedder } from '../../src/embedders/openai.js';
import { claimJobs } from '../../src/modules/embeddings/repository.js';
import {
  drainEmbeddingQueue,
  processEmbeddingBatch,
  recentVectors,
  reindexEmbeddings,
} from '../../src/modules/embeddings/worker.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { type Api, V1, addMessage, createDialogue } from '../helpers/dialogues.js';
import { type FakeOpenAi, startFakeOpenAi } from '../helpers/openai-server.js';

// D40: the durable embedding queue, with a provider that fails on demand.

let server: FakeOpenAi;
let ctx: TestContext;
let api: Api;

beforeAll(async () => {
  server = await startFakeOpenAi({ dimensions: 64 });
  ctx = await createTestContext({
    EMBEDDINGS: 'openai',
    OPENAI_BASE_URL: server.baseURL,
    EMBEDDING_MODEL: 'model-b',
    EMBEDDING_DIMENSIONS: '64',
    // The tests drive the workers themselves.
    EMBEDDING_WORKER: 'false',
  });
  api = asProject(ctx.app, await createProject(ctx.app));
});
afterAll(async () => {
  await ctx.close();
  await server.close();
});

const embedderFor = (model: string) =>
  createOpenAiEmbedder({ baseURL: server.baseURL, model, dimensions: 64, maxRetries: 0 });

async function createMemory(value: string): Promise<string> {
  const response = await api({ method: 'POST', url: `${V1}/memory`, payload: { value } });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

async function jobOf(objectId: string) {
  const result = await ctx.app.db.execute(
    sql`SELECT attempts, last_error AS "lastError", run_at > now() AS delayed FROM embedding_jobs WHERE object_id = ${objectId}`,
  );
  return rowsOf<{ attempts: number; lastError: string | null; delayed: boolean }>(result)[0];
}

async function modelOf(table: 'memories' | 'messages', id: string): Promise<string | null> {
  const result = await ctx.app.db.execute(
    sql`SELECT embedding_model AS model FROM ${sql.raw(table)} WHERE id = ${id} AND embedding IS NOT NULL`,
  );
  return rowsOf<{ model: string }>(result)[0]?.model ?? null;
}

describe('embedding queue', () => {
  it('a write never calls the provider: its job commits with it and waits in the queue', async () => {
    const before = server.requests.length;
    const id = await createMemory('written without waiting for the provider');
    expect(server.requests.length).toBe(before);
    expect(await jobOf(id)).toMatchObject({ attempts: 0, lastError: null });
  });

  it('retries a provider that fails twice with backoff, then stores the vector', async () => {
    await drainUntilEmpty();
    const id = await createMemory('a provider that fails twice then succeeds');
    const embedder = await embedderFor('model-b');
    const options = { db: ctx.app.db, embedder, retryBaseMs: 500 };
    server.failNext(500, 503);

    expect(await processEmbeddingBatch(options)).toBe(1);
    const afterFirst = await jobOf(id);
    expect(afterFirst).toMatchObject({ attempts: 1, delayed: true });
    // The backoff put the job's next run in the future.
    expect(afterFirst!.lastError).toContain('500');

    await eventually(async () => (await processEmbeddingBatch(options)) > 0, { what: 'the second attempt' });
    expect(await jobOf(id)).toMatchObject({ attempts: 2 });
    await eventually(async () => (await processEmbeddingBatch(options)) > 0, { what: 'the third attempt' });
    expect(await jobOf(id)).toBeUndefined();
    expect(await modelOf('memories', id)).toBe('openai/model-b/64');
  });

  it('survives a restart mid-job: a claimed job returns to another worker when its lease ends', async () => {
    await drainUntilEmpty();
    const id = await createMemory('claimed by a worker that crashed');
    // A worker claims the job and dies before finishing it.
    const claimed = await claimJobs(ctx.app.db, 10, 300);
    expect(claimed.map((job) => job.objectId)).toContain(id);
    expect(await processEmbeddingBatch({ db: ctx.app.db, embedder: await embedderFor('model-b') })).toBe(0);

    // The server restarts on the same database, this time with its in-process worker.
    const restarted: FastifyInstance = await buildApp({
      config: { ...ctx.config, EMBEDDING_WORKER: true },
      database: ctx.database.handle,
    });
    await restarted.ready();
    try {
      await eventually(async () => (await modelOf('memories', id)) === 'openai/model-b/64', {
        what: 'the re-claimed job',
      });
      expect(await jobOf(id)).toBeUndefined();
    } finally {
      await restarted.close();
    }
  });

  it('re-embeds objects of another model instead of comparing them (D41)', async () => {
    await drainUntilEmpty();
    const id = await createMemory('a memory first embedded by model a');
    await drainEmbeddingQueue({ db: ctx.app.db, embedder: await embedderFor('model-a') });
    expect(await modelOf('memories', id)).toBe('openai/model-a/64');

    const embedderB = await embedderFor('model-b');
    expect(await reindexEmbeddings(ctx.app.db, embedderB)).toBeGreaterThanOrEqual(1);
    await drainEmbeddingQueue({ db: ctx.app.db, embedder: embedderB });
    expect(await modelOf('memories', id)).toBe('openai/model-b/64');
    expect(await reindexEmbeddings(ctx.app.db, embedderB)).toBe(0);
  });

  it('takes the turn before from the vectors it made lately instead of embedding it again (D177)', async () => {
    await drainUntilEmpty();
    const embedder = await embedderFor('model-b');
    const worker = { db: ctx.app.db, embedder, recent: recentVectors() };
    /** Runs the worker's batches until nothing is due; the texts that reached the provider. */
    const texts = async (options: Parameters<typeof processEmbeddingBatch>[0]) => {
      const sent = server.requests.length;
      while ((await processEmbeddingBatch(options)) > 0);
      return server.requests.slice(sent).flatMap((request) => request.body.input);
    };
    const remembered = await createDialogue(api);
    await addMessage(api, remembered.id, { role: 'user', content: 'the first turn of a chat' });
    expect(await texts(worker)).toEqual(['the first turn of a chat']);
    const second = await addMessage(api, remembered.id, { role: 'assistant', content: 'the second turn' });
    // The second turn's own text went to the provider; the first turn's vector was at hand.
    expect(await texts(worker)).toEqual(['the second turn']);

    // The stored vector is the one a worker without that memory makes (which sends both texts).
    const fresh = await createDialogue(api);
    await addMessage(api, fresh.id, { role: 'user', content: 'the first turn of a chat' });
    await drainUntilEmpty();
    const again = await addMessage(api, fresh.id, { role: 'assistant', content: 'the second turn' });
    expect((await texts({ db: ctx.app.db, embedder })).sort()).toEqual([
      'the first turn of a chat',
      'the second turn',
    ]);
    expect(await vectorOf(second.id)).toEqual(await vectorOf(again.id));
  });

  it('makes the message before a new one again with the new one as its next turn (D181)', async () => {
    await drainUntilEmpty();
    const embedder = await embedderFor('model-b');
    const worker = { db: ctx.app.db, embedder, recent: recentVectors() };
    const sentBy = async () => {
      const sent = server.requests.length;
      while ((await processEmbeddingBatch(worker)) > 0);
      return server.requests.slice(sent).flatMap((request) => request.body.input);
    };
    // One turn at a time: the first is embedded alone, then again once the reply is there.
    const stepwise = await createDialogue(api);
    const question = await addMessage(api, stepwise.id, { role: 'user', content: 'which pot for the basil' });
    await sentBy();
    const alone = await vectorOf(question.id);
    const reply = await addMessage(api, stepwise.id, { role: 'assistant', content: 'a clay one with holes' });
    // Only the new turn's text reaches the provider: the first turn's vector was at hand (D177).
    expect(await sentBy()).toEqual(['a clay one with holes']);
    expect(await vectorOf(question.id)).not.toEqual(alone);

    // Both turns written before either is embedded get the same vectors.
    const together = await createDialogue(api);
    const sameQuestion = await addMessage(api, together.id, {
      role: 'user',
      content: 'which pot for the basil',
    });
    const sameReply = await addMessage(api, together.id, {
      role: 'assistant',
      content: 'a clay one with holes',
    });
    await sentBy();
    expect(await vectorOf(sameQuestion.id)).toEqual(await vectorOf(question.id));
    expect(await vectorOf(sameReply.id)).toEqual(await vectorOf(reply.id));
  });

  it('stores a batch in statements per project and kind of object, not per job', async () => {
    await drainUntilEmpty();
    const embedder = await embedderFor('model-b');
    const oneAtATime = async () => {
      while ((await processEmbeddingBatch({ db: ctx.app.db, embedder, batchSize: 1 })) > 0);
    };
    /** A dialogue and its first turn, embedded before the rest is written. */
    const begin = async (as: Api) => {
      const dialogue = await createDialogue(as, { label: 'house keys' });
      const earlier = await addMessage(as, dialogue.id, { role: 'user', content: 'we moved in last spring' });
      return { as, dialogueId: dialogue.id, ids: [earlier.id] };
    };
    /** Four more turns and a memory; the ids of the turns and then the memory. */
    const rest = async ({ as, dialogueId, ids }: Awaited<ReturnType<typeof begin>>) => {
      const turns = ['where is the spare key', 'under the blue pot', 'which blue pot', 'the one by the door'];
      for (const [i, content] of turns.entries())
        ids.push((await addMessage(as, dialogueId, { role: i % 2 ? 'assistant' : 'user', content })).id);
      const memory = await as({ method: 'POST', url: `${V1}/memory`, payload: { value: 'keys: blue pot' } });
      expect(memory.statusCode, memory.body).toBe(201);
      ids.push((memory.json() as { id: string }).id);
      return ids;
    };
    const reference = await begin(api);
    await oneAtATime();
    await rest(reference);
    await oneAtATime();

    // Two more projects, written alike; all their pending jobs go in one batch.
    const started = [];
    for (let n = 0; n < 2; n++) started.push(await begin(asProject(ctx.app, await createProject(ctx.app))));
    await oneAtATime();
    const written = [];
    for (const project of started) written.push(await rest(project));
    let statements = 0;
    const counted = countingExecutor(ctx.app.db, () => statements++);
    // Per project: 4 messages and 1 memory.
    expect(await processEmbeddingBatch({ db: counted, embedder, batchSize: 100 })).toBe(10);
    // The look for projects, a claim per project, then per project and kind of object one read of
    // the texts and two writes (the vectors, the jobs' removal), and per project one write of the
    // vector made again with its next turn (D181). One statement per job would be 1 + 2 + 30 + 2.
    expect(statements).toBe(1 + 2 + 3 * 2 * 2 + 2);
    const queued = await ctx.app.db.execute(sql`SELECT count(*)::int AS n FROM embedding_jobs`);
    expect(rowsOf<{ n: number }>(queued)[0]!.n).toBe(0);
    // Every object holds the vector it holds when its jobs run one at a time.
    for (const ids of written)
      for (const [i, id] of ids.entries()) {
        const table = i === ids.length - 1 ? 'memories' : 'messages';
        const expected = await storedVector(table, reference.ids[i]!);
        expect(expected).toBeDefined();
        expect(await storedVector(table, id), `${table} ${id}`).toEqual(expected);
      }
  });

  it('deleting a memory, a message or a dialogue removes its pending jobs', async () => {
    await drainUntilEmpty();
    const memoryId = await createMemory('deleted before it was embedded');
    expect(await jobOf(memoryId)).toBeDefined();
    await api({ method: 'DELETE', url: `${V1}/memory/${memoryId}` });
    expect(await jobOf(memoryId)).toBeUndefined();

    const dialogue = await createDialogue(api, { label: 'pending jobs' });
    const first = await addMessage(api, dialogue.id, { role: 'user', content: 'first pending message' });
    const second = await addMessage(api, dialogue.id, { role: 'user', content: 'second pending message' });
    expect(await jobOf(first.id)).toBeDefined();
    await api({ method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}/messages/${first.id}` });
    expect(await jobOf(first.id)).toBeUndefined();
    expect(await jobOf(second.id)).toBeDefined();
    expect(await jobOf(dialogue.id)).toBeDefined();
    await api({ method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}` });
    expect(await jobOf(second.id)).toBeUndefined();
    expect(await jobOf(dialogue.id)).toBeUndefined();
  });
});

async function storedVector(table: 'memories' | 'messages', id: string): Promise<string | undefined> {
  const result = await ctx.app.db.execute(
    sql`SELECT embedding::text AS vector FROM ${sql.raw(table)} WHERE id = ${id} AND embedding IS NOT NULL`,
  );
  return rowsOf<{ vector: string }>(result)[0]?.vector;
}

/** `db` with `onStatement` called for every statement it runs, in its transactions too. */
function countingExecutor(db: Database, onStatement: () => void): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction')
        return (fn: (tx: Database) => Promise<unknown>) =>
          target.transaction((tx) => fn(countingExecutor(tx as Database, onStatement)));
      if (property !== 'execute') return Reflect.get(target, property, receiver);
      return (statement: Parameters<Database['execute']>[0]) => {
        onStatement();
        return target.execute(statement);
      };
    },
  });
}

async function vectorOf(messageId: string): Promise<string> {
  const vector = await storedVector('messages', messageId);
  expect(vector, `the vector of ${messageId}`).toBeDefined();
  return vector!;
}

async function drainUntilEmpty(): Promise<void> {
  const embedder = await embedderFor('model-b');
  await eventually(
    async () => {
      await drainEmbeddingQueue({ db: ctx.app.db, embedder, retryBaseMs: 10 }).catch(() => {});
      const result = await ctx.app.db.execute(sql`SELECT count(*)::int AS n FROM embedding_jobs`);
      return rowsOf<{ n: number }>(result)[0]!.n === 0;
    },
    { what: 'an empty queue' },
  );
}
