import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import {
  type Api,
  type MessageBody,
  V1,
  addMessage,
  createDialogue,
  getDialogue,
  walk,
  useProjectApi,
} from '../helpers/dialogues.js';

const file = useProjectApi();
const api: Api = (options) => file.api(options);

const post = (payload: Record<string, unknown>) => api({ method: 'POST', url: `${V1}/message`, payload });
const batch = (payload: Record<string, unknown>) => api({ method: 'POST', url: `${V1}/messages`, payload });

describe('POST /message', () => {
  it('creates a message and moves the counters of its dialogue (D35)', async () => {
    const dialogue = await createDialogue(api);
    const response = await post({
      dialogueId: dialogue.id,
      role: 'assistant',
      content: 'Hello there',
      name: 'bot',
      tags: ['greeting'],
      metadata: { model: 'x' },
    });
    expect(response.statusCode).toBe(201);
    const message = response.json() as MessageBody;
    expect(message).toMatchObject({
      dialogueId: dialogue.id,
      namespace: null,
      role: 'assistant',
      content: 'Hello there',
      contentLength: 11,
      name: 'bot',
      tags: ['greeting'],
      metadata: { model: 'x' },
    });
    expect(message.id).toMatch(/^msg_/);
    const after = await getDialogue(api, dialogue.id);
    expect(after.totalMessages).toBe(1);
    expect(after.lastMessageCreated).toBe(message.created);
    expect(Date.parse(after.modified as string)).toBeGreaterThanOrEqual(
      Date.parse(message.created as string),
    );
    expect(Date.parse(after.modified as string)).toBeGreaterThanOrEqual(
      Date.parse(dialogue.modified as string),
    );
  });

  it('keeps lastMessageCreated at the greatest created, not the latest insert (D35)', async () => {
    const dialogue = await createDialogue(api);
    await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'late',
      created: '2030-01-01T00:00:00.000Z',
    });
    await addMessage(api, dialogue.id, {
      role: 'user',
      content: 'early',
      created: '2020-01-01T00:00:00+02:00',
    });
    const after = await getDialogue(api, dialogue.id);
    expect(after.lastMessageCreated).toBe('2030-01-01T00:00:00.000Z');
    expect(after.messages.map((m) => m.content)).toEqual(['early', 'late']);
  });

  it('answers each missing required field with MISSING_PARAMETER', async () => {
    const dialogue = await createDialogue(api);
    for (const [payload, field] of [
      [{ role: 'user', content: 'x' }, 'dialogueId'],
      [{ dialogueId: dialogue.id, content: 'x' }, 'role'],
      [{ dialogueId: dialogue.id, role: 'user' }, 'content'],
    ] as const) {
      expect(expectError(await post(payload), 400, 'MISSING_PARAMETER').details?.[0]?.field).toBe(field);
    }
  });

  it('refuses empty content of every shape with MESSAGE_CONTENT_EMPTY (D28)', async () => {
    const dialogue = await createDialogue(api);
    for (const content of ['', [], {}, null]) {
      expectError(
        await post({ dialogueId: dialogue.id, role: 'user', content }),
        400,
        'MESSAGE_CONTENT_EMPTY',
      );
    }
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(0);
  });

  it('stores the tool and developer roles of current chat APIs as sent (D80)', async () => {
    const dialogue = await createDialogue(api);
    const developer = await post({ dialogueId: dialogue.id, role: 'developer', content: 'Answer briefly.' });
    expect(developer.statusCode).toBe(201);
    const tool = await post({
      dialogueId: dialogue.id,
      role: 'tool',
      name: 'call_42',
      content: '{"temperature": 21}',
    });
    expect(tool.statusCode).toBe(201);
    const roles = (await walk<{ role: string }>(api, `${V1}/messages?dialogueId=${dialogue.id}`)).map(
      (m) => m.role,
    );
    expect(roles).toEqual(['developer', 'tool']);
  });

  it('refuses any other role, listing the accepted ones, and content of another shape (D29, D80)', async () => {
    const dialogue = await createDialogue(api);
    const error = expectError(
      await post({ dialogueId: dialogue.id, role: 'robot', content: 'x' }),
      400,
      'INVALID_INPUT',
    );
    expect(error.details?.[0]?.field).toBe('role');
    for (const role of ['user', 'assistant', 'system', 'tool', 'developer'])
      expect(error.message).toContain(role);
    for (const content of [42, true, ['a', 'b']]) {
      expectError(await post({ dialogueId: dialogue.id, role: 'user', content }), 400, 'INVALID_INPUT');
    }
  });

  it('answers an unknown dialogue with DIALOGUE_NOT_FOUND', async () => {
    expectError(
      await post({ dialogueId: 'dlg_nope', role: 'user', content: 'x' }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });

  it('refuses a message on an ended dialogue with DIALOGUE_ENDED', async () => {
    const dialogue = await createDialogue(api);
    await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/end` });
    expectError(await post({ dialogueId: dialogue.id, role: 'user', content: 'x' }), 409, 'DIALOGUE_ENDED');
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(0);
  });
});

describe('POST /messages', () => {
  it('adds 1-100 messages in order and returns them with the new total (D31)', async () => {
    const dialogue = await createDialogue(api, { messages: [{ role: 'user', content: 'first' }] });
    const messages = Array.from({ length: 100 }, (_, i) => ({ role: 'user', content: `m${i}` }));
    const response = await batch({ dialogueId: dialogue.id, messages });
    expect(response.statusCode).toBe(201);
    const body = response.json() as { dialogueId: string; items: MessageBody[]; totalMessages: number };
    expect(body.dialogueId).toBe(dialogue.id);
    expect(body.totalMessages).toBe(101);
    expect(body.items.map((m) => m.content)).toEqual(messages.map((m) => m.content));
    const listed = await walk<MessageBody>(api, `${V1}/messages?dialogueId=${dialogue.id}&limit=7`);
    expect(listed.map((m) => m.content)).toEqual(['first', ...messages.map((m) => m.content)]);
  });

  it('refuses 101 messages, an empty list and a non-list with their own codes', async () => {
    const dialogue = await createDialogue(api);
    const messages = Array.from({ length: 101 }, () => ({ role: 'user', content: 'x' }));
    expectError(await batch({ dialogueId: dialogue.id, messages }), 400, 'TOO_MANY_MESSAGES');
    expectError(await batch({ dialogueId: dialogue.id, messages: [] }), 400, 'EMPTY_MESSAGE_ARRAY');
    expectError(await batch({ dialogueId: dialogue.id, messages: 'hello' }), 400, 'INVALID_MESSAGE_ARRAY');
    expectError(
      await batch({ dialogueId: dialogue.id, messages: { role: 'user' } }),
      400,
      'INVALID_MESSAGE_ARRAY',
    );
    expectError(await batch({ dialogueId: dialogue.id }), 400, 'MISSING_PARAMETER');
  });

  it('stores nothing when one message is invalid, and names it in details (D31)', async () => {
    const dialogue = await createDialogue(api);
    const messages = [
      { role: 'user', content: 'fine' },
      { role: 'user', content: 'fine too' },
      { role: 'user', content: '' },
    ];
    const error = expectError(
      await batch({ dialogueId: dialogue.id, messages }),
      400,
      'MESSAGE_CONTENT_EMPTY',
    );
    expect(error.details).toEqual([
      { field: 'messages[2].content', code: 'MESSAGE_CONTENT_EMPTY', message: expect.any(String) },
    ]);
    const roleError = expectError(
      await batch({
        dialogueId: dialogue.id,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'x', content: 'y' },
        ],
      }),
      400,
      'INVALID_INPUT',
    );
    expect(roleError.details?.[0]?.field).toBe('messages[1].role');
    const after = await getDialogue(api, dialogue.id);
    expect(after.totalMessages).toBe(0);
    expect(after.messages).toEqual([]);
  });
});

describe('GET /messages', () => {
  it('lists oldest first by default, newest first with order=desc (D32)', async () => {
    const dialogue = await createDialogue(api, {
      messages: Array.from({ length: 5 }, (_, i) => ({ role: 'user', content: `m${i}` })),
    });
    const asc = await walk<MessageBody>(api, `${V1}/messages?dialogueId=${dialogue.id}&limit=2`);
    expect(asc.map((m) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    const desc = await walk<MessageBody>(api, `${V1}/messages?dialogueId=${dialogue.id}&limit=2&order=desc`);
    expect(desc.map((m) => m.content)).toEqual(['m4', 'm3', 'm2', 'm1', 'm0']);
    const alias = await walk<MessageBody>(api, `${V1}/dialogue/${dialogue.id}/messages?limit=3`);
    expect(alias.map((m) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  it('takes limit up to 200 with default 50', async () => {
    const dialogue = await createDialogue(api);
    const messages = Array.from({ length: 60 }, (_, i) => ({ role: 'user', content: `m${i}` }));
    await batch({ dialogueId: dialogue.id, messages });
    const page = await api({ method: 'GET', url: `${V1}/messages?dialogueId=${dialogue.id}` });
    expect(page.json().items).toHaveLength(50);
    expect(page.json().next).toEqual(expect.any(String));
    expect(
      (await api({ method: 'GET', url: `${V1}/messages?dialogueId=${dialogue.id}&limit=200` })).statusCode,
    ).toBe(200);
    const over = await api({ method: 'GET', url: `${V1}/messages?dialogueId=${dialogue.id}&limit=201` });
    expectError(over, 400, 'INVALID_PARAMETER');
  });

  it('needs dialogueId and an existing dialogue', async () => {
    expectError(await api({ method: 'GET', url: `${V1}/messages` }), 400, 'MISSING_PARAMETER');
    expectError(
      await api({ method: 'GET', url: `${V1}/messages?dialogueId=dlg_nope` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expectError(
      await api({ method: 'GET', url: `${V1}/dialogue/dlg_nope/messages` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });

  it('refuses a cursor of another list', async () => {
    const dialogue = await createDialogue(api);
    await createDialogue(api);
    const dialogues = await api({ method: 'GET', url: `${V1}/dialogue?limit=1` });
    const cursor = dialogues.json().next as string;
    const response = await api({
      method: 'GET',
      url: `${V1}/messages?dialogueId=${dialogue.id}&next=${cursor}`,
    });
    expectError(response, 400, 'INVALID_PARAMETER');
  });
});

describe('the append statement and the rule that explains its refusals', () => {
  it('agree for every stored status: a refusal always has its own error, never RESOURCE_CONFLICT', async () => {
    // Imported dialogues (`parley import`) may carry any status of the schema.
    for (const status of ['active', 'ended', 'canceled', 'expired', 'deleted']) {
      const dialogue = await createDialogue(api);
      await file.ctx.database.handle.db.execute(
        sql`UPDATE dialogues SET status = ${status} WHERE id = ${dialogue.id}`,
      );
      const response = await post({ dialogueId: dialogue.id, role: 'user', content: 'hello' });
      const body = response.json() as { error?: { code: string } };
      expect(body.error?.code, status).not.toBe('RESOURCE_CONFLICT');
      if (status === 'ended') expectError(response, 409, 'DIALOGUE_ENDED');
    }
  });
});
