import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import {
  type Api,
  V1,
  useProjectApi,
  addMessage,
  createDialogue,
  getDialogue,
} from '../helpers/dialogues.js';

const file = useProjectApi();
const api: Api = (options) => file.api(options);

describe('GET /message/{messageId}', () => {
  it('returns the whole record (D30)', async () => {
    const dialogue = await createDialogue(api);
    const created = await addMessage(api, dialogue.id, { role: 'user', content: 'hi', metadata: { a: 1 } });
    const response = await api({
      method: 'GET',
      url: `${V1}/message/${created.id}?dialogueId=${dialogue.id}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('needs dialogueId, and answers unknown messages with MESSAGE_NOT_FOUND', async () => {
    const dialogue = await createDialogue(api);
    const message = await addMessage(api, dialogue.id);
    expectError(await api({ method: 'GET', url: `${V1}/message/${message.id}` }), 400, 'MISSING_PARAMETER');
    expectError(
      await api({ method: 'GET', url: `${V1}/message/msg_nope?dialogueId=${dialogue.id}` }),
      404,
      'MESSAGE_NOT_FOUND',
    );
    const other = await createDialogue(api);
    expectError(
      await api({ method: 'GET', url: `${V1}/message/${message.id}?dialogueId=${other.id}` }),
      404,
      'MESSAGE_NOT_FOUND',
    );
  });
});

describe('a path without its id', () => {
  it('answers MISSING_PARAMETER instead of an unknown route', async () => {
    const cases = [
      ['GET', `${V1}/message`],
      ['PUT', `${V1}/message/`],
      ['DELETE', `${V1}/message`],
      ['DELETE', `${V1}/dialogue/dlg_x/messages`],
      ['PUT', `${V1}/dialogue`],
      ['DELETE', `${V1}/dialogue/`],
    ] as const;
    for (const [method, url] of cases) {
      const error = expectError(
        await api({ method, url, payload: method === 'PUT' ? { tags: [] } : undefined }),
        400,
        'MISSING_PARAMETER',
      );
      expect(error.details?.[0]?.field).toMatch(/^(id|messageId)$/);
    }
  });
});

describe('PUT /message/{messageId}', () => {
  it('replaces the tags and nothing else (D33)', async () => {
    const dialogue = await createDialogue(api);
    const message = await addMessage(api, dialogue.id, { role: 'user', content: 'x', tags: ['old'] });
    const url = `${V1}/message/${message.id}?dialogueId=${dialogue.id}`;
    const response = await api({ method: 'PUT', url, payload: { tags: ['new', 'set'] } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: message.id, tags: ['new', 'set'], content: 'x' });
    for (const payload of [
      { tags: ['a'], content: 'changed' },
      { role: 'assistant' },
      { tags: ['a'], metadata: {} },
    ]) {
      expectError(await api({ method: 'PUT', url, payload }), 400, 'INVALID_INPUT');
    }
    expectError(await api({ method: 'PUT', url, payload: {} }), 400, 'MISSING_PARAMETER');
    expectError(await api({ method: 'PUT', url, payload: { tags: [''] } }), 400, 'INVALID_INPUT');
    const missing = `${V1}/message/msg_nope?dialogueId=${dialogue.id}`;
    expectError(await api({ method: 'PUT', url: missing, payload: { tags: [] } }), 404, 'MESSAGE_NOT_FOUND');
    const stored = await api({ method: 'GET', url });
    expect(stored.json()).toMatchObject({ tags: ['new', 'set'], content: 'x', role: 'user' });
  });
});

describe('DELETE /message/{messageId}', () => {
  it('deletes for good and moves the counters back (D35)', async () => {
    const dialogue = await createDialogue(api);
    const early = await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'a',
      created: '2024-01-01T00:00:00Z',
    });
    const late = await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'b',
      created: '2024-06-01T00:00:00Z',
    });
    const response = await api({
      method: 'DELETE',
      url: `${V1}/message/${late.id}?dialogueId=${dialogue.id}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, id: late.id, dialogueId: dialogue.id });
    let after = await getDialogue(api, dialogue.id);
    expect(after.totalMessages).toBe(1);
    expect(after.lastMessageCreated).toBe(early.created);
    expectError(
      await api({ method: 'GET', url: `${V1}/message/${late.id}?dialogueId=${dialogue.id}` }),
      404,
      'MESSAGE_NOT_FOUND',
    );
    const alias = await api({ method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}/messages/${early.id}` });
    expect(alias.json()).toEqual({ success: true, id: early.id, dialogueId: dialogue.id });
    after = await getDialogue(api, dialogue.id);
    expect(after.totalMessages).toBe(0);
    expect(after.lastMessageCreated).toBeNull();
  });

  it('answers a second delete, or a missing dialogueId, with the right error', async () => {
    const dialogue = await createDialogue(api);
    const message = await addMessage(api, dialogue.id);
    const url = `${V1}/message/${message.id}?dialogueId=${dialogue.id}`;
    expect((await api({ method: 'DELETE', url })).statusCode).toBe(200);
    expectError(await api({ method: 'DELETE', url }), 404, 'MESSAGE_NOT_FOUND');
    expectError(
      await api({ method: 'DELETE', url: `${V1}/message/${message.id}` }),
      400,
      'MISSING_PARAMETER',
    );
    expectError(
      await api({ method: 'DELETE', url: `${V1}/dialogue/dlg_nope/messages/${message.id}` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(0);
  });

  it('deletes messages of an ended dialogue', async () => {
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'x', id: 'one' }] });
    await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/end` });
    const response = await api({ method: 'DELETE', url: `${V1}/message/one?dialogueId=${dialogue.id}` });
    expect(response.statusCode).toBe(200);
  });
});

