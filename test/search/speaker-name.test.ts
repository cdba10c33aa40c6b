import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { contentText, contentTextOf, messageSearchText } from '../../src/lib/content-text.js';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { type Api, V1, addMessage, createDialogue } from '../helpers/dialogues.js';

// D179: a message is found by the name of who said it as well as by its words. People ask about
// each other by name, and a person's own lines seldom name them: the lines that do are the other
// side's replies.

let ctx: TestContext;
let project: TestProject;
let api: Api;

beforeAll(async () => {
  ctx = await createTestContext();
  project = await createProject(ctx.app);
  api = asProject(ctx.app, project);
});
afterAll(async () => {
  await ctx.close();
});

async function search(body: Record<string, unknown>) {
  const response = await api({ method: 'POST', url: `${V1}/search`, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { results: { item: { id: string } }[] }).results.map((r) => r.item.id);
}

/** Postgres' English lexeme of one word, as the counts key it. */
async function lexemeOf(word: string): Promise<string> {
  const result = await ctx.app.db.execute(
    sql`SELECT tsvector_to_array(to_tsvector('english', ${word})) AS lexemes`,
  );
  return rowsOf<{ lexemes: string[] }>(result)[0]!.lexemes[0]!;
}

describe("a message's speaker (D179)", () => {
  it("ranks the named person's own line above the other side's line that names them", async () => {
    const namespace = 'speakers';
    const dialogue = await createDialogue(api, { namespace });
    const own = await addMessage(api, dialogue.id, {
      role: 'user',
      name: 'Caroline',
      content: 'I went to the pride parade last week with a few friends',
      namespace,
    });
    // As many of the query's words as Caroline's line holds without her name, and shorter: by
    // the words of the texts alone this reply leads.
    const reply = await addMessage(api, dialogue.id, {
      role: 'assistant',
      name: 'Melanie',
      content: 'Caroline, that parade sounds fun',
      namespace,
    });
    const found = await search({ query: 'When did Caroline go to the pride parade?', namespace });
    expect(found.slice(0, 2)).toEqual([own.id, reply.id]);
  });

  it("counts the speaker's name among the message's words, for the search's weights (D140)", async () => {
    const namespace = 'counted';
    const dialogue = await createDialogue(api, { namespace });
    for (const content of ['Good morning', 'The train was late again']) {
      await addMessage(api, dialogue.id, { role: 'user', name: 'Gertrude', content, namespace });
    }
    await addMessage(api, dialogue.id, { role: 'assistant', content: 'Sorry to hear it', namespace });
    const result = await ctx.app.db.execute(sql`
      SELECT sum(documents)::int AS documents FROM search_terms
      WHERE project_id = ${project.projectId} AND scope = ${namespace} AND lexeme = ${await lexemeOf('Gertrude')}`);
    expect(rowsOf<{ documents: number }>(result)[0]!.documents).toBe(2);
  });

  it('adds the name after the text of the content, and nothing without one', () => {
    expect(messageSearchText([{ text: 'hello there' }], ' Jon ')).toBe('hello there\nJon');
    expect(messageSearchText('hello there', null)).toBe('hello there');
    expect(messageSearchText('hello there', '  ')).toBe('hello there');
  });

  it('gives a summary the text of the content back, without the speaker', () => {
    for (const [content, name] of [
      ['I went to the parade', 'Caroline'],
      [{ text: 'the second line' }, null],
      ['a line that ends with a name\nJon', 'Gina'],
    ] as const) {
      expect(contentTextOf(messageSearchText(content, name), name)).toBe(contentText(content));
    }
  });
});
