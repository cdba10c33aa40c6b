import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.js';
import { asProject, createProject, expectError } from '../helpers/app.js';
import { type Api, V1, useProjectApi, createDialogue, getDialogue } from '../helpers/dialogues.js';

// D36 on every write route of dialogues and messages: a retry with the same Idempotency-Key
// returns the first answer and writes nothing again.

const file = useProjectApi();
const api: Api = (options) => file.api(options);

let keySeq = 0;
const withKey = (request: InjectOptions, key: string): InjectOptions => ({
  ...request,
  headers: { ...(request.headers ?? {}), 'idempotency-key': key },
});

async function expectOnce(request: InjectOptions, status: number) {
  const key = `key-${++keySeq}`;
  const first = await api(withKey(request, key));
  expect(first.statusCode, first.body).toBe(status);
  const again = await api(withKey(request, key));
  expect(again.statusCode).toBe(status);
  expect(again.body).toBe(first.body);
  expect(again.headers['idempotent-replayed']).toBe('true');
  return first;
}

describe('Idempotency-Key on dialogue and message writes (D36)', () => {
  it('creates a dialogue once', async () => {
    const project = asProject(file.ctx.app, await createProject(file.ctx.app));
    const request: InjectOptions = {
      method: 'POST',
      url: `${V1}/dialogue`,
      payload: { messages: [{ role: 'user', content: 'x' }] },
    };
    const key = 'create-dialogue';
    const first = await project(withKey(request, key));
    const again = await project(withKey(request, key));
    expect(again.body).toBe(first.body);
    const listed = await project({ method: 'GET', url: `${V1}/dialogue` });
    expect(listed.json().items).toHaveLength(1);
  });

  it('adds a message, a batch and dialogue-update messages once', async () => {
    const dialogue = await createDialogue(api);
    await expectOnce(
      {
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: dialogue.id, role: 'user', content: 'a' },
      },
      201,
    );
    await expectOnce(
      {
        method: 'POST',
        url: `${V1}/messages`,
        payload: { dialogueId: dialogue.id, messages: [{ role: 'user', content: 'b' }] },
      },
      201,
    );
    await expectOnce(
      {
        method: 'PUT',
        url: `${V1}/dialogue/${dialogue.id}`,
        payload: { message: { role: 'user', content: 'c' } },
      },
      200,
    );
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(3);
  });

  it('replays state, end, tag update and deletions', async () => {
    const dialogue = await createDialogue(api, {
      messages: [
        { id: 'm1', role: 'user', content: 'x' },
        { id: 'm2', role: 'user', content: 'y' },
      ],
    });
    await expectOnce({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/state`, payload: { a: 1 } }, 200);
    await expectOnce(
      { method: 'PUT', url: `${V1}/message/m1?dialogueId=${dialogue.id}`, payload: { tags: ['t'] } },
      200,
    );
    await expectOnce({ method: 'DELETE', url: `${V1}/message/m1?dialogueId=${dialogue.id}` }, 200);
    await expectOnce({ method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}/messages/m2` }, 200);
    await expectOnce({ method: 'POST', url: `${V1}/dialogue/${dialogue.id}/end` }, 200);
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(0);
    await expectOnce({ method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}` }, 200);
  });

  it('refuses the same key with another body with RESOURCE_CONFLICT', async () => {
    const dialogue = await createDialogue(api);
    const key = 'conflicting';
    const request = (content: string): InjectOptions =>
      withKey(
        { method: 'POST', url: `${V1}/message`, payload: { dialogueId: dialogue.id, role: 'user', content } },
        key,
      );
    expect((await api(request('one'))).statusCode).toBe(201);
    expectError(await api(request('two')), 409, 'RESOURCE_CONFLICT');
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(1);
  });
});

describe('PROJECT_NOT_FOUND', () => {
  it('answers a dialogue creation whose project vanished after authentication', async () => {
    const project = await createProject(file.ctx.app);
    // The project is deleted inside the write's own transaction, after the key was accepted.
    const vanish = async (tx: Executor, context: { projectId: string }) => {
      if (context.projectId !== project.projectId) return;
      await tx.execute(sql`DELETE FROM projects WHERE id = ${project.projectId}`);
    };
    file.ctx.app.writeGuards.push(vanish);
    try {
      const response = await asProject(
        file.ctx.app,
        project,
      )({ method: 'POST', url: `${V1}/dialogue`, payload: {} });
      expectError(response, 404, 'PROJECT_NOT_FOUND');
    } finally {
      file.ctx.app.writeGuards.splice(file.ctx.app.writeGuards.indexOf(vanish), 1);
    }
    const survivor = await createDialogue(api);
    expect(survivor.id).toMatch(/^dlg_/);
  });
});
