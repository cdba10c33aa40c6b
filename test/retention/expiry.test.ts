import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { untilClockPasses } from '../helpers/clock.js';
import { dataDump } from '../helpers/data-dump.js';
import { type Api, V1 } from '../helpers/dialogues.js';
import { eventually } from '../helpers/eventually.js';
import { callError, callOk, connectMcp, listen } from '../helpers/mcp.js';

// D150: `expiresAt` on a dialogue or a memory: past it the object answers 404 on every path at
// once, and the sweeper erases it (event reason `expired`, D153).

const marker = () => `zq${randomBytes(6).toString('hex')}exp`;
/** A moment shortly ahead: long enough to create and read the object first. */
const soon = (ms = 1500) => new Date(Date.now() + ms).toISOString();

let ctx: TestContext;
let api: Api;
let projectId: string;
let apiKey: string;
beforeAll(async () => {
  // The server's sweeper runs often here: the last test waits for it.
  ctx = await createTestContext({ RETENTION_SWEEP_INTERVAL_MS: '200' });
  const project = await createProject(ctx.app);
  ({ projectId, apiKey } = project);
  api = asProject(ctx.app, project);
});
afterAll(() => ctx.close());

async function ok(options: Parameters<Api>[0], status = 200) {
  const response = await api(options);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as Record<string, unknown> & { id: string };
}

const search = async (query: string, object: string) =>
  (await ok({ method: 'POST', url: `${V1}/search`, payload: { query, object } })).results as unknown[];

async function exported(): Promise<string> {
  let text = '';
  await ctx.app.services.transfer.exportProject(projectId, (line) => {
    text += line;
  });
  return text;
}

