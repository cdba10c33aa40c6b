import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { rowsOf } from '../../src/db/client.js';
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
import { observingStatements } from '../helpers/explain.js';
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
    // Every project names its dialogue and turns alike (ids chosen by the client are unique only
    // within a project): one project's vectors must not stand in for another's.
    /** A project with a dialogue and its first turn, embedded before the rest is written. */
    const begin = async () => {
      const project = await createProject(ctx.app);
      const as = asProject(ctx.app, project);
      await createDialogue(as, { id: 'house-keys', label: 'house keys' });
      await addMessage(as, 'house-keys', { id: 'turn-0', role: 'user', content: 'we moved in last spring' });
      return { project, as };
    };
    /** Four more turns and a memory; the memory's id. */
    const rest = async ({ as }: Awaited<ReturnType<typeof begin>>) => {
      const turns = ['where is the spare key', 'under the blue pot', 'which blue pot', 'the one by the door'];
      for (const [i, content] of turns.entries())
        await addMessage(as, 'house-keys', {
          id: `turn-${i + 1}`,
          role: i % 2 ? 'assistant' : 'user',
          content,
        });
      const memory = await as({ method: 'POST', url: `${V1}/memory`, payload: { value: 'keys: blue pot' } });
      expect(memory.statusCode, memory.body).toBe(201);
      return (memory.json() as { id: string }).id;
    };
    /** The project's vectors: its five turns', then its memory's. */
    const vectorsOf = async ({ project }: Awaited<ReturnType<typeof begin>>, memoryId: string) => [
      ...(await Promise.all(
        [0, 1, 2, 3, 4].map((n) => storedVector('messages', `turn-${n}`, project.projectId)),
      )),
      await storedVector('memories', memoryId, project.projectId),
    ];
    const reference = await begin();
    await oneAtATime();
    const referenceMemory = await rest(reference);
    await oneAtATime();
    const expected = await vectorsOf(reference, referenceMemory);
    expect(expected.every((vector) => vector !== undefined)).toBe(true);

    // Two more projects, written alike; all their pending jobs go in one batch.
    const started = [await begin(), await begin()];
    await oneAtATime();
    const memories = [];
    for (const project of started) memories.push(await rest(project));
    let statements = 0;
    const counted = observingStatements(ctx.app.db, () => {
      statements++;
    });
    // Per project: 4 messages and 1 memory.
    expect(await processEmbeddingBatch({ db: counted, embedder, batchSize: 100 })).toBe(10);
    // The look for projects, a claim per project, then per project and kind of object one read of
    // the texts and two writes (the vectors, the jobs' removal), and per project one write of the
    // vector made again with its next turn (D181). One statement per job would be 1 + 2 + 30 + 2.
    expect(statements).toBe(1 + 2 + 3 * 2 * 2 + 2);
    const queued = await ctx.app.db.execute(sql`SELECT count(*)::int AS n FROM embedding_jobs`);
    expect(rowsOf<{ n: number }>(queued)[0]!.n).toBe(0);
    // Every object holds the vector it holds when its jobs run one at a time.
    for (const [n, project] of started.entries())
      expect(await vectorsOf(project, memories[n]!), project.project.projectId).toEqual(expected);
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

/** The stored vector of the object `id` (of the project given, where ids are not unique). */
async function storedVector(
  table: 'memories' | 'messages',
  id: string,
  projectId?: string,
): Promise<string | undefined> {
  const inProject = projectId ? sql` AND project_id = ${projectId}` : sql``;
  const result = await ctx.app.db.execute(
    sql`SELECT embedding::text AS vector FROM ${sql.raw(table)} WHERE id = ${id}${inProject} AND embedding IS NOT NULL`,
  );
  return rowsOf<{ vector: string }>(result)[0]?.vector;
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