describe('custom ids (D27)', () => {
  it('accepts 128 characters of A-Za-z0-9._:- and refuses 129 or other characters', async () => {
    const dialogue = await createDialogue(api);
    const long = `A-z.0:_${'x'.repeat(121)}`;
    expect(long).toHaveLength(128);
    const message = await addMessage(api, dialogue.id, { id: long, role: 'user', content: 'x' });
    expect(message.id).toBe(long);
    const fetched = await api({
      method: 'GET',
      url: `${V1}/message/${encodeURIComponent(long)}?dialogueId=${dialogue.id}`,
    });
    expect(fetched.statusCode).toBe(200);
    for (const id of [`${long}x`, 'has space', 'slash/no', '', 'é']) {
      const response = await api({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: dialogue.id, id, role: 'user', content: 'x' },
      });
      expectError(response, 400, 'INVALID_INPUT');
    }
  });

  it('refuses an id taken in the dialogue with DUPLICATE_ID; other dialogues may reuse it', async () => {
    const dialogue = await createDialogue(api);
    await addMessage(api, dialogue.id, { id: 'same', role: 'user', content: 'x' });
    const again = await api({
      method: 'POST',
      url: `${V1}/message`,
      payload: { dialogueId: dialogue.id, id: 'same', role: 'user', content: 'y' },
    });
    expectError(again, 409, 'DUPLICATE_ID');
    const other = await createDialogue(api);
    expect((await addMessage(api, other.id, { id: 'same', role: 'user', content: 'z' })).id).toBe('same');
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(1);
  });

  it('refuses a batch that repeats an id or reuses a stored one, storing nothing', async () => {
    const dialogue = await createDialogue(api, { messages: [{ id: 'taken', role: 'user', content: 'x' }] });
    const twice = await api({
      method: 'POST',
      url: `${V1}/messages`,
      payload: {
        dialogueId: dialogue.id,
        messages: [
          { id: 'a', role: 'user', content: 'x' },
          { id: 'a', role: 'user', content: 'y' },
        ],
      },
    });
    expect(expectError(twice, 409, 'DUPLICATE_ID').details?.[0]?.field).toBe('messages[1].id');
    const stored = await api({
      method: 'POST',
      url: `${V1}/messages`,
      payload: {
        dialogueId: dialogue.id,
        messages: [
          { id: 'fresh', role: 'user', content: 'x' },
          { id: 'taken', role: 'user', content: 'y' },
        ],
      },
    });
    expect(expectError(stored, 409, 'DUPLICATE_ID').details?.[0]?.field).toBe('messages[1].id');
    const creation = await api({
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: {
        messages: [{ id: 'z', role: 'user', content: 'x' }],
        message: { id: 'z', role: 'user', content: 'y' },
      },
    });
    expect(expectError(creation, 409, 'DUPLICATE_ID').details?.[0]?.field).toBe('message.id');
    const after = await getDialogue(api, dialogue.id);
    expect(after.totalMessages).toBe(1);
    expect(after.messages.map((m) => m.id)).toEqual(['taken']);
  });
});

