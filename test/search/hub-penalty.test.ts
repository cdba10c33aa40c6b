import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, asProject, createProject, createTestContext } from '../helpers/app.js';
import { type Api, V1, addMessage, createDialogue } from '../helpers/dialogues.js';
import { untilEmbedded } from '../helpers/embedding-queue.js';

// D141 with the default offline embedder: a generic line, close to every question in embedding
// space, no longer tops queries it does not answer.

let ctx: TestContext;
let api: Api;

beforeAll(async () => {
  ctx = await createTestContext({ EMBEDDINGS: 'local' });
  api = asProject(ctx.app, await createProject(ctx.app));
});
afterAll(async () => {
  await ctx.close();
});

describe('hub penalty (D141)', () => {
  it('keeps a generic line from topping unrelated questions', async () => {
    const namespace = 'hub';
    const dialogue = await createDialogue(api, { namespace });
    const generic = await addMessage(api, dialogue.id, {
      role: 'assistant',
      content: 'Wow, what happened? Tell me more, how did it go?',
      namespace,
    });
    for (const content of [
      'I adopted a beagle puppy last week',
      'We moved to Denver in March',
      'My sister opened a bakery downtown',
      'I finished the marathon in four hours',
      'The pottery class meets on Tuesdays',
      'Our roof leaked during the storm',
    ]) {
      await addMessage(api, dialogue.id, { role: 'user', content, namespace });
    }
    await untilEmbedded(ctx.app.db);
    const questions = [
      'What instrument does she play?',
      'Which book did he read on holiday?',
      'What did he think of the concert?',
      'Who won the chess tournament?',
      'Why was the family dinner cancelled?',
    ];
    for (const query of questions) {
      const response = await api({ method: 'POST', url: `${V1}/search`, payload: { query, namespace } });
      expect(response.statusCode, response.body).toBe(200);
      const { results, mode } = response.json() as { results: { item: { id: string } }[]; mode: string };
      expect(mode).toBe('hybrid');
      expect(results[0]?.item.id, query).not.toBe(generic.id);
    }
  });
});
