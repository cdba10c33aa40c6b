import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectError } from '../helpers/app.js';
import { callError, callOk, useMcpProject } from '../helpers/mcp.js';

// D82: a field or query parameter a route does not recognize is refused, everywhere, while every
// shape the DialogueDB client sends (D51-D62) stays accepted.

const mcp = useMcpProject();
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function dialogueCount(): Promise<number> {
  const list = await mcp.rest({ method: 'GET', url: '/api/v1/dialogue?limit=100' });
  return (list.json() as { items: unknown[] }).items.length;
}

describe('unknown body fields (D82)', () => {
  it('refuses a typo on create instead of dropping it, and stores nothing', async () => {
    const before = await dialogueCount();
    const response = await mcp.rest({ method: 'POST', url: '/api/v1/dialogue', payload: { tag: ['x'] } });
    const error = expectError(response, 400, 'INVALID_INPUT');
    expect(error.message).toContain('tag');
    expect(error.details).toEqual([{ field: 'tag', code: 'INVALID_INPUT', message: expect.any(String) }]);
    expect(await dialogueCount()).toBe(before);
  });

  it('names a nested unknown field by its path, in both batch forms and on the /api alias', async () => {
    const created = await mcp.rest({ method: 'POST', url: '/api/v1/dialogue', payload: {} });
    const id = (created.json() as { id: string }).id;
    const message = { role: 'user', content: 'hi', tag: 'oops' };

    const objectForm = await mcp.rest({
      method: 'POST',
      url: '/api/v1/messages',
      payload: { dialogueId: id, messages: [{ role: 'user', content: 'ok' }, message] },
    });
    expect(expectError(objectForm, 400, 'INVALID_INPUT').details).toEqual([
      { field: 'messages[1].tag', code: 'INVALID_INPUT', message: expect.any(String) },
    ]);

    const arrayForm = await mcp.rest({
      method: 'POST',
      url: `/api/messages?dialogueId=${id}`,
      payload: [message],
    });
    expect(expectError(arrayForm, 400, 'INVALID_INPUT').details?.[0]?.field).toBe('[0].tag');

    const alias = await mcp.rest({ method: 'POST', url: '/api/dialogue', payload: { lable: 'x' } });
    expect(expectError(alias, 400, 'INVALID_INPUT').details?.[0]?.field).toBe('lable');

    const get = await mcp.rest({ method: 'GET', url: `/api/v1/dialogue/${id}` });
    expect((get.json() as { totalMessages: number }).totalMessages).toBe(0);
  });

  it('reports the unknown field first even when a required field is missing too', async () => {
    const response = await mcp.rest({ method: 'POST', url: '/api/v1/message', payload: { dialogId: 'x' } });
    const error = expectError(response, 400, 'INVALID_INPUT');
    expect(error.details?.[0]?.field).toBe('dialogId');
  });

  it('refuses a body on an operation that takes none, but accepts {} and no body', async () => {
    const created = await mcp.rest({ method: 'POST', url: '/api/v1/dialogue', payload: {} });
    const id = (created.json() as { id: string }).id;
    const withField = await mcp.rest({
      method: 'POST',
      url: `/api/v1/dialogue/${id}/end`,
      payload: { reason: 'done' },
    });
    expect(expectError(withField, 400, 'INVALID_INPUT').details?.[0]?.field).toBe('reason');
    expect((await mcp.rest({ method: 'GET', url: `/api/v1/dialogue/${id}` })).json()).toMatchObject({
      status: 'active',
    });
    // The DialogueDB client sends `{}`; older clients PUT without a body.
    expect(
      (await mcp.rest({ method: 'POST', url: `/api/v1/dialogue/${id}/end`, payload: {} })).statusCode,
    ).toBe(200);
    expect((await mcp.rest({ method: 'PUT', url: `/api/v1/dialogue/${id}/end` })).statusCode).toBe(200);
  });

  it('refuses an unknown field of an admin body', async () => {
    const response = await mcp.context.app.inject({
      method: 'POST',
      url: `/admin/v1/projects/${mcp.project.projectId}/keys`,
      headers: admin,
      payload: { label: 'ci' },
    });
    expect(expectError(response, 400, 'INVALID_INPUT').details?.[0]?.field).toBe('label');
  });

  it('refuses an unknown MCP tool argument with the REST code and field', async () => {
    const error = await callError(mcp.client, 'create_dialogue', { tag: ['x'] }, 'INVALID_INPUT');
    expect(error.details?.[0]?.field).toBe('tag');
    const nested = await callError(
      mcp.client,
      'create_dialogue',
      { messages: [{ role: 'user', content: 'hi', nmae: 'Ada' }] },
      'INVALID_INPUT',
    );
    expect(nested.details?.[0]?.field).toBe('messages[0].nmae');
  });
});

describe('unknown query parameters (D82)', () => {
  it('refuses `cursor` for `next` with INVALID_PARAMETER naming it', async () => {
    const response = await mcp.rest({ method: 'GET', url: '/api/v1/dialogue?cursor=abc' });
    const error = expectError(response, 400, 'INVALID_PARAMETER');
    expect(error.details).toEqual([
      { field: 'cursor', code: 'INVALID_PARAMETER', message: expect.any(String) },
    ]);
    const alias = await mcp.rest({ method: 'GET', url: '/api/memory?tags=a' });
    expect(expectError(alias, 400, 'INVALID_PARAMETER').details?.[0]?.field).toBe('tags');
  });

  it('refuses a parameter on a route that declares no query string (REST and admin)', async () => {
    const search = await mcp.rest({
      method: 'POST',
      url: '/api/v1/search?namespace=x',
      payload: { query: 'hello there' },
    });
    expect(expectError(search, 400, 'INVALID_PARAMETER').details?.[0]?.field).toBe('namespace');
    const adminList = await mcp.context.app.inject({
      method: 'GET',
      url: '/admin/v1/projects?limit=5',
      headers: admin,
    });
    expect(expectError(adminList, 400, 'INVALID_PARAMETER').details?.[0]?.field).toBe('limit');
  });
});

