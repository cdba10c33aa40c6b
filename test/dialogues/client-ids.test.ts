import { describe, expect, it } from 'vitest';
import { asProject, createProject, expectError } from '../helpers/app.js';
import { type Api, V1, createDialogue, getDialogue, useProjectApi } from '../helpers/dialogues.js';

// D57a: POST /dialogue takes the client's own `id` and `created`, so that the DialogueDB client's
// retried creates are safe and history can be imported with its times.

const file = useProjectApi();
const api: Api = (options) => file.api(options);

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;

async function count(url: string): Promise<number> {
  const response = await api({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items.length;
}

describe('client-given dialogue id and created (D57a)', () => {
  it('stores the given id and created; messages without their own created take it', async () => {
    const id = unique('conv_2024.05:a');
    const created = '2024-05-01T10:00:00.000Z';
    const dialogue = await createDialogue(api, {
      id,
      created,
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'second', created: '2024-05-01T10:05:00.000Z' },
      ],
    });
    expect(dialogue.id).toBe(id);
    expect(dialogue.created).toBe(created);
    expect(dialogue.messages.map((m) => m.created)).toEqual([created, '2024-05-01T10:05:00.000Z']);
    expect(dialogue.lastMessageCreated).toBe('2024-05-01T10:05:00.000Z');
    const read = await getDialogue(api, id);
    expect(read.created).toBe(created);
    expect(read.totalMessages).toBe(2);
  });

  it('reads a created with an offset as its instant', async () => {
    const dialogue = await createDialogue(api, { created: '2024-05-01T12:00:00+02:00' });
    expect(dialogue.created).toBe('2024-05-01T10:00:00.000Z');
    expect(dialogue.id).toMatch(/^dlg_/);
  });

  it('answers a taken id with 409 DUPLICATE_ID and stores nothing, messages and thread count included', async () => {
    const parent = await createDialogue(api);
    const id = unique('retried');
    const body = { id, threadOf: parent.id, label: 'once', message: { role: 'user', content: 'hello' } };
    await createDialogue(api, body);
    const dialoguesBefore = await count(`${V1}/dialogue?limit=100`);

    const retry = await api({ method: 'POST', url: `${V1}/dialogue`, payload: { ...body, label: 'twice' } });
    const error = expectError(retry, 409, 'DUPLICATE_ID');
    expect(error.type).toBe('conflict');
    expect(error.details).toEqual([expect.objectContaining({ field: 'id', code: 'DUPLICATE_ID' })]);

    expect(await count(`${V1}/dialogue?limit=100`)).toBe(dialoguesBefore);
    const stored = await getDialogue(api, id);
    expect(stored.label).toBe('once');
    expect(stored.totalMessages).toBe(1);
    expect(await count(`${V1}/messages?dialogueId=${id}`)).toBe(1);
    expect((await getDialogue(api, parent.id)).threadCount).toBe(1);
  });

  it('lets another project use the same id (ids are per project, D46)', async () => {
    const id = unique('shared');
    await createDialogue(api, { id });
    const other = asProject(file.ctx.app, await createProject(file.ctx.app));
    const theirs = await other({ method: 'POST', url: `${V1}/dialogue`, payload: { id } });
    expect(theirs.statusCode, theirs.body).toBe(201);
  });

  it('refuses ids outside the D27 alphabet and a created that is not ISO 8601 with a zone', async () => {
    for (const [payload, field] of [
      [{ id: 'has space' }, 'id'],
      [{ id: 'x'.repeat(129) }, 'id'],
      [{ id: '' }, 'id'],
      [{ created: '2024-05-01' }, 'created'],
      [{ created: '2024-05-01T10:00:00' }, 'created'],
      [{ created: 'yesterday' }, 'created'],
    ] as const) {
      const error = expectError(
        await api({ method: 'POST', url: `${V1}/dialogue`, payload }),
        400,
        'INVALID_INPUT',
      );
      expect(error.details?.[0]?.field).toBe(field);
    }
  });
});
