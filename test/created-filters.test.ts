import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './helpers/app.js';
import { type Api, V1, createDialogue, useProjectApi, walk } from './helpers/dialogues.js';
import { untilClockPasses } from './helpers/clock.js';

// D58: `created` (one UTC day) and `startDate`/`endDate` (instants, both included to the
// millisecond) on the lists of dialogues, messages and memories, with every other filter and cursors.

const file = useProjectApi();
const api: Api = (options) => file.api(options);

const TIMES = [
  '2024-05-01T23:59:59.999Z',
  '2024-05-02T00:00:00.000Z',
  '2024-05-02T12:00:00.000Z',
  '2024-05-02T23:59:59.999Z',
  '2024-05-03T00:00:00.000Z',
];

const createdOf = (items: { created: string }[]) => items.map((item) => item.created);

describe('creation-time filters on lists (D58)', () => {
  let dialogueId: string;
  beforeAll(async () => {
    for (const created of TIMES) await createDialogue(api, { namespace: 'd58', created });
    // Another namespace on the same days: the namespace filter still applies.
    await createDialogue(api, { namespace: 'd58-other', created: TIMES[2] });
    dialogueId = (
      await createDialogue(api, {
        namespace: 'd58-messages',
        messages: TIMES.map((created, i) => ({ role: 'user', content: `m${i}`, created })),
      })
    ).id;
  });

  it('lists the dialogues of one UTC day with created, newest first, through cursors', async () => {
    const items = await walk<{ created: string }>(
      api,
      `${V1}/dialogue?namespace=d58&created=2024-05-02&limit=1`,
    );
    expect(createdOf(items)).toEqual([TIMES[3], TIMES[2], TIMES[1]]);
  });

  it('includes both startDate and endDate to the millisecond', async () => {
    const url = `${V1}/dialogue?namespace=d58&order=asc&limit=2&startDate=${TIMES[0]}&endDate=${TIMES[3]}`;
    expect(createdOf(await walk(api, url))).toEqual(TIMES.slice(0, 4));
    const after = `${V1}/dialogue?namespace=d58&order=asc&startDate=2024-05-02T00:00:00.001Z`;
    expect(createdOf(await walk(api, after))).toEqual(TIMES.slice(2));
    const before = `${V1}/dialogue?namespace=d58&order=asc&endDate=2024-05-02T23:59:59.998Z`;
    expect(createdOf(await walk(api, before))).toEqual(TIMES.slice(0, 3));
  });

  it('reads a bare date as a whole UTC day at either end, and a date-time without zone as UTC', async () => {
    const url = `${V1}/dialogue?namespace=d58&order=asc&startDate=2024-05-02&endDate=2024-05-02`;
    expect(createdOf(await walk(api, url))).toEqual(TIMES.slice(1, 4));
    const noZone = `${V1}/dialogue?namespace=d58&order=asc&startDate=2024-05-02T12:00:00`;
    expect(createdOf(await walk(api, noZone))).toEqual(TIMES.slice(2));
  });

  it('combines with the D26 date filter and the other filters', async () => {
    const url = `${V1}/dialogue?namespace=d58&order=asc&date=2024-05-02&startDate=2024-05-02T06:00:00Z`;
    expect(createdOf(await walk(api, url))).toEqual(TIMES.slice(2, 4));
    const all = await walk<{ namespace: string }>(api, `${V1}/dialogue?created=2024-05-02&limit=100`);
    expect(all.filter((d) => d.namespace === 'd58-other')).toHaveLength(1);
  });

  it('filters messages by their created, on GET /messages and its dialogue-scoped alias (D4)', async () => {
    for (const base of [
      `${V1}/messages?dialogueId=${dialogueId}&namespace=d58-messages`,
      `${V1}/dialogue/${dialogueId}/messages?namespace=d58-messages`,
    ]) {
      expect(createdOf(await walk(api, `${base}&created=2024-05-02&limit=1`))).toEqual(TIMES.slice(1, 4));
      const range = `${base}&order=desc&startDate=${TIMES[0]}&endDate=${TIMES[1]}`;
      expect(createdOf(await walk(api, range))).toEqual([TIMES[1], TIMES[0]]);
    }
  });

  it('filters memories by their created', async () => {
    const made: { id: string; created: string }[] = [];
    for (const value of ['one', 'two', 'three']) {
      const response = await api({
        method: 'POST',
        url: `${V1}/memory`,
        payload: { value, namespace: 'd58' },
      });
      made.push(response.json());
      await untilClockPasses(made.at(-1)!.created);
    }
    const url = `${V1}/memory?namespace=d58&order=asc&limit=1&startDate=${made[1]!.created}&endDate=${made[2]!.created}`;
    expect((await walk<{ id: string }>(api, url)).map((m) => m.id)).toEqual([made[1]!.id, made[2]!.id]);
    const today = made[0]!.created.slice(0, 10);
    expect(await walk(api, `${V1}/memory?namespace=d58&created=${today}`)).toHaveLength(3);
    expect(await walk(api, `${V1}/memory?namespace=d58&created=2001-01-01`)).toHaveLength(0);
  });

  it('refuses malformed values and an empty range with 400 INVALID_PARAMETER naming the parameter', async () => {
    for (const [query, field] of [
      ['created=yesterday', 'created'],
      ['created=2025-02-30', 'created'],
      ['startDate=2024-13-01T00:00:00Z', 'startDate'],
      ['endDate=12345', 'endDate'],
      [`startDate=${TIMES[2]}&endDate=${TIMES[1]}`, 'endDate'],
    ] as const) {
      for (const list of [
        `${V1}/dialogue?`,
        `${V1}/messages?dialogueId=${dialogueId}&namespace=d58-messages&`,
        `${V1}/memory?`,
      ]) {
        const error = expectError(
          await api({ method: 'GET', url: `${list}${query}` }),
          400,
          'INVALID_PARAMETER',
        );
        expect(error.details?.[0]?.field, `${list}${query}`).toBe(field);
      }
    }
  });
});