describe('every DialogueDB client shape stays accepted (D51-D62)', () => {
  it('walks the client calls with all their optional fields', async () => {
    const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      mcp.rest({
        method,
        url: `/api/v1/${url}`,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const ok = async (response: Awaited<ReturnType<typeof send>>) => {
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json() as Record<string, unknown>;
    };
    const message = {
      role: 'user',
      content: 'The parcel arrived',
      name: 'Ada',
      tags: ['t'],
      metadata: { a: 1 },
    };

    await ok(
      await send('POST', 'dialogue', {
        id: 'ddb-strict-1',
        namespace: 'ns',
        label: 'l',
        messages: [message],
        message: { ...message, id: 'm-0', created: '2026-01-01T00:00:00Z' },
        created: '2026-01-01T00:00:00Z',
        state: { s: 1 },
        metadata: { m: 1 },
        tags: ['x'],
      }),
    );
    await ok(
      await send('POST', 'dialogue', { id: 'ddb-strict-thread', namespace: 'ns', threadOf: 'ddb-strict-1' }),
    );
    await ok(await send('GET', 'dialogue/ddb-strict-1?namespace=ns'));
    await ok(
      await send('PUT', 'dialogue/ddb-strict-1?namespace=ns', {
        id: 'ddb-strict-1',
        namespace: 'ns',
        state: { s: 2 },
        tags: ['y'],
        label: 'm',
      }),
    );
    const range = 'startDate=2020-01-01T00:00:00.000Z&endDate=2030-01-01T00:00:00.000Z';
    await ok(await send('GET', `dialogue?limit=5&order=asc&namespace=ns&threadOf=ddb-strict-1&${range}`));
    await ok(await send('GET', 'dialogue?limit=5&order=desc&created=2026-01-01'));
    await ok(
      await send('POST', 'message', {
        dialogueId: 'ddb-strict-1',
        namespace: 'ns',
        ...message,
        id: 'm-1',
        created: '2026-01-01T00:00:01Z',
      }),
    );
    await ok(await send('POST', 'message?dialogueId=ddb-strict-1&namespace=ns', { ...message, id: 'm-2' }));
    await ok(
      await send('POST', 'messages?dialogueId=ddb-strict-1&namespace=ns', [{ ...message, id: 'm-3' }]),
    );
    await ok(await send('GET', `messages?dialogueId=ddb-strict-1&limit=5&order=asc&namespace=ns&${range}`));
    await ok(await send('GET', 'messages?dialogueId=ddb-strict-1&namespace=ns&created=2026-01-01'));
    await ok(await send('GET', 'message/m-1?dialogueId=ddb-strict-1&namespace=ns'));
    await ok(await send('PUT', 'message/m-1?dialogueId=ddb-strict-1&namespace=ns', { tags: ['z'] }));
    await ok(
      await send('POST', 'summary', {
        dialogueId: 'ddb-strict-1',
        namespace: 'ns',
        id: 'sum-1',
        startId: 'm-1',
        endId: 'm-3',
      }),
    );
    const template = await send('POST', 'summary', {
      dialogueId: 'ddb-strict-1',
      namespace: 'ns',
      template: 't',
    });
    expect(expectError(template, 400, 'INVALID_PARAMETER').details?.[0]?.field).toBe('template');
    await ok(
      await send('POST', 'search', {
        query: 'parcel arrived',
        object: 'message',
        limit: 5,
        namespace: 'ns',
        dialogueId: 'ddb-strict-1',
        timezone: 'Europe/Oslo',
        tags: { $in: ['t'], $nin: ['no'] },
        filter: { created: { gte: '2020-01-01' }, modified: '2026-01-01', hasImage: false },
        metadata: { a: { $gte: 1 } },
        orderBy: 'created',
        order: 'asc',
      }),
    );
    await ok(
      await send('POST', 'memory', {
        id: 'mem-strict-1',
        value: { any: 'json' },
        namespace: 'ns',
        label: 'l',
        description: 'd',
        tags: ['t'],
        metadata: { k: 1 },
      }),
    );
    await ok(await send('GET', 'memory/mem-strict-1?namespace=ns'));
    await ok(await send('GET', `memory?limit=5&order=asc&namespace=ns&${range}`));
    await ok(await send('GET', 'memory?created=2026-01-01'));
    await ok(await send('PUT', 'memory/mem-strict-1?namespace=ns', { tags: ['u'] }));
    await ok(await send('DELETE', 'memory/mem-strict-1?namespace=ns'));
    await ok(await send('DELETE', 'message/m-2?dialogueId=ddb-strict-1&namespace=ns'));
    await ok(await send('POST', 'dialogue/ddb-strict-1/end?namespace=ns', {}));
    await ok(await send('DELETE', 'dialogue/ddb-strict-1?namespace=ns'));
  });

  it('keeps MCP tool calls with every declared argument working', async () => {
    const dialogue = await callOk<{ id: string }>(mcp.client, 'create_dialogue', {
      namespace: 'mcp',
      messages: [{ role: 'user', content: 'hello' }],
      idempotencyKey: 'strict-mcp-1',
    });
    await callOk(mcp.client, 'list_messages', { dialogueId: dialogue.id, namespace: 'mcp', limit: 5 });
  });
});
