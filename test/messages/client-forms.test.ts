import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import { type Api, V1, createDialogue, getDialogue, sendRaw, useProjectApi } from '../helpers/dialogues.js';

// D54: POST /message names its dialogue in the body or the query. D55: POST /messages also takes
// a bare array with the dialogue in the query, and answers it with a bare array.

const file = useProjectApi();
const api: Api = (options) => file.api(options);

let plain: string;
let namespaced: string;
beforeAll(async () => {
  plain = (await createDialogue(api)).id;
  namespaced = (await createDialogue(api, { namespace: 'user-1' })).id;
});

const total = async (id: string) => (await getDialogue(api, id)).totalMessages;

describe('POST /message with the dialogue in the body or the query (D54)', () => {
  it('takes dialogueId and namespace from the query, as older clients send them', async () => {
    const response = await api({
      method: 'POST',
      url: `${V1}/message?dialogueId=${namespaced}&namespace=user-1`,
      payload: { role: 'user', content: 'from the query' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ dialogueId: namespaced, namespace: 'user-1' });
  });

  it('takes the dialogue from the body and the namespace from the query, and the same value twice', async () => {
    for (const [url, payload] of [
      [`${V1}/message?namespace=user-1`, { dialogueId: namespaced, role: 'user', content: 'x' }],
      [
        `${V1}/message?dialogueId=${namespaced}`,
        { dialogueId: namespaced, namespace: 'user-1', role: 'user', content: 'x' },
      ],
    ] as const) {
      const response = await api({ method: 'POST', url, payload });
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  it('keeps D34 for the query form: a namespaced dialogue named without its namespace is not found', async () => {
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/message?dialogueId=${namespaced}`,
        payload: { role: 'user', content: 'x' },
      }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });

  it('answers body and query that differ with 400 INVALID_PARAMETER, storing nothing', async () => {
    const before = await total(namespaced);
    for (const [url, field] of [
      [`${V1}/message?dialogueId=${plain}`, 'dialogueId'],
      [`${V1}/message?namespace=user-2`, 'namespace'],
    ] as const) {
      const error = expectError(
        await api({
          method: 'POST',
          url,
          payload: { dialogueId: namespaced, namespace: 'user-1', role: 'user', content: 'x' },
        }),
        400,
        'INVALID_PARAMETER',
      );
      expect(error.details).toEqual([expect.objectContaining({ field, code: 'INVALID_PARAMETER' })]);
    }
    expect(await total(namespaced)).toBe(before);
  });

  it('answers a dialogue named nowhere with 400 MISSING_PARAMETER', async () => {
    const error = expectError(
      await api({ method: 'POST', url: `${V1}/message`, payload: { role: 'user', content: 'x' } }),
      400,
      'MISSING_PARAMETER',
    );
    expect(error.details?.[0]?.field).toBe('dialogueId');
  });
});

describe('POST /messages with a bare array (D55)', () => {
  it('stores the array in order and answers 201 with a bare array, content exact (D28)', async () => {
    const content = '{"z":1,"a":12345678901234567890}';
    const response = await sendRaw(
      api,
      'POST',
      `${V1}/messages?dialogueId=${namespaced}&namespace=user-1`,
      `[{"role":"user","content":${content}},{"role":"assistant","content":"second","id":"a-2"}]`,
      { 'content-type': 'text/plain;charset=UTF-8' },
    );
    expect(response.statusCode, response.body).toBe(201);
    const items = response.json();
    expect(Array.isArray(items)).toBe(true);
    expect(items.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(items[1]).toMatchObject({ id: 'a-2', dialogueId: namespaced, namespace: 'user-1' });
    expect(response.body).toContain(`"content":${content},`);
  });

  it('keeps the object form and its answer (D31)', async () => {
    const response = await api({
      method: 'POST',
      url: `${V1}/messages`,
      payload: { dialogueId: plain, messages: [{ role: 'user', content: 'x' }] },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ dialogueId: plain, totalMessages: expect.any(Number) });
  });

  it('refuses an empty array and more than 100 messages with the object form codes', async () => {
    const before = await total(plain);
    const url = `${V1}/messages?dialogueId=${plain}`;
    expectError(await api({ method: 'POST', url, payload: [] }), 400, 'EMPTY_MESSAGE_ARRAY');
    const many = Array.from({ length: 101 }, () => ({ role: 'user', content: 'x' }));
    expectError(await api({ method: 'POST', url, payload: many }), 400, 'TOO_MANY_MESSAGES');
    expect(await total(plain)).toBe(before);
  });

  it('names invalid messages as [i].field, for shape, content and duplicate ids alike, storing none', async () => {
    const before = await total(plain);
    const url = `${V1}/messages?dialogueId=${plain}`;
    const shape = expectError(
      await api({
        method: 'POST',
        url,
        payload: [
          { role: 'user', content: 'ok' },
          { role: 'robot', content: 'x' },
        ],
      }),
      400,
      'INVALID_INPUT',
    );
    expect(shape.details?.map((d) => d.field)).toEqual(['[1].role']);
    const empty = expectError(
      await api({
        method: 'POST',
        url,
        payload: [
          { role: 'user', content: 'ok' },
          { role: 'user', content: '' },
        ],
      }),
      400,
      'MESSAGE_CONTENT_EMPTY',
    );
    expect(empty.details?.map((d) => d.field)).toEqual(['[1].content']);
    const twice = expectError(
      await api({
        method: 'POST',
        url,
        payload: [
          { id: 'same', role: 'user', content: 'a' },
          { id: 'same', role: 'user', content: 'b' },
        ],
      }),
      409,
      'DUPLICATE_ID',
    );
    expect(twice.details?.[0]?.field).toBe('[1].id');
    expect(await total(plain)).toBe(before);
  });

  it('needs the dialogue in the query, and applies D34 to it', async () => {
    const payload = [{ role: 'user', content: 'x' }];
    const missing = expectError(
      await api({ method: 'POST', url: `${V1}/messages`, payload }),
      400,
      'MISSING_PARAMETER',
    );
    expect(missing.details?.[0]?.field).toBe('dialogueId');
    expectError(
      await api({ method: 'POST', url: `${V1}/messages?dialogueId=${namespaced}`, payload }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });

  it('refuses a body that is neither an object nor an array', async () => {
    const error = expectError(
      await sendRaw(api, 'POST', `${V1}/messages?dialogueId=${plain}`, '"text"'),
      400,
      'INVALID_INPUT',
    );
    expect(error.message).toContain('object or array');
  });
});
