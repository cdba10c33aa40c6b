import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import {
  type Api,
  type MessageBody,
  V1,
  createDialogue,
  getDialogue,
  useProjectApi,
  walk,
} from '../helpers/dialogues.js';

// D35 under concurrency, and the stability of message cursors (D29, D32). On real Postgres
// (TEST_DATABASE_URL) the requests run on parallel connections.

// Hundreds of requests at once on a busy test machine: no load shedding (0 = off), no rate limit.
const file = useProjectApi({ LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0', RATE_LIMIT_MAX: '100000' });
const api: Api = (options) => file.api(options);

async function storedCount(dialogueId: string): Promise<number> {
  const result = await file.ctx.app.db.execute(
    sql`SELECT count(*)::int AS n FROM messages WHERE dialogue_id = ${dialogueId}`,
  );
  return rowsOf<{ n: number }>(result)[0]!.n;
}

const post = (dialogueId: string, content: string) =>
  api({ method: 'POST', url: `${V1}/message`, payload: { dialogueId, role: 'user', content } });

describe('counters under concurrency (D35)', () => {
  it('200 concurrent creates on one dialogue end with totalMessages equal to the stored count', async () => {
    const dialogue = await createDialogue(api);
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => post(dialogue.id, `m${i}`)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(200).fill(201));
    const after = await getDialogue(api, dialogue.id);
    expect(after.totalMessages).toBe(200);
    expect(await storedCount(dialogue.id)).toBe(200);
    const latest = Math.max(...responses.map((r) => Date.parse(r.json().created)));
    expect(Date.parse(after.lastMessageCreated as string)).toBe(latest);
  });

  it('concurrent deletes and creates keep the count exact', async () => {
    const messages = Array.from({ length: 60 }, (_, i) => ({
      role: 'user',
      content: `m${i}`,
      id: `id-${i}`,
    }));
    const dialogue = await createDialogue(api);
    await api({ method: 'POST', url: `${V1}/messages`, payload: { dialogueId: dialogue.id, messages } });
    const deletes = messages
      .slice(0, 40)
      .map((m) => api({ method: 'DELETE', url: `${V1}/message/${m.id}?dialogueId=${dialogue.id}` }));
    const creates = Array.from({ length: 40 }, (_, i) => post(dialogue.id, `new${i}`));
    const results = await Promise.all([...deletes, ...creates]);
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(60);
    expect(await storedCount(dialogue.id)).toBe(60);
  });

  it('concurrent thread creation keeps threadCount exact', async () => {
    const parent = await createDialogue(api);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        api({ method: 'POST', url: `${V1}/dialogue`, payload: { threadOf: parent.id } }),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    expect((await getDialogue(api, parent.id)).threadCount).toBe(50);
  });

  it('deleting a parent and its threads at once neither deadlocks nor fails', async () => {
    const parent = await createDialogue(api);
    const threads = await Promise.all(
      Array.from({ length: 20 }, () => createDialogue(api, { threadOf: parent.id })),
    );
    const deletes = [parent, ...threads].map((d) => api({ method: 'DELETE', url: `${V1}/dialogue/${d.id}` }));
    const results = await Promise.all(deletes);
    expect(results.map((r) => r.statusCode)).toEqual(Array(21).fill(200));
  });

  it('no message lands after the end: every create either precedes it or gets DIALOGUE_ENDED', async () => {
    const dialogue = await createDialogue(api);
    const creates = Array.from({ length: 60 }, (_, i) => post(dialogue.id, `m${i}`));
    const end = api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/end` });
    const results = await Promise.all([...creates, end]);
    const created = results.slice(0, 60).filter((r) => r.statusCode === 201);
    const refused = results.slice(0, 60).filter((r) => r.statusCode === 409);
    expect(created.length + refused.length).toBe(60);
    expect(refused.every((r) => r.json().error.code === 'DIALOGUE_ENDED')).toBe(true);
    const ended = results[60]!.json();
    expect(ended.totalMessages).toBe(created.length);
    expect(await storedCount(dialogue.id)).toBe(created.length);
  });
});

describe('word counts under concurrency (D140)', () => {
  it('concurrent batches into dialogues whose word counts share rows never deadlock', async () => {
    // Sixteen dialogues over the counts' eight buckets: some share one, and each batch's new words
    // overlap the others'. Batches of different sizes and vocabularies made PostgreSQL hash their
    // words into different orders, and two appends locking common count rows in opposite orders
    // deadlocked (a 500 to one of them).
    const dialogues = await Promise.all(Array.from({ length: 16 }, () => createDialogue(api)));
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const text = () => Array.from({ length: 3 + random(40) }, () => `word${random(3_000)}`).join(' ');
    for (let round = 0; round < 4; round++) {
      const responses = await Promise.all(
        dialogues.map((dialogue) =>
          api({
            method: 'POST',
            url: `${V1}/messages`,
            payload: {
              dialogueId: dialogue.id,
              messages: Array.from({ length: 10 + random(60) }, () => ({ role: 'user', content: text() })),
            },
          }),
        ),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(dialogues.length).fill(201));
    }
  });
});

describe('cursor walk while messages are appended (D29, D32)', () => {
  it('returns every message exactly once, in order, skipping none of the appended ones it passed', async () => {
    const dialogue = await createDialogue(api);
    const initial = Array.from({ length: 150 }, (_, i) => ({ role: 'user', content: `old${i}` }));
    for (let i = 0; i < initial.length; i += 50) {
      await api({
        method: 'POST',
        url: `${V1}/messages`,
        payload: { dialogueId: dialogue.id, messages: initial.slice(i, i + 50) },
      });
    }
    const appending = (async () => {
      for (let i = 0; i < 40; i++) {
        await Promise.all([post(dialogue.id, `new${i}a`), post(dialogue.id, `new${i}b`)]);
      }
    })();
    const walked = await walk<MessageBody>(api, `${V1}/messages?dialogueId=${dialogue.id}&limit=7`);
    await appending;

    const ids = walked.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const old = walked.filter((m) => String(m.content).startsWith('old')).map((m) => m.content);
    expect(old).toEqual(initial.map((m) => m.content));
    const created = walked.map((m) => Date.parse(m.created as string));
    expect(created).toEqual([...created].sort((a, b) => a - b));

    const full = await walk<MessageBody>(api, `${V1}/messages?dialogueId=${dialogue.id}&limit=13`);
    expect(full).toHaveLength(230);
    expect(new Set(full.map((m) => m.id)).size).toBe(230);
    const backwards = await walk<MessageBody>(
      api,
      `${V1}/messages?dialogueId=${dialogue.id}&limit=9&order=desc`,
    );
    expect(backwards.map((m) => m.id)).toEqual(full.map((m) => m.id).reverse());
    // Appends land after every committed message, so the walk skipped none of those it passed.
    expect(ids).toEqual(full.slice(0, ids.length).map((m) => m.id));
  });

  it('orders messages with equal created times by insertion order, stable across pages', async () => {
    const created = '2024-05-05T12:00:00.000Z';
    const messages = Array.from({ length: 30 }, (_, i) => ({ role: 'user', content: `same${i}`, created }));
    const dialogue = await createDialogue(api);
    await api({ method: 'POST', url: `${V1}/messages`, payload: { dialogueId: dialogue.id, messages } });
    const walked = await walk<MessageBody>(api, `${V1}/messages?dialogueId=${dialogue.id}&limit=4`);
    expect(walked.map((m) => m.content)).toEqual(messages.map((m) => m.content));
  });
});
