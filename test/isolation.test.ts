import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from './helpers/app.js';
import { type Api, V1, addMessage, createDialogue, getDialogue } from './helpers/dialogues.js';
import {
  type IsolationCase,
  dialogueAndMessageCases,
  expectForeignLikeMissing,
  memoryCases,
  searchCases,
  summaryCases,
} from './helpers/isolation.js';
import { type FakeOpenAi, startFakeOpenAi } from './helpers/openai-server.js';
import { untilEmbedded } from './helpers/embedding-queue.js';

// D46: another project's dialogues, messages and memories answer exactly like ids that do not
// exist, and search finds nothing of them.

let ctx: TestContext;
let owner: TestProject;
let stranger: TestProject;
let embeddings: FakeOpenAi;

beforeAll(async () => {
  // With an embedder, so that search takes both its paths (hybrid: full text and vectors).
  embeddings = await startFakeOpenAi({ dimensions: 64 });
  // One address sends many requests without a valid key below: more than D76's default limit.
  ctx = await createTestContext({
    AUTH_FAILURE_LIMIT: '1000',
    EMBEDDINGS: 'openai',
    OPENAI_BASE_URL: embeddings.baseURL,
    EMBEDDING_MODEL: 'isolation-model',
    EMBEDDING_DIMENSIONS: '64',
  });
  owner = await createProject(ctx.app);
  stranger = await createProject(ctx.app);
});
afterAll(async () => {
  await ctx.close();
  await embeddings.close();
});

const allCases = (): IsolationCase[] => [
  ...dialogueAndMessageCases(),
  ...summaryCases(),
  ...memoryCases(),
  ...searchCases(),
];

