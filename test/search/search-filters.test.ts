import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { type Api, V1, addMessage, createDialogue, sendRaw } from '../helpers/dialogues.js';
import { untilClockPasses } from '../helpers/clock.js';

// D51 and D59 through the real routes, on PGlite or (TEST_DATABASE_URL) PostgreSQL, without an
// embedder: full-text search finds every write at once, so each filter is seen on its own.
// Every test uses words of its own: without a namespace the whole project is searched (D51).

interface Result {
  object: string;
  relevance: number;
  item: Record<string, unknown> & { id: string };
  matches?: { object: string; relevance: number; item: Record<string, unknown> & { id: string } }[];
}
interface Found {
  results: Result[];
  mode: string;
  request: { orderBy: string; order: string; candidateOrderBy: string; filter: Record<string, unknown> };
}

let ctx: TestContext;
let api: Api;
let other: Api;

async function search(body: Record<string, unknown>, target: Api = api): Promise<Found> {
  const response = await target({ method: 'POST', url: `${V1}/search`, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Found;
}

const ids = (found: Found) => found.results.map((r) => r.item.id);
const sortedIds = (found: Found) => ids(found).sort();
const sorted = (...values: string[]) => [...values].sort();

async function createMemory(body: Record<string, unknown>, target: Api = api): Promise<{ id: string }> {
  const response = await target({ method: 'POST', url: `${V1}/memory`, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

/** Moves a row's timestamps (dialogues and memories take no client `created`). */
async function setTimes(table: 'dialogues' | 'memories', id: string, created: string, modified = created) {
  await ctx.app.db.execute(
    sql`UPDATE ${sql.raw(table)} SET created = ${created}::timestamptz, modified = ${modified}::timestamptz
      WHERE id = ${id}`,
  );
}

// Each filter twice: as the scope's size plans the search, and with every filter that has an index
// counted first (D186), as in a project past the exact-scan bound: a count that dropped rows a
// filter keeps, or kept rows it drops, fails here.
describe.each([
  { plan: 'by the scope', env: {} as Record<string, string> },
  { plan: 'by the filtered rows counted first', env: { SEARCH_EXACT_SCAN_MAX_ROWS: '1' } },
])('search filters, planned $plan', ({ env }) => {
  beforeAll(async () => {
    ctx = await createTestContext(env);
    api = asProject(ctx.app, await createProject(ctx.app));
    other = asProject(ctx.app, await createProject(ctx.app));
  });
  afterAll(async () => {
    await ctx.close();
  });

  describe('namespace rule (D51)', () => {
    it('searches the whole project without a namespace and one namespace with it, for every object', async () => {
      const text = 'quokka census results';
      const own: Record<string, string[]> = { message: [], dialogue: [], memory: [] };
      const inFirst: Record<string, string> = {};
      for (const namespace of ['ns-one', 'ns-two', undefined]) {
        const dialogue = await createDialogue(api, { namespace, label: text });
        const message = await addMessage(api, dialogue.id, { role: 'user', content: text, namespace });
        const memory = await createMemory({ value: text, namespace });
        own.message!.push(message.id);
        own.dialogue!.push(dialogue.id);
        own.memory!.push(memory.id);
        if (namespace === 'ns-one')
          Object.assign(inFirst, { message: message.id, dialogue: dialogue.id, memory: memory.id });
      }
      // The same items in another project, in the same namespaces.
      for (const namespace of ['ns-one', undefined]) {
        const dialogue = await createDialogue(other, { namespace, label: text });
        await addMessage(other, dialogue.id, { role: 'user', content: text, namespace });
        await createMemory({ value: text, namespace }, other);
      }

      for (const object of ['message', 'dialogue', 'memory']) {
        const all = await search({ query: text, object });
        expect(sortedIds(all), object).toEqual(sorted(...own[object]!));
        expect(all.results.every((r) => r.object === object)).toBe(true);
        expect(all.request.filter.namespace).toBeNull();
        const one = await search({ query: text, object, namespace: 'ns-one' });
        expect(ids(one), object).toEqual([inFirst[object]]);
        expect(one.request.filter.namespace).toBe('ns-one');
        expect(ids(await search({ query: text, object, namespace: 'ns-three' }))).toEqual([]);
      }
    });

    it('keeps D34 for a named dialogue: its namespace must be given, exactly', async () => {
      const scoped = await createDialogue(api, { namespace: 'ns-dlg' });
      const message = await addMessage(api, scoped.id, {
        role: 'user',
        content: 'bilby burrow depth',
        namespace: 'ns-dlg',
      });
      const sibling = await createDialogue(api, { namespace: 'ns-dlg' });
      await addMessage(api, sibling.id, { role: 'user', content: 'bilby burrow depth', namespace: 'ns-dlg' });
      const plain = await createDialogue(api);
      const foreign = await createDialogue(other, { namespace: 'ns-dlg' });

      for (const payload of [
        { query: 'bilby burrow', dialogueId: scoped.id },
        { query: 'bilby burrow', dialogueId: scoped.id, namespace: 'ns-else' },
        { query: 'bilby burrow', dialogueId: plain.id, namespace: 'ns-dlg' },
        { query: 'bilby burrow', dialogueId: foreign.id, namespace: 'ns-dlg' },
      ]) {
        expectError(await api({ method: 'POST', url: `${V1}/search`, payload }), 404, 'DIALOGUE_NOT_FOUND');
      }
      const found = await search({ query: 'bilby burrow', dialogueId: scoped.id, namespace: 'ns-dlg' });
      expect(ids(found)).toEqual([message.id]);
      expect(found.request.filter).toMatchObject({ namespace: 'ns-dlg', dialogueId: scoped.id });
      expect(ids(await search({ query: 'bilby burrow' }))).toHaveLength(2);
    });
  });

  describe('tag operators (D59)', () => {
    it('filters messages by an array (all), $all, $in, $nin and together with `tag`', async () => {
      const dialogue = await createDialogue(api);
      const say = (tags: string[]) =>
        addMessage(api, dialogue.id, { role: 'user', content: 'wombat trail', tags });
      const [redRound, red, blue, none] = [
        await say(['red', 'round']),
        await say(['red']),
        await say(['blue']),
        await say([]),
      ];
      const query = 'wombat trail';
      const cases: [Record<string, unknown>, string[]][] = [
        [{ tags: ['red'] }, [redRound.id, red.id]],
        [{ tags: ['red', 'round'] }, [redRound.id]],
        [{ tags: { $all: ['red', 'round'] } }, [redRound.id]],
        [{ tags: { $in: ['round', 'blue'] } }, [redRound.id, blue.id]],
        [{ tags: { $nin: ['red'] } }, [blue.id, none.id]],
        [{ tags: { $in: ['red', 'blue'], $nin: ['round'] } }, [red.id, blue.id]],
        [{ tag: 'red', tags: { $nin: ['round'] } }, [red.id]],
        [{ tag: ['blue'], tags: ['red'] }, []],
        [{ tags: [] }, [redRound.id, red.id, blue.id, none.id]],
      ];
      for (const [filter, expected] of cases) {
        expect(sortedIds(await search({ query, ...filter })), JSON.stringify(filter)).toEqual(
          sorted(...expected),
        );
      }
      const echoed = await search({
        query,
        tag: 'red',
        tags: { $all: ['round', 'red'], $in: ['x'], $nin: ['y'] },
      });
      expect(echoed.request.filter.tags).toEqual({ $all: ['red', 'round'], $in: ['x'], $nin: ['y'] });
      expect((await search({ query })).request.filter.tags).toBeNull();
    });

    it('tests a dialogue’s own tags, also when the hit is in its messages, and a memory’s', async () => {
      const tagged = await createDialogue(api, { label: 'numbat survey', tags: ['field'] });
      const talked = await createDialogue(api, { tags: ['field', 'night'] });
      await addMessage(api, talked.id, { role: 'user', content: 'numbat survey notes', tags: ['other'] });
      const untagged = await createDialogue(api);
      await addMessage(api, untagged.id, { role: 'user', content: 'numbat survey notes', tags: ['field'] });
      const query = { query: 'numbat survey', object: 'dialogue' };
      expect(sortedIds(await search({ ...query, tags: { $in: ['field'] } }))).toEqual(
        sorted(tagged.id, talked.id),
      );
      expect(ids(await search({ ...query, tags: { $nin: ['night'], $all: ['field'] } }))).toEqual([
        tagged.id,
      ]);
      expect(ids(await search({ ...query, tags: { $nin: ['field'] } }))).toEqual([untagged.id]);

      const kept = await createMemory({ value: 'numbat sightings', tags: ['keep'] });
      await createMemory({ value: 'numbat sightings', tags: ['drop'] });
      expect(
        ids(await search({ query: 'numbat sightings', object: 'memory', tags: { $nin: ['drop'] } })),
      ).toEqual([kept.id]);
    });
  });

  describe('metadata operators (D59)', () => {
    it('compares top-level metadata fields of messages with every operator', async () => {
      const dialogue = await createDialogue(api);
      const say = (metadata: Record<string, unknown> | null) =>
        addMessage(api, dialogue.id, { role: 'user', content: 'platypus habitat', metadata });
      const gold = await say({ tier: 'gold', score: 10, region: 'eu' });
      const silver = await say({ tier: 'silver', score: 3.5 });
      const goldText = await say({ tier: 'gold', score: '10' });
      const bare = await say(null);
      const nulled = await say({ tier: null });
      const query = 'platypus habitat';
      const cases: [Record<string, unknown>, string[]][] = [
        [{ tier: 'gold' }, [gold.id, goldText.id]],
        [{ tier: { $eq: 'gold' } }, [gold.id, goldText.id]],
        [{ tier: { $ne: 'gold' } }, [silver.id, bare.id, nulled.id]],
        [{ tier: { $in: ['silver', 'bronze'] } }, [silver.id]],
        [{ tier: { $nin: ['gold'] } }, [silver.id, bare.id, nulled.id]],
        [{ tier: null }, [bare.id, nulled.id]],
        [{ tier: { $ne: null } }, [gold.id, silver.id, goldText.id]],
        [{ tier: { $in: ['silver', null] } }, [silver.id, bare.id, nulled.id]],
        // Numbers compare with numbers only: the string "10" is not greater than 5.
        [{ score: { $gt: 5 } }, [gold.id]],
        [{ score: { $gte: 3.5, $lt: 10 } }, [silver.id]],
        [{ score: { $lte: 10 } }, [gold.id, silver.id]],
        [{ score: { $gt: '1' } }, [goldText.id]],
        [{ score: 10 }, [gold.id]],
        [{ score: '10' }, [goldText.id]],
        [{ tier: 'gold', region: 'eu' }, [gold.id]],
        [{ region: { $lt: 'f', $gte: 'eu' } }, [gold.id]],
        [{ 'tier.name': 'gold' }, []],
      ];
      for (const [metadata, expected] of cases) {
        expect(sortedIds(await search({ query, metadata })), JSON.stringify(metadata)).toEqual(
          sorted(...expected),
        );
      }
      const echoed = await search({ query, metadata: { tier: 'gold', score: { $lt: 10, $gte: 1 } } });
      expect(echoed.request.filter.metadata).toEqual({ tier: { $eq: 'gold' }, score: { $gte: 1, $lt: 10 } });
    });

    it('tests a dialogue’s metadata (not its messages’) and a memory’s', async () => {
      const lead = await createDialogue(api, {
        label: 'kiwi orchard deal',
        metadata: { stage: 'lead', value: 500 },
      });
      const won = await createDialogue(api, { metadata: { stage: 'won', value: 9000 } });
      await addMessage(api, won.id, {
        role: 'user',
        content: 'kiwi orchard deal',
        metadata: { stage: 'lead' },
      });
      const query = { query: 'kiwi orchard deal', object: 'dialogue' };
      expect(ids(await search({ ...query, metadata: { stage: 'lead' } }))).toEqual([lead.id]);
      expect(ids(await search({ ...query, metadata: { value: { $gt: 1000 } } }))).toEqual([won.id]);

      const vip = await createMemory({
        value: 'kiwi allergy',
        metadata: { source: 'doctor', confidence: 0.9 },
      });
      await createMemory({ value: 'kiwi allergy', metadata: { source: 'chat', confidence: 0.4 } });
      const memories = { query: 'kiwi allergy', object: 'memory' };
      expect(ids(await search({ ...memories, metadata: { confidence: { $gte: 0.5 } } }))).toEqual([vip.id]);
      expect(ids(await search({ ...memories, metadata: { source: { $nin: ['chat'] } } }))).toEqual([vip.id]);
    });
  });

  describe('date filters and time zones (D59)', () => {
    it('filters messages by a day in a time zone and by ranges, and echoes the ranges in UTC', async () => {
      const dialogue = await createDialogue(api);
      const at = (created: string) =>
        addMessage(api, dialogue.id, { role: 'user', content: 'echidna spines', created });
      const late = await at('2024-05-01T23:30:00.000Z');
      const noon = await at('2024-05-02T12:00:00.000Z');
      const next = await at('2024-05-03T08:00:00.000Z');
      const query = 'echidna spines';
      const cases: [Record<string, unknown>, string[]][] = [
        [{ filter: { created: '2024-05-01' } }, [late.id]],
        [{ filter: { created: '2024-05-02' } }, [noon.id]],
        // 23:30 UTC on May 1 is 01:30 on May 2 in Oslo.
        [{ filter: { created: '2024-05-02' }, timezone: 'Europe/Oslo' }, [late.id, noon.id]],
        [{ filter: { created: '2024-05-01T23:30:00Z' }, timezone: 'Europe/Oslo' }, [late.id, noon.id]],
        [{ filter: { created: { gte: '2024-05-02' } } }, [noon.id, next.id]],
        [{ filter: { created: { gt: '2024-05-02' } } }, [next.id]],
        [{ filter: { created: { lte: '2024-05-02' } } }, [late.id, noon.id]],
        [{ filter: { created: { lt: '2024-05-02' } } }, [late.id]],
        [{ filter: { created: { gte: '2024-05-02T12:00:00Z', lte: '2024-05-02T12:00:00Z' } } }, [noon.id]],
        [{ filter: { created: { gt: '2024-05-02T12:00:00Z' } } }, [next.id]],
        // Tokyo is UTC+9: May 2 00:00 there is May 1 15:00 UTC; May 3 09:00 there is May 3 00:00 UTC.
        [
          {
            filter: { created: { gte: '2024-05-02T00:00', lt: '2024-05-03T09:00' } },
            timezone: 'Asia/Tokyo',
          },
          [late.id, noon.id],
        ],
      ];
      for (const [filter, expected] of cases) {
        expect(sortedIds(await search({ query, ...filter })), JSON.stringify(filter)).toEqual(
          sorted(...expected),
        );
      }
      const echoed = await search({ query, filter: { created: '2024-05-02' }, timezone: 'Europe/Oslo' });
      expect(echoed.request.filter).toMatchObject({
        created: { gte: '2024-05-01T22:00:00.000Z', lt: '2024-05-02T22:00:00.000Z' },
        modified: null,
        hasImage: null,
      });
      const range = await search({
        query,
        filter: { modified: { gt: '2024-05-01', lte: '2024-05-02T10:00+02:00' } },
      });
      expect(range.request.filter.modified).toEqual({
        gte: '2024-05-02T00:00:00.000Z',
        lte: '2024-05-02T08:00:00.000Z',
      });
    });

    it('filters by `modified` (a tag update moves it) and tests dialogues’ and memories’ own dates', async () => {
      const dialogue = await createDialogue(api);
      const touched = await addMessage(api, dialogue.id, { role: 'user', content: 'cassowary casque' });
      const second = await addMessage(api, dialogue.id, { role: 'user', content: 'cassowary casque' });
      await untilClockPasses(second.created as string);
      const before = new Date().toISOString();
      await untilClockPasses(before);
      const update = await api({
        method: 'PUT',
        url: `${V1}/message/${touched.id}?dialogueId=${dialogue.id}`,
        payload: { tags: ['seen'] },
      });
      expect(update.statusCode, update.body).toBe(200);
      const found = await search({ query: 'cassowary casque', filter: { modified: { gt: before } } });
      expect(ids(found)).toEqual([touched.id]);
      expect(ids(await search({ query: 'cassowary casque', filter: { created: { gt: before } } }))).toEqual(
        [],
      );

      const old = await createDialogue(api, { label: 'lyrebird mimicry' });
      const recent = await createDialogue(api, { label: 'lyrebird mimicry' });
      await setTimes('dialogues', old.id, '2023-01-10T10:00:00Z');
      await setTimes('dialogues', recent.id, '2024-01-10T10:00:00Z', '2024-02-01T10:00:00Z');
      const dialogues = { query: 'lyrebird mimicry', object: 'dialogue' };
      expect(ids(await search({ ...dialogues, filter: { created: { lt: '2024-01-01' } } }))).toEqual([
        old.id,
      ]);
      expect(ids(await search({ ...dialogues, filter: { modified: '2024-02-01' } }))).toEqual([recent.id]);

      const kept = await createMemory({ value: 'lyrebird song' });
      const gone = await createMemory({ value: 'lyrebird song' });
      await setTimes('memories', kept.id, '2022-06-15T12:00:00Z');
      await setTimes('memories', gone.id, '2022-06-16T12:00:00Z');
      const memories = { query: 'lyrebird song', object: 'memory' };
      expect(ids(await search({ ...memories, filter: { created: '2022-06-15' } }))).toEqual([kept.id]);
      expect(
        ids(await search({ ...memories, filter: { created: '2022-06-16' }, timezone: 'Pacific/Kiritimati' })),
      ).toEqual([kept.id]);
    });
  });

  describe('hasImage (D59)', () => {
    it('knows a message with an image block of any of the three types, at any depth', async () => {
      const dialogue = await createDialogue(api);
      const say = (content: unknown) => addMessage(api, dialogue.id, { role: 'user', content });
      const image = await say([
        { type: 'text', text: 'narwhal tusk' },
        { type: 'image', source: { data: 'AAAA' } },
      ]);
      const url = await say([
        { type: 'image_url', image_url: { url: 'https://example.com/n.png' } },
        { type: 'text', text: 'narwhal tusk' },
      ]);
      const input = await say([
        { type: 'input_text', text: 'narwhal tusk' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
      ]);
      const nested = await say([
        {
          type: 'tool_result',
          content: [
            { type: 'image', source: {} },
            { type: 'text', text: 'narwhal tusk' },
          ],
        },
      ]);
      // An escaped type is still the type (the content is kept as JSON text, D28).
      const raw = await sendRaw(
        api,
        'POST',
        `${V1}/message`,
        `{"dialogueId":"${dialogue.id}","role":"user","content":[{"type":"text","text":"narwhal tusk"},{"type":"im\\u0061ge","source":{}}]}`,
      );
      expect(raw.statusCode, raw.body).toBe(201);
      const escaped = raw.json() as { id: string };
      const words = await say('narwhal tusk, see the image of a narwhal');
      const fake = await say([{ type: 'text', text: 'narwhal tusk', note: 'image_url' }]);
      const query = 'narwhal tusk';
      expect(sortedIds(await search({ query, filter: { hasImage: true } }))).toEqual(
        sorted(image.id, url.id, input.id, nested.id, escaped.id),
      );
      expect(sortedIds(await search({ query, filter: { hasImage: false } }))).toEqual(
        sorted(words.id, fake.id),
      );
      expect((await search({ query, filter: { hasImage: true } })).request.filter.hasImage).toBe(true);
    });

    it('gives a dialogue an image when one of its messages has one; a memory never', async () => {
      const pictured = await createDialogue(api, { label: 'dugong grazing' });
      await addMessage(api, pictured.id, {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'x' } }],
      });
      const plain = await createDialogue(api, { label: 'dugong grazing' });
      await addMessage(api, plain.id, { role: 'user', content: 'no picture here' });
      const query = { query: 'dugong grazing', object: 'dialogue' };
      expect(ids(await search({ ...query, filter: { hasImage: true } }))).toEqual([pictured.id]);
      expect(ids(await search({ ...query, filter: { hasImage: false } }))).toEqual([plain.id]);

      const memory = await createMemory({ value: 'dugong seagrass' });
      expect(
        ids(await search({ query: 'dugong seagrass', object: 'memory', filter: { hasImage: true } })),
      ).toEqual([]);
      expect(
        ids(await search({ query: 'dugong seagrass', object: 'memory', filter: { hasImage: false } })),
      ).toEqual([memory.id]);
    });
  });

  describe('orderBy and order (D59)', () => {
    it('orders the best `limit` matches by relevance, created or modified, either way', async () => {
      const dialogue = await createDialogue(api);
      const at = (content: string, created: string) =>
        addMessage(api, dialogue.id, { role: 'user', content, created });
      const january = await at('dingo den howl', '2024-01-01T00:00:00Z');
      const march = await at('dingo den howl at night', '2024-03-01T00:00:00Z');
      // The newest, but it holds one word of three: never among the best 2.
      const april = await at('a dingo', '2024-04-01T00:00:00Z');
      const query = 'dingo den howl';

      const byRelevance = await search({ query });
      expect(ids(byRelevance).at(-1)).toBe(april.id);
      expect(byRelevance.request).toMatchObject({
        orderBy: 'relevance',
        order: 'desc',
        candidateOrderBy: 'relevance',
      });
      const relevances = byRelevance.results.map((r) => r.relevance);
      expect(ids(await search({ query, order: 'asc' }))).toEqual([...ids(byRelevance)].reverse());
      expect(relevances).toEqual([...relevances].sort((a, b) => b - a));

      const newest = await search({ query, orderBy: 'created', limit: 2 });
      expect(ids(newest)).toEqual([march.id, january.id]);
      expect(newest.request).toMatchObject({
        orderBy: 'created',
        order: 'desc',
        candidateOrderBy: 'relevance',
      });
      expect(ids(await search({ query, orderBy: 'created', order: 'asc' }))).toEqual([
        january.id,
        march.id,
        april.id,
      ]);
      expect(ids(await search({ query, orderBy: 'created', order: 'desc' }))).toEqual([
        april.id,
        march.id,
        january.id,
      ]);

      const update = await api({
        method: 'PUT',
        url: `${V1}/message/${january.id}?dialogueId=${dialogue.id}`,
        payload: { tags: ['reviewed'] },
      });
      expect(update.statusCode, update.body).toBe(200);
      expect(ids(await search({ query, orderBy: 'modified' }))[0]).toBe(january.id);
      expect(ids(await search({ query, orderBy: 'modified', order: 'asc' })).at(-1)).toBe(january.id);
    });

    it('orders dialogues and memories by their own dates', async () => {
      const first = await createDialogue(api, { label: 'bandicoot nest' });
      const second = await createDialogue(api, { label: 'bandicoot nest' });
      await setTimes('dialogues', first.id, '2024-02-01T00:00:00Z');
      await setTimes('dialogues', second.id, '2024-01-01T00:00:00Z');
      const query = { query: 'bandicoot nest', object: 'dialogue', orderBy: 'created' };
      expect(ids(await search(query))).toEqual([first.id, second.id]);
      expect(ids(await search({ ...query, order: 'asc' }))).toEqual([second.id, first.id]);

      const a = await createMemory({ value: 'bandicoot diet' });
      const b = await createMemory({ value: 'bandicoot diet' });
      await setTimes('memories', a.id, '2024-01-01T00:00:00Z', '2024-06-01T00:00:00Z');
      await setTimes('memories', b.id, '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z');
      const memories = { query: 'bandicoot diet', object: 'memory' };
      expect(ids(await search({ ...memories, orderBy: 'created' }))).toEqual([b.id, a.id]);
      expect(ids(await search({ ...memories, orderBy: 'modified' }))).toEqual([a.id, b.id]);
    });
  });

  describe('matches on dialogue results (D59)', () => {
    it('gives each dialogue up to 3 of its own best messages, best first', async () => {
      const planned = await createDialogue(api, { label: 'Koala feeding plan' });
      const sent: string[] = [];
      for (const content of [
        'koala eucalyptus feeding schedule for monday',
        'koala eucalyptus feeding',
        'the eucalyptus delivery is late',
        'koala nap times',
        'hello there',
      ]) {
        sent.push((await addMessage(api, planned.id, { role: 'user', content })).id);
      }
      const labelOnly = await createDialogue(api, { label: 'koala eucalyptus feeding' });
      await addMessage(api, labelOnly.id, { role: 'user', content: 'unrelated words only' });
      const elsewhere = await createDialogue(api, { label: 'Zoo logistics' });
      await addMessage(api, elsewhere.id, { role: 'user', content: 'koala eucalyptus feeding again' });

      const found = await search({ query: 'koala eucalyptus feeding', object: 'dialogue' });
      const byId = new Map(found.results.map((r) => [r.item.id, r]));
      const planMatches = byId.get(planned.id)!.matches!;
      expect(planMatches).toHaveLength(3);
      // Best first: the two messages holding every word of the query, then one holding a word of it.
      expect(new Set(planMatches.slice(0, 2).map((m) => m.item.id))).toEqual(new Set([sent[0], sent[1]]));
      expect([sent[2], sent[3]]).toContain(planMatches[2]!.item.id);
      for (const match of planMatches) {
        expect(match.object).toBe('message');
        expect(match.item.dialogueId).toBe(planned.id);
        expect(match.relevance).toBeGreaterThan(0);
        expect(match.relevance).toBeLessThanOrEqual(1);
      }
      const relevances = planMatches.map((m) => m.relevance);
      expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
      expect(planMatches[0]!.item.content).toEqual(expect.any(String));
      // Found by its label, with no message matching: no matches.
      expect(byId.get(labelOnly.id)!.matches).toEqual([]);
      expect(byId.get(elsewhere.id)!.matches!.map((m) => m.item.dialogueId)).toEqual([elsewhere.id]);

      // Messages and memories carry no `matches`.
      const messages = await search({ query: 'koala eucalyptus feeding' });
      expect(messages.results.every((r) => r.object === 'message' && !('matches' in r))).toBe(true);
    });

    it('leaves out matches below minRelevance', async () => {
      const dialogue = await createDialogue(api, { label: 'tasmanian devil tasmanian devil' });
      await addMessage(api, dialogue.id, { role: 'user', content: 'a devil' });
      const loose = await search({ query: 'tasmanian devil', object: 'dialogue' });
      expect(loose.results[0]!.matches).toHaveLength(1);
      const strict = await search({ query: 'tasmanian devil', object: 'dialogue', minRelevance: 0.8 });
      expect(ids(strict)).toEqual([dialogue.id]);
      expect(strict.results[0]!.matches).toEqual([]);
    });
  });

  describe('filters sit inside the query, before the page (D59)', () => {
    it('finds the one item that passes, behind more than the candidate count of better ones', async () => {
      const dialogue = await createDialogue(api);
      const noise = Array.from({ length: 60 }, (_, i) => ({
        role: 'user',
        content: `quoll lair quoll lair number ${i}`,
        tags: ['noise'],
        metadata: { kind: 'noise' },
        created: '2024-06-01T00:00:00Z',
      }));
      const batch = await api({
        method: 'POST',
        url: `${V1}/messages`,
        payload: { dialogueId: dialogue.id, messages: noise },
      });
      expect(batch.statusCode, batch.body).toBe(201);
      const needle = await addMessage(api, dialogue.id, {
        role: 'user',
        content: 'a quoll',
        tags: ['needle'],
        metadata: { kind: 'needle' },
        created: '2020-01-01T00:00:00Z',
      });
      const query = 'quoll lair';
      expect(ids(await search({ query, limit: 1 }))).not.toEqual([needle.id]);
      for (const filter of [
        { tags: ['needle'] },
        { tags: { $nin: ['noise'] } },
        { metadata: { kind: 'needle' } },
        { metadata: { kind: { $ne: 'noise' } } },
        { filter: { created: { lt: '2021-01-01' } } },
        {
          tags: { $in: ['needle'] },
          metadata: { kind: { $in: ['needle'] } },
          filter: { created: '2020-01-01' },
        },
      ]) {
        expect(ids(await search({ query, limit: 1, ...filter })), JSON.stringify(filter)).toEqual([
          needle.id,
        ]);
      }
    });
  });

  describe('project isolation', () => {
    it('never returns or matches another project’s items, whatever the filters', async () => {
      const body = (namespace: string) => ({
        namespace,
        label: 'kookaburra call',
        tags: ['bird'],
        metadata: { kind: 'bird' },
      });
      const make = async (target: Api) => {
        const dialogue = await createDialogue(target, body('ns-iso'));
        const message = await addMessage(target, dialogue.id, {
          id: 'same-id',
          role: 'user',
          namespace: 'ns-iso',
          content: [
            { type: 'text', text: 'kookaburra call' },
            { type: 'image', source: {} },
          ],
          tags: ['bird'],
          metadata: { kind: 'bird' },
          created: '2024-07-01T10:00:00Z',
        });
        const memory = await createMemory(
          { value: 'kookaburra call', namespace: 'ns-iso', tags: ['bird'], metadata: { kind: 'bird' } },
          target,
        );
        return { dialogue: dialogue.id, message: message.id, memory: memory.id };
      };
      const mine = await make(api);
      const theirs = await make(other);
      const filters = {
        query: 'kookaburra call',
        tags: { $all: ['bird'] },
        metadata: { kind: { $eq: 'bird' } },
        orderBy: 'created',
      };
      for (const [target, own] of [
        [api, mine],
        [other, theirs],
      ] as const) {
        for (const namespace of [undefined, 'ns-iso']) {
          const messages = await search(
            { ...filters, namespace, filter: { created: '2024-07-01', hasImage: true } },
            target,
          );
          expect(messages.results.map((r) => r.item.dialogueId)).toEqual([own.dialogue]);
          const dialogues = await search(
            { ...filters, namespace, object: 'dialogue', filter: { hasImage: true } },
            target,
          );
          expect(ids(dialogues)).toEqual([own.dialogue]);
          expect(dialogues.results[0]!.matches!.map((m) => m.item.dialogueId)).toEqual([own.dialogue]);
          expect(ids(await search({ ...filters, namespace, object: 'memory' }, target))).toEqual([
            own.memory,
          ]);
        }
      }
      expectError(
        await api({
          method: 'POST',
          url: `${V1}/search`,
          payload: { query: 'kookaburra call', dialogueId: theirs.dialogue, namespace: 'ns-iso' },
        }),
        404,
        'DIALOGUE_NOT_FOUND',
      );
    });
  });

  describe('bad input (D59)', () => {
    it('refuses malformed filters with INVALID_INPUT naming the field', async () => {
      const many = (n: number, make: (i: number) => unknown) => Array.from({ length: n }, (_, i) => make(i));
      // [fields, the detail's field, words its message holds]
      const cases: [Record<string, unknown>, string, string?][] = [
        [{ tags: 'red' }, 'tags', 'array of tags or an object'],
        [{ tags: { $any: ['x'] } }, 'tags.$any'],
        [{ tags: {} }, 'tags'],
        [{ tags: { $in: [] } }, 'tags.$in'],
        [{ tags: { $all: 'x' } }, 'tags', '$all: '],
        [{ tags: ['x'.repeat(65)] }, 'tags[0]'],
        [{ tags: [''] }, 'tags[0]'],
        [{ tags: many(51, (i) => `t${i}`) }, 'tags', '50'],
        [{ tags: { $nin: many(51, (i) => `t${i}`) } }, 'tags', '$nin: '],
        [{ metadata: 'plan' }, 'metadata'],
        [{ metadata: { plan: { $regex: 'x' } } }, 'metadata.plan.$regex'],
        [{ metadata: { plan: { nested: 1 } } }, 'metadata.plan.nested'],
        [{ metadata: { plan: {} } }, 'metadata.plan'],
        [{ metadata: { plan: ['a'] } }, 'metadata.plan', 'object of operators'],
        [{ metadata: { plan: { $gt: true } } }, 'metadata.plan', '$gt: '],
        [{ metadata: { plan: { $lt: null } } }, 'metadata.plan', '$lt: '],
        [{ metadata: { plan: { $eq: { a: 1 } } } }, 'metadata.plan', '$eq: '],
        [{ metadata: { plan: { $in: [] } } }, 'metadata.plan.$in'],
        [{ metadata: { plan: { $in: many(101, (i) => i) } } }, 'metadata.plan', '$in: '],
        [{ metadata: { plan: { $nin: [[1]] } } }, 'metadata.plan', '$nin[0]: '],
        [{ metadata: { plan: 'x'.repeat(1025) } }, 'metadata.plan'],
        [{ metadata: Object.fromEntries(many(21, (i) => [`f${i}`, i]) as [string, number][]) }, 'metadata'],
        [{ metadata: { ['k'.repeat(129)]: 1 } }, `metadata.${'k'.repeat(129)}`],
        [{ filter: 'today' }, 'filter'],
        [{ filter: { created: 'yesterday' } }, 'filter.created'],
        [{ filter: { created: '2025-02-30' } }, 'filter.created'],
        [{ filter: { created: 1714550400 } }, 'filter.created'],
        [{ filter: { created: {} } }, 'filter.created'],
        [{ filter: { created: { after: '2024-01-01' } } }, 'filter.created.after'],
        [{ filter: { modified: { gte: '2024-13-01' } } }, 'filter.modified.gte'],
        [{ filter: { created: { gte: '2024-05-02', lt: '2024-05-01' } } }, 'filter.created'],
        [{ filter: { created: { gt: '2024-05-01T00:00Z', lte: '2024-05-01T00:00Z' } } }, 'filter.created'],
        [{ filter: { created: `2024-05-01T00:00:00.${'1'.repeat(60)}Z` } }, 'filter.created'],
        [{ filter: { hasImage: 'yes' } }, 'filter.hasImage'],
        [{ filter: { deleted: true } }, 'filter.deleted'],
      ];
      for (const [fields, field] of cases) {
        const response = await api({
          method: 'POST',
          url: `${V1}/search`,
          payload: { query: 'hello there', ...fields },
        });
        const error = expectError(response, 400, 'INVALID_INPUT');
        expect(
          error.details?.map((d) => d.field),
          JSON.stringify(fields),
        ).toContain(field);
        expect(error.details?.every((d) => d.code === 'INVALID_INPUT')).toBe(true);
      }
    });

    it('refuses a __proto__ metadata field (it would vanish in parsing) and takes constructor as a field', async () => {
      const raw = (metadata: string) =>
        sendRaw(api, 'POST', `${V1}/search`, `{"query":"pangolin scales","metadata":${metadata}}`);
      const refused = expectError(await raw('{"__proto__":{"$eq":1}}'), 400, 'INVALID_INPUT');
      expect(refused.details?.map((d) => d.field)).toEqual(['metadata.__proto__']);

      const dialogue = await createDialogue(api);
      const odd = await addMessage(api, dialogue.id, {
        role: 'user',
        content: 'pangolin scales',
        metadata: { constructor: 'x', toString: 2 },
      });
      await addMessage(api, dialogue.id, { role: 'user', content: 'pangolin scales' });
      const response = await raw('{"constructor":"x","toString":{"$gt":1}}');
      expect(response.statusCode, response.body).toBe(200);
      const found = response.json() as Found;
      expect(ids(found)).toEqual([odd.id]);
      expect(found.request.filter.metadata).toEqual({ constructor: { $eq: 'x' }, toString: { $gt: 1 } });
    });

    it('refuses an unknown timezone, orderBy or order with INVALID_PARAMETER', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ timezone: 'Mars/Olympus' }, 'timezone'],
        [{ timezone: '+01:00' }, 'timezone'],
        [{ timezone: 'x'.repeat(65) }, 'timezone'],
        [{ timezone: 2 }, 'timezone'],
        [{ orderBy: 'score' }, 'orderBy'],
        [{ orderBy: 1 }, 'orderBy'],
        [{ order: 'up' }, 'order'],
      ];
      for (const [fields, field] of cases) {
        const response = await api({
          method: 'POST',
          url: `${V1}/search`,
          payload: { query: 'hello there', ...fields },
        });
        const error = expectError(response, 400, 'INVALID_PARAMETER');
        expect(error.details, JSON.stringify(fields)).toEqual([
          expect.objectContaining({ field, code: 'INVALID_PARAMETER' }),
        ]);
      }
    });

    it('echoes the defaults for a plain search', async () => {
      const found = await search({ query: 'nothing stored says this' });
      expect(found).toEqual({
        results: [],
        mode: 'lexical',
        request: {
          orderBy: 'relevance',
          order: 'desc',
          candidateOrderBy: 'relevance',
          filter: {
            namespace: null,
            dialogueId: null,
            tags: null,
            metadata: null,
            created: null,
            modified: null,
            hasImage: null,
          },
        },
      });
    });
  });
});