describe('expiresAt (D150)', () => {
  it('is set at creation, changed and cleared by update, and returned', async () => {
    const at = soon(3_600_000);
    const memory = await ok(
      { method: 'POST', url: `${V1}/memory`, payload: { value: 'v', expiresAt: at } },
      201,
    );
    expect(memory.expiresAt).toBe(at);
    const later = new Date(Date.now() + 7_200_000).toISOString();
    expect(
      (await ok({ method: 'PUT', url: `${V1}/memory/${memory.id}`, payload: { expiresAt: later } }))
        .expiresAt,
    ).toBe(later);
    expect(
      (await ok({ method: 'PUT', url: `${V1}/memory/${memory.id}`, payload: { expiresAt: null } })).expiresAt,
    ).toBe(null);

    const dialogue = await ok({ method: 'POST', url: `${V1}/dialogue`, payload: { expiresAt: at } }, 201);
    expect(dialogue.expiresAt).toBe(at);
    expect((await ok({ method: 'GET', url: `${V1}/dialogue?limit=100` })).items).toContainEqual(
      expect.objectContaining({ id: dialogue.id, expiresAt: at }),
    );
    // D152: an expiry alone may change on an ended dialogue.
    await ok({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}/end` });
    const cleared = await ok({
      method: 'PUT',
      url: `${V1}/dialogue/${dialogue.id}`,
      payload: { expiresAt: null },
    });
    expect(cleared).toMatchObject({ expiresAt: null, status: 'ended' });
    expectError(
      await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}`, payload: { label: 'x' } }),
      409,
      'DIALOGUE_ENDED',
    );
  });

  it('changes alone on a dialogue of an immutable project (D152)', async () => {
    const immutable = asProject(ctx.app, await createProject(ctx.app, { immutableDialogues: true }));
    const created = await immutable({ method: 'POST', url: `${V1}/dialogue`, payload: {} });
    const { id } = created.json() as { id: string };
    const at = soon(3_600_000);
    const changed = await immutable({
      method: 'PUT',
      url: `${V1}/dialogue/${id}`,
      payload: { expiresAt: at },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as { expiresAt: string }).expiresAt).toBe(at);
    expectError(
      await immutable({
        method: 'PUT',
        url: `${V1}/dialogue/${id}`,
        payload: { expiresAt: null, label: 'x' },
      }),
      409,
      'DIALOGUE_IMMUTABLE',
    );
  });

  it('refuses an expiresAt that is not an ISO date-time with a zone', async () => {
    for (const expiresAt of ['tomorrow', '2030-01-01', '2030-01-01T00:00:00', 12]) {
      for (const [method, url] of [
        ['POST', `${V1}/memory`],
        ['POST', `${V1}/dialogue`],
      ] as const) {
        const response = await api({ method, url, payload: { value: 'v', expiresAt } });
        expect(response.statusCode, `${url} ${expiresAt}`).toBe(400);
        expect((response.json() as { error: { type: string } }).error.type).toBe('validation_error');
      }
    }
    expect(((await ok({ method: 'GET', url: `${V1}/memory?limit=100` })).items as unknown[]).length).toBe(1);
  });

  it('takes an expired memory out of every path the moment it expires', async () => {
    const secret = marker();
    const baseUrl = await listen(ctx.app);
    const mcp = await connectMcp(baseUrl, apiKey);
    try {
      const memory = await callOk(mcp, 'create_memory', {
        value: `The locker code is ${secret}`,
        expiresAt: soon(),
      });
      const id = String(memory.id);
      expect(await search(`locker code ${secret}`, 'memory')).toHaveLength(1);
      await untilClockPasses(String(memory.expiresAt));

      // The same second: search, get, list, update, delete, MCP and export no longer see it.
      expect(await search(`locker code ${secret}`, 'memory')).toEqual([]);
      expectError(await api({ method: 'GET', url: `${V1}/memory/${id}` }), 404, 'MEMORY_NOT_FOUND');
      const listed = (await ok({ method: 'GET', url: `${V1}/memory?limit=100` })).items as { id: string }[];
      expect(listed.map((item) => item.id)).not.toContain(id);
      expectError(
        await api({ method: 'PUT', url: `${V1}/memory/${id}`, payload: { tags: ['x'] } }),
        404,
        'MEMORY_NOT_FOUND',
      );
      await callError(mcp, 'get_memory', { memoryId: id }, 'MEMORY_NOT_FOUND');
      expect(await exported()).not.toContain(secret);
      expectError(await api({ method: 'DELETE', url: `${V1}/memory/${id}` }), 404, 'MEMORY_NOT_FOUND');
    } finally {
      await mcp.close();
    }
  });

  it('takes an expired dialogue and its messages out of every path', async () => {
    const secret = marker();
    const dialogue = await ok(
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        payload: {
          namespace: 'ns',
          label: `about ${secret}`,
          expiresAt: soon(),
          messages: [{ role: 'user', content: `Ship it to ${secret} street` }],
        },
      },
      201,
    );
    const parent = await ok({ method: 'POST', url: `${V1}/dialogue`, payload: {} }, 201);
    const message = (dialogue.messages as { id: string }[])[0]!;
    expect(await search(`ship ${secret}`, 'message')).toHaveLength(1);
    await untilClockPasses(String(dialogue.expiresAt));

    const id = dialogue.id;
    expect(await search(`ship ${secret}`, 'message')).toEqual([]);
    expect(await search(`about ${secret}`, 'dialogue')).toEqual([]);
    for (const url of [
      `${V1}/dialogue/${id}`,
      `${V1}/messages?dialogueId=${id}&namespace=ns`,
      `${V1}/message/${message.id}?dialogueId=${id}&namespace=ns`,
      `${V1}/dialogue/${id}/context`,
    ]) {
      expectError(await api({ method: 'GET', url }), 404, 'DIALOGUE_NOT_FOUND');
    }
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/message`,
        payload: { dialogueId: id, namespace: 'ns', role: 'user', content: 'x' },
      }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expectError(
      await api({ method: 'PUT', url: `${V1}/dialogue/${id}`, payload: { expiresAt: null } }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expectError(
      await api({ method: 'POST', url: `${V1}/dialogue`, payload: { threadOf: id } }),
      404,
      'PARENT_DIALOGUE_NOT_FOUND',
    );
    const listed = (await ok({ method: 'GET', url: `${V1}/dialogue?limit=100` })).items as { id: string }[];
    expect(listed.map((item) => item.id)).toContain(parent.id);
    expect(listed.map((item) => item.id)).not.toContain(id);
    expect(await exported()).not.toContain(secret);
  });

  it('is erased by the server sweeper, with events saying why, leaving no byte behind', async () => {
    const secret = marker();
    const memory = await ok(
      { method: 'POST', url: `${V1}/memory`, payload: { value: `pin ${secret}`, expiresAt: soon(300) } },
      201,
    );
    const dialogue = await ok(
      {
        method: 'POST',
        url: `${V1}/dialogue`,
        payload: { expiresAt: soon(300), messages: [{ role: 'user', content: `said ${secret}` }] },
      },
      201,
    );
    expect(await dataDump(ctx.database)).toContain(secret);
    const reasons = async () => {
      const items = (await ok({ method: 'GET', url: `${V1}/events?limit=1000` })).items as {
        type: string;
        objectId: string;
        data: { reason?: string };
      }[];
      return items
        .filter(
          (event) => event.type.endsWith('.deleted') && [memory.id, dialogue.id].includes(event.objectId),
        )
        .map((event) => [event.type, event.data.reason])
        .sort();
    };
    await eventually(async () => (await reasons()).length === 2, { what: 'the sweeper to erase both' });
    expect(await reasons()).toEqual([
      ['dialogue.deleted', 'expired'],
      ['memory.deleted', 'expired'],
    ]);
    const left = (await dataDump(ctx.database)).split('\n').filter((line) => line.includes(secret));
    expect(left).toEqual([]);
  });
});