async function createMemory(api: Api, body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await api({ method: 'POST', url: `${V1}/memory`, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

describe('cross-project isolation (D46)', () => {
  it("answers every route on a foreign project's ids exactly like on missing ids, changing nothing", async () => {
    const ownerApi = asProject(ctx.app, owner);
    const dialogue = await createDialogue(ownerApi, {
      namespace: 'shared-name',
      tags: ['secret'],
      state: { s: 1 },
      messages: [{ id: 'msg-1', role: 'user', content: 'private' }],
    });
    await createDialogue(ownerApi, { threadOf: dialogue.id, namespace: 'shared-name' });
    const before = await getDialogue(ownerApi, dialogue.id);

    await expectForeignLikeMissing(
      ctx.app,
      stranger,
      dialogueAndMessageCases(),
      { dialogueId: dialogue.id, messageId: 'msg-1', namespace: 'shared-name' },
      { dialogueId: 'dlg_01jzzzzzzzzzzzzzzzzzzzzzzz', messageId: 'msg-404', namespace: 'shared-name' },
    );

    const after = await getDialogue(ownerApi, dialogue.id);
    expect(after).toEqual(before);
    expect(after).toMatchObject({
      totalMessages: 1,
      threadCount: 1,
      tags: ['secret'],
      state: { s: 1 },
      status: 'active',
    });
  });

  it('answers every route without a valid key with 401 UNAUTHORIZED', async () => {
    const ids = {
      dialogueId: 'dlg_x',
      messageId: 'msg_x',
      memoryId: 'mem_x',
      summaryId: 'sum_x',
      namespace: 'n',
      word: 'w',
      tag: 't',
    };
    for (const { name, request } of allCases()) {
      for (const headers of [{}, { authorization: 'Bearer not-a-key' }]) {
        const response = await ctx.app.inject({ ...request(ids), headers });
        expect(response.statusCode, name).toBe(401);
        expect(response.json().error.code).toBe('UNAUTHORIZED');
      }
    }
  });

  it("never lists another project's dialogues", async () => {
    await createDialogue(asProject(ctx.app, owner), { tags: ['mine'] });
    const listed = await asProject(ctx.app, stranger)({ method: 'GET', url: `${V1}/dialogue?tag=mine` });
    expect(listed.json()).toEqual({ items: [], next: null });
  });

  it("answers every summary route on a foreign project's ids exactly like on missing ids, changing nothing", async () => {
    const ownerApi = asProject(ctx.app, owner);
    const dialogue = await createDialogue(ownerApi, {
      namespace: 'shared-name',
      messages: [{ role: 'user', content: 'private words to summarize' }],
    });
    const made = await ownerApi({
      method: 'POST',
      url: `${V1}/summary`,
      payload: { dialogueId: dialogue.id, id: 'owned-summary' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const list = () => ownerApi({ method: 'GET', url: `${V1}/summary?dialogueId=${dialogue.id}` });
    const before = (await list()).json();

    await expectForeignLikeMissing(
      ctx.app,
      stranger,
      summaryCases(),
      { dialogueId: dialogue.id, summaryId: 'owned-summary', namespace: 'shared-name' },
      {
        dialogueId: 'dlg_01jzzzzzzzzzzzzzzzzzzzzzzz',
        summaryId: 'missing-summary',
        namespace: 'shared-name',
      },
    );

    expect((await list()).json()).toEqual(before);
    expect(before.items).toHaveLength(1);
  });

  it("answers every memory route on a foreign project's ids exactly like on missing ids, changing nothing", async () => {
    const ownerApi = asProject(ctx.app, owner);
    const memory = await createMemory(ownerApi, {
      value: 'private memory',
      label: 'secret',
      namespace: 'shared-name',
      tags: ['secret'],
      metadata: { m: 1 },
    });
    const read = () => ownerApi({ method: 'GET', url: `${V1}/memory/${memory.id}` });
    const before = await read();

    await expectForeignLikeMissing(
      ctx.app,
      stranger,
      memoryCases(),
      { memoryId: memory.id, namespace: 'shared-name' },
      { memoryId: 'mem_01jzzzzzzzzzzzzzzzzzzzzzzz', namespace: 'shared-name' },
    );

    const after = await read();
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(before.json());
    expect(after.json()).toMatchObject({ value: 'private memory', label: 'secret', tags: ['secret'] });
  });

  it("answers search on a foreign dialogue like on a missing one, and never finds another project's items", async () => {
    const ownerApi = asProject(ctx.app, owner);
    const word = 'zanzibarquokka';
    const tag = 'owned';
    // The word in every kind of item, in the shared namespace and in none: messages, dialogues
    // (by their label and tags) and memories.
    const dialogues = [];
    for (const namespace of ['shared-name', undefined]) {
      const dialogue = await createDialogue(ownerApi, {
        ...(namespace ? { namespace } : {}),
        label: `${word} dialogue`,
        tags: [tag, word],
      });
      await addMessage(ownerApi, dialogue.id, {
        role: 'user',
        content: `the ${word} message`,
        tags: [tag],
        ...(namespace ? { namespace } : {}),
      });
      await createMemory(ownerApi, {
        value: `the ${word} memory`,
        tags: [tag],
        ...(namespace ? { namespace } : {}),
      });
      dialogues.push(dialogue);
    }
    await untilEmbedded(ctx.app.db);

    // The owner finds each item by the word, on both paths: the stranger's empty answers below
    // are not for want of anything to find.
    for (const object of ['message', 'dialogue', 'memory']) {
      for (const namespace of ['shared-name', undefined]) {
        const found = await ownerApi({
          method: 'POST',
          url: `${V1}/search`,
          payload: { query: word, object, tag, ...(namespace ? { namespace } : {}) },
        });
        expect(found.statusCode, found.body).toBe(200);
        expect(found.json().mode).toBe('hybrid');
        // D51: without a namespace the whole project is searched (both of the owner's items).
        expect(found.json().results, `${object} ${namespace}`).toHaveLength(namespace ? 1 : 2);
      }
    }

    await expectForeignLikeMissing(
      ctx.app,
      stranger,
      searchCases(),
      { dialogueId: dialogues[0]!.id, namespace: 'shared-name', word, tag },
      {
        dialogueId: 'dlg_01jzzzzzzzzzzzzzzzzzzzzzzz',
        namespace: 'shared-name',
        word: 'nowherefound',
        tag: 'nowhere',
      },
    );

    // Spelled out: the stranger's search for the owner's word finds nothing, on both paths.
    const strangerApi = asProject(ctx.app, stranger);
    for (const object of ['message', 'dialogue', 'memory']) {
      const found = await strangerApi({
        method: 'POST',
        url: `${V1}/search`,
        payload: { query: word, object },
      });
      expect(found.json()).toMatchObject({ results: [], mode: 'hybrid' });
    }
    const foreignDialogue = await strangerApi({
      method: 'POST',
      url: `${V1}/search`,
      payload: { query: word, dialogueId: dialogues[1]!.id },
    });
    expect(foreignDialogue.statusCode).toBe(404);
    expect(foreignDialogue.json().error.code).toBe('DIALOGUE_NOT_FOUND');
  });
});
