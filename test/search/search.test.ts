import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { type Api, V1, addMessage, createDialogue } from '../helpers/dialogues.js';

// D39-D41 through the real routes, without an embedder: full-text search finds a write at once.

interface Result {
  relevance: number;
  item: Record<string, unknown> & { id: string };
}

let ctx: TestContext;
let api: Api;

beforeAll(async () => {
  ctx = await createTestContext();
  api = asProject(ctx.app, await createProject(ctx.app));
});
afterAll(async () => {
  await ctx.close();
});

async function search(body: Record<string, unknown>, target: Api = api) {
  const response = await target({ method: 'POST', url: `${V1}/search`, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return { ...(response.json() as { results: Result[]; mode: string }), raw: response.body };
}

describe('search errors (D39)', () => {
  it('validates the query', async () => {
    expectError(await api({ method: 'POST', url: `${V1}/search`, payload: {} }), 400, 'MISSING_PARAMETER');
    expectError(
      await api({ method: 'POST', url: `${V1}/search`, payload: { query: 'ab' } }),
      400,
      'SEARCH_QUERY_TOO_SHORT',
    );
    const trimmed = expectError(
      await api({ method: 'POST', url: `${V1}/search`, payload: { query: '   ab   ' } }),
      400,
      'SEARCH_QUERY_TOO_SHORT',
    );
    expect(trimmed.type).toBe('validation_error');
    expectError(
      await api({ method: 'POST', url: `${V1}/search`, payload: { query: 'x'.repeat(2001) } }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await api({ method: 'POST', url: `${V1}/search`, payload: { query: 42 } }),
      400,
      'INVALID_INPUT',
    );
  });

  it('validates object, limit, minRelevance and dialogueId', async () => {
    expectError(
      await api({ method: 'POST', url: `${V1}/search`, payload: { query: 'hello', object: 'project' } }),
      400,
      'INVALID_PARAMETER',
    );
    for (const payload of [
      { query: 'hello', limit: 0 },
      { query: 'hello', limit: 101 },
      { query: 'hello', minRelevance: 1.5 },
      { query: 'hello', object: 'memory', dialogueId: 'dlg_x' },
      { query: 'hello', unknown: true },
    ]) {
      expectError(await api({ method: 'POST', url: `${V1}/search`, payload }), 400, 'INVALID_INPUT');
    }
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/search`,
        payload: { query: 'hello', dialogueId: 'dlg_missing' },
      }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });

  it('applies the namespace rule to dialogueId (D34)', async () => {
    const dialogue = await createDialogue(api, { namespace: 'carol' });
    for (const payload of [
      { query: 'hello', dialogueId: dialogue.id },
      { query: 'hello', dialogueId: dialogue.id, namespace: 'dave' },
    ]) {
      expectError(await api({ method: 'POST', url: `${V1}/search`, payload }), 404, 'DIALOGUE_NOT_FOUND');
    }
    const ok = await search({ query: 'hello', dialogueId: dialogue.id, namespace: 'carol' });
    expect(ok.results).toEqual([]);
  });
});

describe('message search', () => {
  it('finds a message by its words at once, with its content as sent and relevance in 0-1', async () => {
    const dialogue = await createDialogue(api, { namespace: 'words' });
    const content = [
      { type: 'text', text: 'The quarterly zeppelin maintenance report is overdue' },
      { b: 1, a: 2 },
    ];
    const message = await addMessage(api, dialogue.id, { role: 'user', content, namespace: 'words' });
    await addMessage(api, dialogue.id, {
      role: 'assistant',
      content: 'The zeppelin hangar opens at noon',
      namespace: 'words',
    });
    const found = await search({ query: 'zeppelin maintenance report', namespace: 'words' });
    expect(found.mode).toBe('lexical');
    expect(found.results[0]!.item.id).toBe(message.id);
    expect(found.results[0]!.item.content).toEqual(content);
    // D28: the stored JSON text, key order included.
    expect(found.raw).toContain('{"b":1,"a":2}');
    expect(found.results[0]!.item).toMatchObject({
      dialogueId: dialogue.id,
      role: 'user',
      namespace: 'words',
    });
    const relevances = found.results.map((r) => r.relevance);
    expect(relevances.every((r) => r > 0 && r <= 1)).toBe(true);
    expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
    expect(found.results).toHaveLength(2);
    const strict = await search({
      query: 'zeppelin maintenance report',
      namespace: 'words',
      minRelevance: 0.9,
    });
    expect(strict.results.map((r) => r.item.id)).toEqual([message.id]);
    const one = await search({ query: 'zeppelin', namespace: 'words', limit: 1 });
    expect(one.results).toHaveLength(1);
  });

  it('never returns another namespace’s or another project’s messages', async () => {
    const other = asProject(ctx.app, await createProject(ctx.app));
    const mine = await createDialogue(api, { namespace: 'erin' });
    const theirs = await createDialogue(api, { namespace: 'frank' });
    const plain = await createDialogue(api);
    const foreign = await createDialogue(other, { namespace: 'erin' });
    const text = { role: 'user', content: 'kumquat marmalade recipe' };
    const own = await addMessage(api, mine.id, { ...text, namespace: 'erin' });
    const frank = await addMessage(api, theirs.id, { ...text, namespace: 'frank' });
    const unscoped = await addMessage(api, plain.id, text);
    await addMessage(other, foreign.id, { ...text, namespace: 'erin' });

    const erin = await search({ query: 'kumquat marmalade', namespace: 'erin' });
    expect(erin.results.map((r) => r.item.id)).toEqual([own.id]);
    // D51 (changed from D34's reach): without a namespace the whole project is searched, every
    // namespace and none, but never another project.
    const all = await search({ query: 'kumquat marmalade' });
    expect(all.results.map((r) => r.item.id).sort()).toEqual([own.id, frank.id, unscoped.id].sort());
    const nobody = await search({ query: 'kumquat marmalade', namespace: 'nobody' });
    expect(nobody.results).toEqual([]);
  });

  it('filters by dialogueId and by tags inside the query', async () => {
    const first = await createDialogue(api);
    const second = await createDialogue(api);
    const a = await addMessage(api, first.id, {
      role: 'user',
      content: 'persimmon orchard',
      tags: ['fruit', 'farm'],
    });
    const b = await addMessage(api, second.id, {
      role: 'user',
      content: 'persimmon orchard',
      tags: ['fruit'],
    });
    const inFirst = await search({ query: 'persimmon orchard', dialogueId: first.id });
    expect(inFirst.results.map((r) => r.item.id)).toEqual([a.id]);
    const tagged = await search({ query: 'persimmon orchard', tag: ['fruit', 'farm'] });
    expect(tagged.results.map((r) => r.item.id)).toEqual([a.id]);
    const single = await search({ query: 'persimmon orchard', tag: 'fruit' });
    expect(single.results.map((r) => r.item.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('forgets deleted messages and dialogues', async () => {
    const dialogue = await createDialogue(api);
    const gone = await addMessage(api, dialogue.id, { role: 'user', content: 'axolotl aquarium heater' });
    const response = await api({
      method: 'DELETE',
      url: `${V1}/dialogue/${dialogue.id}/messages/${gone.id}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await search({ query: 'axolotl aquarium heater' })).results).toEqual([]);

    const whole = await createDialogue(api, { label: 'axolotl care' });
    await addMessage(api, whole.id, { role: 'user', content: 'axolotl aquarium heater' });
    expect((await search({ query: 'axolotl aquarium heater' })).results).toHaveLength(1);
    expect((await search({ query: 'axolotl care', object: 'dialogue' })).results).toHaveLength(1);
    expect((await api({ method: 'DELETE', url: `${V1}/dialogue/${whole.id}` })).statusCode).toBe(200);
    expect((await search({ query: 'axolotl aquarium heater' })).results).toEqual([]);
    expect((await search({ query: 'axolotl care', object: 'dialogue' })).results).toEqual([]);
  });
});

describe('dialogue and memory search', () => {
  it('finds a dialogue by its label, its tags and its messages’ text, returning the dialogue (D41)', async () => {
    const labelled = await createDialogue(api, { label: 'Tandem bicycle restoration', tags: ['workshop'] });
    const talked = await createDialogue(api, { label: 'Misc' });
    await addMessage(api, talked.id, { role: 'user', content: 'restoring a tandem bicycle frame' });
    const found = await search({ query: 'tandem bicycle restoration', object: 'dialogue' });
    const ids = found.results.map((r) => r.item.id);
    expect(ids).toContain(labelled.id);
    expect(ids).toContain(talked.id);
    expect(ids[0]).toBe(labelled.id);
    expect(found.results[0]!.item).toMatchObject({ label: 'Tandem bicycle restoration', status: 'active' });
    const byTag = await search({ query: 'workshop', object: 'dialogue' });
    expect(byTag.results.map((r) => r.item.id)).toEqual([labelled.id]);
  });

  it('filters a dialogue search by the dialogue’s tags, also when the hit is in its messages', async () => {
    const tagged = await createDialogue(api, { tags: ['garage'] });
    await addMessage(api, tagged.id, { role: 'user', content: 'carburettor rebuild kit' });
    const untagged = await createDialogue(api);
    await addMessage(api, untagged.id, {
      role: 'user',
      content: 'carburettor rebuild kit',
      tags: ['garage'],
    });
    const found = await search({ query: 'carburettor rebuild', object: 'dialogue', tag: 'garage' });
    expect(found.results.map((r) => r.item.id)).toEqual([tagged.id]);
  });

  it('finds memories by label and value, filtered by namespace and tag, and forgets deleted ones', async () => {
    const create = async (payload: Record<string, unknown>) =>
      (await api({ method: 'POST', url: `${V1}/memory`, payload })).json() as { id: string };
    const kept = await create({
      label: 'allergy',
      value: 'Allergic to hazelnuts',
      namespace: 'gina',
      tags: ['health'],
    });
    await create({ label: 'allergy', value: 'Allergic to hazelnuts', namespace: 'hank', tags: ['health'] });
    await create({ label: 'note', value: 'hazelnuts are in the pantry', namespace: 'gina' });
    const found = await search({ query: 'hazelnut allergy', object: 'memory', namespace: 'gina' });
    expect(found.results[0]!.item).toMatchObject({
      id: kept.id,
      value: 'Allergic to hazelnuts',
      namespace: 'gina',
    });
    expect(found.results).toHaveLength(2);
    const tagged = await search({
      query: 'hazelnut allergy',
      object: 'memory',
      namespace: 'gina',
      tag: 'health',
    });
    expect(tagged.results.map((r) => r.item.id)).toEqual([kept.id]);
    await api({ method: 'DELETE', url: `${V1}/memory/${kept.id}` });
    const after = await search({
      query: 'hazelnut allergy',
      object: 'memory',
      namespace: 'gina',
      tag: 'health',
    });
    expect(after.results).toEqual([]);
  });
});
