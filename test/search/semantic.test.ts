import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { type Api, V1, addMessage, createDialogue } from '../helpers/dialogues.js';
import { untilEmbedded } from '../helpers/embedding-queue.js';

// D40-D41 with the default offline embedder (USE lite in a worker thread) and the in-process
// queue worker, as `npm start` runs them.

interface Found {
  results: {
    relevance: number;
    item: { id: string; namespace: string | null; tags: string[]; metadata: Record<string, unknown> | null };
    matches?: { relevance: number; item: { id: string } }[];
  }[];
  mode: string;
}

let ctx: TestContext;
let api: Api;

beforeAll(async () => {
  ctx = await createTestContext({ EMBEDDINGS: 'local' });
  api = asProject(ctx.app, await createProject(ctx.app));
});
afterAll(async () => {
  await ctx.close();
});

async function search(body: Record<string, unknown>): Promise<Found> {
  const response = await api({ method: 'POST', url: `${V1}/search`, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Found;
}

describe('semantic search with the local model', () => {
  it('finds a message that shares no word with the query, once embedded', async () => {
    const dialogue = await createDialogue(api, { namespace: 'ivy' });
    const cancelled = await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'The airline cancelled my flight to Lisbon this morning',
      namespace: 'ivy',
    });
    for (const content of [
      'Can you recommend a good pasta recipe with garlic?',
      'My laptop battery drains in two hours',
      'The tomato plants on the balcony need more sun',
      'Our quarterly budget meeting moved to Thursday',
    ]) {
      await addMessage(api, dialogue.id, { role: 'user', content, namespace: 'ivy' });
    }
    // The query's words appear in none of the messages: full text alone finds nothing.
    const query = { query: 'my plane trip got called off', namespace: 'ivy' };
    await untilEmbedded(ctx.app.db);
    const found = await search(query);
    expect(found.mode).toBe('hybrid');
    expect(found.results[0]!.item.id).toBe(cancelled.id);
    expect(found.results[0]!.relevance).toBeGreaterThan(0);
    expect(found.results[0]!.relevance).toBeLessThanOrEqual(1);

    const vectors = await ctx.app.db.execute(
      sql`SELECT embedding_model, vector_dims(embedding) AS dims FROM messages WHERE id = ${cancelled.id}`,
    );
    expect(rowsOf(vectors)[0]).toEqual({ embedding_model: 'use-lite-512', dims: 512 });
  });

  it('keeps namespaces apart on the semantic path too', async () => {
    const other = await createDialogue(api, { namespace: 'jack' });
    await addMessage(api, other.id, {
      role: 'user',
      content: 'Our flight to Madrid was cancelled by the airline',
      namespace: 'jack',
    });
    await untilEmbedded(ctx.app.db);
    const found = await search({ query: 'my plane trip got called off', namespace: 'ivy' });
    const ids = new Set(found.results.map((r) => r.item.id));
    const jackIds = await ctx.app.db.execute(sql`SELECT id FROM messages WHERE namespace = 'jack'`);
    for (const { id } of rowsOf<{ id: string }>(jackIds)) expect(ids.has(id)).toBe(false);
  });

  it('finds memories and dialogues by meaning', async () => {
    const memory = (
      await api({
        method: 'POST',
        url: `${V1}/memory`,
        payload: { label: 'diet', value: 'Does not eat meat or fish' },
      })
    ).json() as { id: string };
    await api({
      method: 'POST',
      url: `${V1}/memory`,
      payload: { label: 'car', value: 'Drives a blue hatchback' },
    });
    const dialogue = await createDialogue(api, { label: 'Wedding venue and catering plans' });
    await createDialogue(api, { label: 'Laptop repair ticket' });
    await untilEmbedded(ctx.app.db);
    const memories = await search({ query: 'is the user a vegetarian', object: 'memory' });
    expect(memories.results[0]!.item.id).toBe(memory.id);
    const dialogues = await search({ query: 'organising our marriage celebration', object: 'dialogue' });
    expect(dialogues.results[0]!.item.id).toBe(dialogue.id);
  });

  it('finds by meaning across the whole project (D51), with D59 filters inside the vector scan', async () => {
    const say = async (
      namespace: string,
      content: string,
      tags: string[],
      metadata: Record<string, unknown>,
    ) => {
      const dialogue = await createDialogue(api, { namespace, label: 'Support chat' });
      const message = await addMessage(api, dialogue.id, {
        role: 'user',
        content,
        namespace,
        tags,
        metadata,
      });
      await addMessage(api, dialogue.id, {
        role: 'user',
        content: 'Thanks, that is all for today',
        namespace,
      });
      return { dialogue: dialogue.id, message: message.id };
    };
    const kim = await say('kim', 'The carrier scrapped my journey to Rome at the last minute', ['travel'], {
      priority: 2,
    });
    const lee = await say('lee', 'Our departure to Berlin was scrapped by the carrier', ['travel'], {
      priority: 5,
    });
    await say('lee', 'The bakery ran out of rye bread again', ['food'], { priority: 9 });
    await untilEmbedded(ctx.app.db);
    // No word of the query is in any answer: only the vectors can find them.
    const query = 'my plane trip got called off';

    const everywhere = await search({ query, limit: 6 });
    expect(everywhere.mode).toBe('hybrid');
    const found = everywhere.results.map((r) => r.item.id);
    expect(found).toContain(kim.message);
    expect(found).toContain(lee.message);
    expect(new Set(everywhere.results.map((r) => r.item.namespace)).size).toBeGreaterThan(1);

    const kimOnly = await search({ query, namespace: 'kim' });
    expect(kimOnly.results[0]!.item.id).toBe(kim.message);
    expect(kimOnly.results.every((r) => r.item.namespace === 'kim')).toBe(true);

    const urgent = await search({ query, metadata: { priority: { $gt: 3 } } });
    expect(urgent.results[0]!.item.id).toBe(lee.message);
    expect(urgent.results.every((r) => Number(r.item.metadata?.priority) > 3)).toBe(true);

    const notTravel = await search({ query, tags: { $nin: ['travel'] }, limit: 20 });
    expect(notTravel.results.every((r) => !r.item.tags.includes('travel'))).toBe(true);

    // A dialogue's matches come from its messages by meaning too.
    const dialogues = await search({ query, object: 'dialogue', namespace: 'kim' });
    expect(dialogues.results[0]!.item.id).toBe(kim.dialogue);
    expect(dialogues.results[0]!.matches![0]!.item.id).toBe(kim.message);
  });

  it("creates the partial HNSW index of the configured model, in the store's precision (D172, D175)", async () => {
    const result = await ctx.app.db.execute(
      sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexdef LIKE '%hnsw%'`,
    );
    const [index] = rowsOf<{ indexdef: string }>(result);
    // Half precision on PostgreSQL; full on PGlite, where half-precision builds are 5-7x slower.
    const type = ctx.database.handle.kind === 'pglite' ? 'vector' : 'halfvec';
    expect(index!.indexdef).toContain(`::${type}(512)`);
    expect(index!.indexdef).toContain(`${type}_cosine_ops`);
    expect(index!.indexdef).toContain("embedding_model = 'use-lite-512'");
  });
});
