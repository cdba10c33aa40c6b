import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import { type Api, V1, createDialogue, useProjectApi } from '../helpers/dialogues.js';

// D52: the DialogueDB client sets no Content-Type, so its JSON arrives as text/plain (its fetch
// adds `text/plain;charset=UTF-8` to a string body) or, from other HTTP clients, with none at all.

const file = useProjectApi();
const api: Api = (options) => file.api(options);

/** Sends `text` with the given Content-Type, or with none when `contentType` is undefined. */
function send(method: 'POST' | 'PUT', url: string, text: string, contentType: string | undefined) {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  return api({ method, url, payload: Buffer.from(text), headers });
}

const CLIENT_TYPES = ['text/plain;charset=UTF-8', 'text/plain', 'TEXT/PLAIN; charset=ISO-8859-1', undefined];

describe('JSON bodies without application/json (D52)', () => {
  let dialogueId: string;
  beforeAll(async () => {
    dialogueId = (await createDialogue(api)).id;
  });

  it('a Buffer body is injected without a Content-Type (the tests below rely on it)', async () => {
    // Guards the tests below: light-my-request must not add a type to a Buffer payload.
    const echo = await send('POST', `${V1}/message`, '{', undefined);
    expect(echo.statusCode).toBe(400);
  });

  for (const contentType of CLIENT_TYPES) {
    const name = contentType ?? 'no Content-Type';
    it(`parses ${name} as JSON and keeps message content exact (D28)`, async () => {
      const content = '{"b":1,"10":2,"big":123456789012345678901234567890,"s":"caf\\u00e9"}';
      const created = await send(
        'POST',
        `${V1}/message`,
        `{"dialogueId":"${dialogueId}","role":"user","content":${content}}`,
        contentType,
      );
      expect(created.statusCode, created.body).toBe(201);
      expect(created.body).toContain(`"content":${content},`);
      const read = await api({
        method: 'GET',
        url: `${V1}/message/${created.json().id}?dialogueId=${dialogueId}`,
      });
      expect(read.body).toContain(`"content":${content},`);
    });

    it(`answers invalid JSON sent as ${name} with 400 INVALID_INPUT`, async () => {
      const before = await api({ method: 'GET', url: `${V1}/dialogue?limit=100` });
      const error = expectError(
        await send('POST', `${V1}/dialogue`, '{"label":', contentType),
        400,
        'INVALID_INPUT',
      );
      expect(error.type).toBe('validation_error');
      const after = await api({ method: 'GET', url: `${V1}/dialogue?limit=100` });
      expect(after.json().items).toHaveLength(before.json().items.length);
    });
  }

  it('accepts text/plain on every kind of write: dialogue, update, batch, tags, memory, search', async () => {
    const type = 'text/plain;charset=UTF-8';
    const dialogue = await send('POST', `${V1}/dialogue`, '{"label":"plain","tags":["a"]}', type);
    expect(dialogue.statusCode, dialogue.body).toBe(201);
    const id = dialogue.json().id;
    const update = await send('PUT', `${V1}/dialogue/${id}`, '{"label":"changed"}', type);
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json().label).toBe('changed');
    const batch = await send(
      'POST',
      `${V1}/messages`,
      `{"dialogueId":"${id}","messages":[{"role":"user","content":"hi"}]}`,
      type,
    );
    expect(batch.statusCode, batch.body).toBe(201);
    const messageId = batch.json().items[0].id;
    const tags = await send('PUT', `${V1}/message/${messageId}?dialogueId=${id}`, '{"tags":["t"]}', type);
    expect(tags.statusCode, tags.body).toBe(200);
    const state = await send('PUT', `${V1}/dialogue/${id}/state`, '{"step":1}', type);
    expect(state.json().state).toEqual({ step: 1 });
    const memory = await send('POST', `${V1}/memory`, '{"value":"remember this"}', undefined);
    expect(memory.statusCode, memory.body).toBe(201);
    const search = await send('POST', `${V1}/search`, '{"query":"remember this","object":"memory"}', type);
    expect(search.statusCode, search.body).toBe(200);
    const end = await send('POST', `${V1}/dialogue/${id}/end`, '{}', type);
    expect(end.statusCode, end.body).toBe(200);
  });

  it('still refuses other media types with 415, storing nothing', async () => {
    const before = await api({ method: 'GET', url: `${V1}/dialogue?limit=100` });
    for (const type of ['application/x-www-form-urlencoded', 'application/octet-stream', 'text/html']) {
      const error = expectError(
        await send('POST', `${V1}/dialogue`, '{"label":"x"}', type),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expect(error.message).toContain('text/plain');
    }
    const after = await api({ method: 'GET', url: `${V1}/dialogue?limit=100` });
    expect(after.json().items).toHaveLength(before.json().items.length);
  });

  it('reads a text/plain body that is not UTF-8 as invalid input', async () => {
    const latin1 = Buffer.from('{"label":"caf\xe9"}', 'latin1');
    const response = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: latin1,
      headers: { 'content-type': 'text/plain; charset=ISO-8859-1' },
    });
    expectError(response, 400, 'INVALID_INPUT');
  });

  it('answers every write the client makes with a JSON body, deletes and end included (D61)', async () => {
    const type = 'text/plain;charset=UTF-8';
    const id = (await createDialogue(api, { message: { role: 'user', content: 'x' } })).id;
    const messageId = (await api({ method: 'GET', url: `${V1}/messages?dialogueId=${id}` })).json().items[0]
      .id;
    const memoryId = (await send('POST', `${V1}/memory`, '{"value":"v"}', type)).json().id;
    const answers = [
      await send('POST', `${V1}/dialogue/${id}/end`, '{}', type),
      // Older clients end with a PUT and no body.
      await api({ method: 'PUT', url: `${V1}/dialogue/${id}/end` }),
      await api({ method: 'DELETE', url: `${V1}/message/${messageId}?dialogueId=${id}` }),
      await api({ method: 'DELETE', url: `${V1}/memory/${memoryId}` }),
      await api({ method: 'DELETE', url: `${V1}/dialogue/${id}` }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toContain('application/json');
      expect(typeof answer.json()).toBe('object');
      expect(Object.keys(answer.json()).length).toBeGreaterThan(0);
    }
  });
});