describe('namespace rule (D34)', () => {
  it('needs the dialogue namespace on every message operation, else DIALOGUE_NOT_FOUND', async () => {
    const dialogue = await createDialogue(api, {
      namespace: 'alice',
      messages: [{ id: 'm1', role: 'user', content: 'x' }],
    });
    const plain = await createDialogue(api, { messages: [{ id: 'm1', role: 'user', content: 'x' }] });
    const add = (dialogueId: string, namespace?: string) =>
      api({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId, namespace, role: 'user', content: 'y' },
      });
    const wrong = ['', '&namespace=bob'];
    for (const suffix of wrong) {
      const requests = [
        { method: 'GET', url: `${V1}/messages?dialogueId=${dialogue.id}${suffix}` },
        { method: 'GET', url: `${V1}/dialogue/${dialogue.id}/messages${suffix.replace(/^&/, '?')}` },
        { method: 'GET', url: `${V1}/message/m1?dialogueId=${dialogue.id}${suffix}` },
        {
          method: 'PUT',
          url: `${V1}/message/m1?dialogueId=${dialogue.id}${suffix}`,
          payload: { tags: ['t'] },
        },
        { method: 'DELETE', url: `${V1}/message/m1?dialogueId=${dialogue.id}${suffix}` },
        { method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}/messages/m1${suffix.replace(/^&/, '?')}` },
      ] as const;
      for (const request of requests) expectError(await api({ ...request }), 404, 'DIALOGUE_NOT_FOUND');
    }
    expectError(await add(dialogue.id), 404, 'DIALOGUE_NOT_FOUND');
    expectError(await add(dialogue.id, 'bob'), 404, 'DIALOGUE_NOT_FOUND');
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/messages`,
        payload: { dialogueId: dialogue.id, messages: [{ role: 'user', content: 'x' }] },
      }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    // A namespace given for a dialogue that has none does not match it either.
    expectError(await add(plain.id, 'alice'), 404, 'DIALOGUE_NOT_FOUND');
    expectError(
      await api({ method: 'GET', url: `${V1}/message/m1?dialogueId=${plain.id}&namespace=alice` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );

    const created = await add(dialogue.id, 'alice');
    expect(created.statusCode).toBe(201);
    expect(created.json().namespace).toBe('alice');
    const listed = await api({
      method: 'GET',
      url: `${V1}/messages?dialogueId=${dialogue.id}&namespace=alice`,
    });
    expect(listed.json().items).toHaveLength(2);
    const fetched = await api({
      method: 'GET',
      url: `${V1}/message/m1?dialogueId=${dialogue.id}&namespace=alice`,
    });
    expect(fetched.json().namespace).toBe('alice');
    const deleted = await api({
      method: 'DELETE',
      url: `${V1}/dialogue/${dialogue.id}/messages/m1?namespace=alice`,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(1);
  });
});
