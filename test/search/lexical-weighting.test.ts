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

// D140: BM25 weighs the query's words by the word counts kept on write (search_terms), per
// namespace and for the whole project; the counts follow every write and delete, and a word of
// deleted text leaves no row behind (D73). D179: a message's words include its speaker's name.

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
  return (response.json() as { results: { relevance: number; item: { id: string } }[] }).results;
}

/** The counted rows of a lexeme in the project, summed over buckets, per kind and scope. */
async function counts(lexeme: string) {
  const result = await ctx.app.db.execute(sql`
    SELECT object_type AS "objectType", scope, sum(documents)::int AS documents
    FROM search_terms WHERE project_id = ${project.projectId} AND lexeme = ${lexeme}
    GROUP BY object_type, scope ORDER BY object_type, scope`);
  return rowsOf<{ objectType: string; scope: string; documents: number }>(result);
}

describe('lexical weighting (D140)', () => {
  it('ranks a row holding the rare word of the query above rows holding its common word', async () => {
    const namespace = 'weights';
    const dialogue = await createDialogue(api, { namespace });
    // "coffee" is in almost every line of the namespace, twice where it is: by word coverage and
    // cover density these lines would lead; by document frequency the rare word decides.
    for (let i = 0; i < 8; i++) {
      await addMessage(api, dialogue.id, {
        role: 'user',
        content: `Coffee number ${i}: more coffee before the meeting`,
        namespace,
      });
    }
    const rare = await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'We watched a zeppelin drift over the harbour',
      namespace,
    });
    const results = await search({ query: 'coffee zeppelin', namespace, limit: 5 });
    expect(results[0]!.item.id).toBe(rare.id);
    expect(results[0]!.relevance).toBeGreaterThan(results[1]!.relevance);
  });

  it('counts words per namespace and for the project, and uncounts them on delete', async () => {
    const dialogue = await createDialogue(api, { namespace: 'counted' });
    const first = await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'the quokka smiles',
      namespace: 'counted',
    });
    await addMessage(api, dialogue.id, { role: 'user', content: 'another quokka', namespace: 'counted' });
    expect(await counts('quokka')).toEqual([
      { objectType: 'message', scope: '', documents: 2 },
      { objectType: 'message', scope: 'counted', documents: 2 },
    ]);
    const deleted = await api({
      method: 'DELETE',
      url: `${V1}/message/${first.id}?dialogueId=${dialogue.id}&namespace=counted`,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await counts('smile')).toEqual([]);
    expect(await counts('quokka')).toEqual([
      { objectType: 'message', scope: '', documents: 1 },
      { objectType: 'message', scope: 'counted', documents: 1 },
    ]);
    const gone = await api({ method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}?namespace=counted` });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await counts('quokka')).toEqual([]);
  });

  it("follows a memory's text through create, update and delete", async () => {
    const created = await api({
      method: 'POST',
      url: `${V1}/memory`,
      payload: { id: 'mem-axolotl', value: 'likes the axolotl tank' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await counts('axolotl')).toEqual([{ objectType: 'memory', scope: '', documents: 1 }]);
    const updated = await api({
      method: 'PUT',
      url: `${V1}/memory/mem-axolotl`,
      payload: { value: 'likes the iguana tank' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await counts('axolotl')).toEqual([]);
    expect(await counts('iguana')).toEqual([{ objectType: 'memory', scope: '', documents: 1 }]);
    const deleted = await api({ method: 'DELETE', url: `${V1}/memory/mem-axolotl` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await counts('iguana')).toEqual([]);
  });
});

// D179: people ask about each other by name, and a person's own lines seldom name them: the lines
// that do are the other side's replies.
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
    expect(found.slice(0, 2).map((result) => result.item.id)).toEqual([own.id, reply.id]);
  });

  it("counts the speaker's name among the message's words", async () => {
    const namespace = 'counted';
    const dialogue = await createDialogue(api, { namespace });
    for (const content of ['Good morning', 'The train was late again']) {
      await addMessage(api, dialogue.id, { role: 'user', name: 'Zelda', content, namespace });
    }
    await addMessage(api, dialogue.id, { role: 'assistant', content: 'Sorry to hear it', namespace });
    expect(await counts('zelda')).toEqual([
      { objectType: 'message', scope: '', documents: 2 },
      { objectType: 'message', scope: namespace, documents: 2 },
    ]);
  });

  it('adds the name after the text of the content, and a summary gets the text back without it', () => {
    expect(messageSearchText([{ text: 'hello there' }], ' Jon ')).toBe('hello there\nJon');
    expect(messageSearchText('hello there', null)).toBe('hello there');
    expect(messageSearchText('hello there', '  ')).toBe('hello there');
    for (const [content, name] of [
      ['I went to the parade', 'Caroline'],
      [{ text: 'the second line' }, null],
      ['a line that ends with a name\nJon', 'Gina'],
    ] as const) {
      expect(contentTextOf(messageSearchText(content, name), name)).toBe(contentText(content));
    }
  });
});
