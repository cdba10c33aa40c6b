import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asProject, createProject, expectError } from '../helpers/app.js';
import { type Api, V1, useProjectApi, createDialogue, getDialogue } from '../helpers/dialogues.js';

const file = useProjectApi();
const api: Api = (options) => file.api(options);

const put = (id: string, payload: unknown) =>
  api({ method: 'PUT', url: `${V1}/dialogue/${id}`, payload: payload as Record<string, unknown> });

describe('PUT /dialogue/{id}', () => {
  it('replaces tags, sets label, merges state and appends messages (D19)', async () => {
    const dialogue = await createDialogue(api, {
      tags: ['old'],
      state: { keep: 1, drop: 2, nested: { a: 1, b: 2 } },
      messages: [{ role: 'user', content: 'first' }],
    });
    const response = await put(dialogue.id, {
      tags: ['new', 'tags'],
      label: 'Renamed',
      state: { drop: null, nested: { b: null, c: 3 }, added: [1, 2] },
      messages: [{ role: 'assistant', content: 'second' }],
      message: { role: 'user', content: 'third' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      tags: ['new', 'tags'],
      label: 'Renamed',
      state: { keep: 1, nested: { a: 1, c: 3 }, added: [1, 2] },
      totalMessages: 3,
    });
    expect(body.state).not.toHaveProperty('drop');
    expect(body.messages.map((m: { content: string }) => m.content)).toEqual(['second', 'third']);
    expect(body).toHaveProperty('namespace');
    expect(Date.parse(body.modified)).toBeGreaterThanOrEqual(Date.parse(dialogue.modified as string));
    const clear = await put(dialogue.id, { label: null });
    expect(clear.json().label).toBeNull();
  });

  it('refuses fields that cannot change, with INVALID_INPUT', async () => {
    const dialogue = await createDialogue(api, { metadata: { fixed: true } });
    for (const field of ['metadata', 'status', 'id', 'projectId', 'namespace', 'threadOf']) {
      const error = expectError(await put(dialogue.id, { [field]: 'x', tags: ['a'] }), 400, 'INVALID_INPUT');
      expect(error.message).toContain(field);
    }
    expect((await getDialogue(api, dialogue.id)).metadata).toEqual({ fixed: true });
  });

  it('answers an empty body with MISSING_PARAMETER and bad formats with INVALID_INPUT', async () => {
    const dialogue = await createDialogue(api);
    expectError(await put(dialogue.id, {}), 400, 'MISSING_PARAMETER');
    expectError(
      await api({
        method: 'PUT',
        url: `${V1}/dialogue/${dialogue.id}`,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'MISSING_PARAMETER',
    );
    expectError(await put(dialogue.id, { tags: 'a' }), 400, 'INVALID_INPUT');
    expectError(await put(dialogue.id, { label: 'l'.repeat(129) }), 400, 'INVALID_INPUT');
    expect((await put(dialogue.id, { label: 'l'.repeat(128) })).statusCode).toBe(200);
    expectError(await put(dialogue.id, { state: { big: 'x'.repeat(256 * 1024) } }), 400, 'INVALID_INPUT');
  });

  it('refuses a merged state beyond 256 KiB', async () => {
    const dialogue = await createDialogue(api, { state: { a: 'x'.repeat(200 * 1024) } });
    const error = expectError(
      await put(dialogue.id, { state: { b: 'y'.repeat(100 * 1024) } }),
      400,
      'INVALID_INPUT',
    );
    expect(error.details?.[0]?.field).toBe('state');
  });

  it('appends at most 25 messages', async () => {
    const dialogue = await createDialogue(api);
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ role: 'user', content: `m${i}` }));
    expect((await put(dialogue.id, { messages: many(25) })).json().totalMessages).toBe(25);
    expectError(await put(dialogue.id, { messages: many(26) }), 400, 'TOO_MANY_MESSAGES');
    expectError(
      await put(dialogue.id, { messages: many(25), message: { role: 'user', content: 'x' } }),
      400,
      'TOO_MANY_MESSAGES',
    );
    expect((await getDialogue(api, dialogue.id)).totalMessages).toBe(25);
  });

  it('answers an unknown id with DIALOGUE_NOT_FOUND and an ended dialogue with DIALOGUE_ENDED', async () => {
    expectError(await put('dlg_nope', { tags: [] }), 404, 'DIALOGUE_NOT_FOUND');
    const dialogue = await createDialogue(api);
    await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/end` });
    expectError(await put(dialogue.id, { tags: ['x'] }), 409, 'DIALOGUE_ENDED');
  });
});

describe('PUT /dialogue/{id}/state', () => {
  it('merges with JSON Merge Patch and returns the whole dialogue (D20)', async () => {
    const dialogue = await createDialogue(api, { state: { a: 1, b: { c: 2 } } });
    const response = await api({
      method: 'PUT',
      url: `${V1}/dialogue/${dialogue.id}/state`,
      payload: { a: null, b: { d: 3 }, e: 'x' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: dialogue.id, state: { b: { c: 2, d: 3 }, e: 'x' } });
    expect(response.json().state).not.toHaveProperty('a');
  });

  it('works on an ended dialogue', async () => {
    const dialogue = await createDialogue(api);
    await api({ method: 'POST', url: `${V1}/dialogue/${dialogue.id}/end` });
    const response = await api({
      method: 'PUT',
      url: `${V1}/dialogue/${dialogue.id}/state`,
      payload: { done: true },
    });
    expect(response.json()).toMatchObject({ status: 'ended', state: { done: true } });
    // State is not an action: POST works too (docs/api-decisions.md).
    const post = await api({
      method: 'POST',
      url: `${V1}/dialogue/${dialogue.id}/state`,
      payload: { more: 1 },
    });
    expect(post.json()).toMatchObject({ status: 'ended', state: { done: true, more: 1 } });
  });

  it('keeps a __proto__ key as a plain key', async () => {
    const dialogue = await createDialogue(api);
    const response = await api({
      method: 'PUT',
      url: `${V1}/dialogue/${dialogue.id}/state`,
      payload: '{"__proto__":{"polluted":true},"x":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a body that is not an object, and unknown dialogues', async () => {
    const dialogue = await createDialogue(api);
    for (const payload of ['[1,2]', '"text"', '42']) {
      const response = await api({
        method: 'PUT',
        url: `${V1}/dialogue/${dialogue.id}/state`,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'INVALID_INPUT');
    }
    expectError(
      await api({ method: 'PUT', url: `${V1}/dialogue/dlg_nope/state`, payload: { a: 1 } }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });
});

describe('actions', () => {
  it('ends a dialogue with PUT or POST, idempotently (D3, D21)', async () => {
    for (const method of ['PUT', 'POST'] as const) {
      const dialogue = await createDialogue(api);
      const first = await api({ method, url: `${V1}/dialogue/${dialogue.id}/end` });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ id: dialogue.id, status: 'ended', expired: false });
      const again = await api({ method, url: `${V1}/dialogue/${dialogue.id}/end` });
      expect(again.json()).toEqual(first.json());
    }
  });

  it('answers an unknown action with INVALID_ACTION and an unknown dialogue with DIALOGUE_NOT_FOUND', async () => {
    const dialogue = await createDialogue(api);
    for (const method of ['PUT', 'POST'] as const) {
      expectError(await api({ method, url: `${V1}/dialogue/${dialogue.id}/archive` }), 400, 'INVALID_ACTION');
      expectError(await api({ method, url: `${V1}/dialogue/dlg_nope/end` }), 404, 'DIALOGUE_NOT_FOUND');
    }
  });
});

describe('DELETE /dialogue/{id}', () => {
  it('deletes the dialogue and its messages for real; threads survive on their own (D23)', async () => {
    const parent = await createDialogue(api, { messages: [{ role: 'user', content: 'bye' }] });
    const thread = await createDialogue(api, { threadOf: parent.id });
    const response = await api({ method: 'DELETE', url: `${V1}/dialogue/${parent.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, id: parent.id });
    expectError(await api({ method: 'GET', url: `${V1}/dialogue/${parent.id}` }), 404, 'DIALOGUE_NOT_FOUND');
    const rows = await file.ctx.app.db.execute(
      sql`SELECT count(*)::int AS n FROM messages WHERE dialogue_id = ${parent.id}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    const orphan = await getDialogue(api, thread.id);
    expect(orphan.threadOf).toBeNull();
    expect(
      (
        await api({
          method: 'POST',
          url: `${V1}/message`,
          payload: { dialogueId: thread.id, role: 'user', content: 'still here' },
        })
      ).statusCode,
    ).toBe(201);
    expectError(
      await api({ method: 'DELETE', url: `${V1}/dialogue/${parent.id}` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
  });

  it("lowers the parent's threadCount when a thread is deleted", async () => {
    const parent = await createDialogue(api);
    const thread = await createDialogue(api, { threadOf: parent.id });
    await api({ method: 'DELETE', url: `${V1}/dialogue/${thread.id}` });
    expect((await getDialogue(api, parent.id)).threadCount).toBe(0);
  });
});

describe('expiry (D24)', () => {
  it('shows an idle dialogue as expired and refuses new messages with DIALOGUE_EXPIRED', async () => {
    const project = asProject(file.ctx.app, await createProject(file.ctx.app, { dialogueTtlSeconds: 3600 }));
    const idle = await createDialogue(project);
    const fresh = await createDialogue(project);
    await file.ctx.app.db.execute(
      sql`UPDATE dialogues SET modified = now() - interval '2 hours' WHERE id = ${idle.id}`,
    );
    const shown = await getDialogue(project, idle.id);
    expect(shown).toMatchObject({ status: 'expired', expired: true });
    expect(await getDialogue(project, fresh.id)).toMatchObject({ status: 'active', expired: false });
    // D82: `dialogueId` names the target of POST /message; inside a list of messages it is unknown.
    const add = { role: 'user', content: 'late' };
    expectError(
      await project({ method: 'POST', url: `${V1}/message`, payload: { dialogueId: idle.id, ...add } }),
      409,
      'DIALOGUE_EXPIRED',
    );
    expectError(
      await project({
        method: 'POST',
        url: `${V1}/messages`,
        payload: { dialogueId: idle.id, messages: [add] },
      }),
      409,
      'DIALOGUE_EXPIRED',
    );
    expectError(
      await project({ method: 'PUT', url: `${V1}/dialogue/${idle.id}`, payload: { message: add } }),
      409,
      'DIALOGUE_EXPIRED',
    );
    const listed = await project({ method: 'GET', url: `${V1}/dialogue?status=expired` });
    expect(listed.json().items.map((d: { id: string }) => d.id)).toEqual([idle.id]);
    const active = await project({ method: 'GET', url: `${V1}/dialogue?status=active` });
    expect(active.json().items.map((d: { id: string }) => d.id)).toEqual([fresh.id]);
  });
});

describe('immutable projects (D25)', () => {
  it('writes a dialogue once; every later change is DIALOGUE_IMMUTABLE; reads, state and end work', async () => {
    const project = asProject(file.ctx.app, await createProject(file.ctx.app, { immutableDialogues: true }));
    const dialogue = await createDialogue(project, {
      messages: [{ role: 'user', content: 'kept', id: 'm1' }],
    });
    const message = { role: 'user', content: 'x' };
    const refused = [
      { method: 'POST', url: `${V1}/message`, payload: { dialogueId: dialogue.id, ...message } },
      { method: 'POST', url: `${V1}/messages`, payload: { dialogueId: dialogue.id, messages: [message] } },
      { method: 'DELETE', url: `${V1}/message/m1?dialogueId=${dialogue.id}` },
      { method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}/messages/m1` },
      { method: 'PUT', url: `${V1}/message/m1?dialogueId=${dialogue.id}`, payload: { tags: ['t'] } },
      { method: 'PUT', url: `${V1}/dialogue/${dialogue.id}`, payload: { tags: ['t'] } },
      { method: 'DELETE', url: `${V1}/dialogue/${dialogue.id}` },
    ] as const;
    for (const request of refused) {
      expectError(await project({ ...request }), 409, 'DIALOGUE_IMMUTABLE');
    }
    const state = await project({
      method: 'PUT',
      url: `${V1}/dialogue/${dialogue.id}/state`,
      payload: { s: 1 },
    });
    expect(state.statusCode).toBe(200);
    expect((await project({ method: 'POST', url: `${V1}/dialogue/${dialogue.id}/end` })).statusCode).toBe(
      200,
    );
    const after = await getDialogue(project, dialogue.id);
    expect(after).toMatchObject({ totalMessages: 1, tags: [], status: 'ended', state: { s: 1 } });
    expect(after.messages[0]).toMatchObject({ id: 'm1', tags: [] });
  });
});
