import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { type Api, V1, walk } from '../helpers/dialogues.js';

// D37-D38: memories through the real routes.

interface Memory {
  id: string;
  projectId: string;
  namespace: string | null;
  label: string | null;
  value: string;
  tags: string[];
  metadata: Record<string, unknown> | null;
  created: string;
  modified: string;
}

let ctx: TestContext;
let api: Api;
let projectId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const project = await createProject(ctx.app);
  projectId = project.projectId;
  api = asProject(ctx.app, project);
});
afterAll(async () => {
  await ctx.close();
});

async function createMemory(body: Record<string, unknown>, target: Api = api): Promise<Memory> {
  const response = await target({ method: 'POST', url: `${V1}/memory`, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Memory;
}

describe('memory create and get', () => {
  it('creates a memory with every field and returns the whole record (D37, D15)', async () => {
    const memory = await createMemory({
      value: 'Prefers window seats',
      label: 'seating',
      namespace: 'user-1',
      tags: ['travel', 'preferences'],
      metadata: { source: 'chat' },
    });
    expect(memory).toMatchObject({
      projectId,
      namespace: 'user-1',
      label: 'seating',
      value: 'Prefers window seats',
      tags: ['travel', 'preferences'],
      metadata: { source: 'chat' },
    });
    expect(memory.id).toMatch(/^mem_/);
    expect(Date.parse(memory.created)).not.toBeNaN();
    const fetched = await api({ method: 'GET', url: `${V1}/memory/${memory.id}` });
    expect(fetched.json()).toEqual(memory);
  });

  it('fills unset fields with null and []', async () => {
    const memory = await createMemory({ value: 'only a value' });
    expect(memory).toMatchObject({ namespace: null, label: null, tags: [], metadata: null });
  });

  it('refuses a missing value, an empty value, a long label, an unknown field', async () => {
    expectError(
      await api({ method: 'POST', url: `${V1}/memory`, payload: { label: 'x' } }),
      400,
      'MISSING_PARAMETER',
    );
    expectError(
      await api({ method: 'POST', url: `${V1}/memory`, payload: { value: '' } }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await api({ method: 'POST', url: `${V1}/memory`, payload: { value: 'v', label: 'x'.repeat(129) } }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await api({ method: 'POST', url: `${V1}/memory`, payload: { value: 'v', projectId: 'prj_x' } }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await api({ method: 'POST', url: `${V1}/memory`, payload: { value: 'x'.repeat(64 * 1024 + 1) } }),
      400,
      'INVALID_INPUT',
    );
    await createMemory({ value: 'x'.repeat(64 * 1024) });
  });

  it('answers an unknown id with MEMORY_NOT_FOUND', async () => {
    const error = expectError(
      await api({ method: 'GET', url: `${V1}/memory/mem_missing` }),
      404,
      'MEMORY_NOT_FOUND',
    );
    expect(error.type).toBe('not_found');
  });

  it('honours Idempotency-Key on create (D36)', async () => {
    const headers = { 'idempotency-key': `mem-${Math.random()}` };
    const payload = { value: 'idempotent memory', namespace: 'idem' };
    const first = await api({ method: 'POST', url: `${V1}/memory`, payload, headers });
    const second = await api({ method: 'POST', url: `${V1}/memory`, payload, headers });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const listed = await api({ method: 'GET', url: `${V1}/memory?namespace=idem` });
    expect((listed.json() as { items: Memory[] }).items).toHaveLength(1);
    expectError(
      await api({
        method: 'POST',
        url: `${V1}/memory`,
        payload: { value: 'other body', namespace: 'idem' },
        headers,
      }),
      409,
      'RESOURCE_CONFLICT',
    );
  });
});

describe('memory update and delete', () => {
  it('replaces tags and changes value and label (D38)', async () => {
    const memory = await createMemory({ value: 'old value', label: 'old', tags: ['a', 'b'] });
    const response = await api({
      method: 'PUT',
      url: `${V1}/memory/${memory.id}`,
      payload: { tags: ['c'], value: 'new value', label: 'new' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json() as Memory;
    expect(updated).toMatchObject({ id: memory.id, tags: ['c'], value: 'new value', label: 'new' });
    expect(Date.parse(updated.modified)).toBeGreaterThanOrEqual(Date.parse(memory.modified));
    const cleared = await api({ method: 'PUT', url: `${V1}/memory/${memory.id}`, payload: { label: null } });
    expect((cleared.json() as Memory).label).toBeNull();
  });

  it('refuses an empty update, an unknown field and an unknown id', async () => {
    const memory = await createMemory({ value: 'v' });
    expectError(
      await api({ method: 'PUT', url: `${V1}/memory/${memory.id}`, payload: {} }),
      400,
      'MISSING_PARAMETER',
    );
    expectError(
      await api({ method: 'PUT', url: `${V1}/memory/${memory.id}`, payload: { namespace: 'x' } }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await api({ method: 'PUT', url: `${V1}/memory/mem_missing`, payload: { tags: [] } }),
      404,
      'MEMORY_NOT_FOUND',
    );
  });

  it('deletes for good: {success, id}, then 404', async () => {
    const memory = await createMemory({ value: 'to delete' });
    const response = await api({ method: 'DELETE', url: `${V1}/memory/${memory.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, id: memory.id });
    expectError(await api({ method: 'GET', url: `${V1}/memory/${memory.id}` }), 404, 'MEMORY_NOT_FOUND');
    expectError(await api({ method: 'DELETE', url: `${V1}/memory/${memory.id}` }), 404, 'MEMORY_NOT_FOUND');
  });
});

describe('memory list', () => {
  it('filters by namespace, label and every given tag; pages with a cursor', async () => {
    const namespace = `list-${Math.random().toString(36).slice(2)}`;
    const made: Memory[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        await createMemory({
          value: `memory ${i}`,
          namespace,
          label: i % 2 === 0 ? 'even' : 'odd',
          tags: i < 3 ? ['x', 'y'] : ['x'],
        }),
      );
    }
    const all = await walk<Memory>(api, `${V1}/memory?namespace=${namespace}&limit=3`);
    expect(all.map((m) => m.id)).toEqual(made.map((m) => m.id).reverse());
    const ascending = await walk<Memory>(api, `${V1}/memory?namespace=${namespace}&limit=2&order=asc`);
    expect(ascending.map((m) => m.id)).toEqual(made.map((m) => m.id));
    const even = await walk<Memory>(api, `${V1}/memory?namespace=${namespace}&label=even`);
    expect(even).toHaveLength(4);
    const both = await walk<Memory>(api, `${V1}/memory?namespace=${namespace}&tag=x&tag=y`);
    expect(both.map((m) => m.id).sort()).toEqual(
      made
        .slice(0, 3)
        .map((m) => m.id)
        .sort(),
    );
    const last = await api({ method: 'GET', url: `${V1}/memory?namespace=${namespace}&limit=100` });
    expect((last.json() as { next: string | null }).next).toBeNull();
  });

  it('refuses a bad cursor and a bad limit with INVALID_PARAMETER', async () => {
    expectError(await api({ method: 'GET', url: `${V1}/memory?next=garbage` }), 400, 'INVALID_PARAMETER');
    expectError(await api({ method: 'GET', url: `${V1}/memory?limit=1000` }), 400, 'INVALID_PARAMETER');
    expectError(await api({ method: 'GET', url: `${V1}/memory?limit=abc` }), 400, 'INVALID_PARAMETER');
  });
});

describe('memory isolation', () => {
  it('never shows, changes or deletes another project’s memories (D46)', async () => {
    const other = asProject(ctx.app, await createProject(ctx.app));
    const foreign = await createMemory(
      { value: 'secret of another project', namespace: 'shared-name' },
      other,
    );
    expectError(await api({ method: 'GET', url: `${V1}/memory/${foreign.id}` }), 404, 'MEMORY_NOT_FOUND');
    expectError(
      await api({ method: 'PUT', url: `${V1}/memory/${foreign.id}`, payload: { tags: ['x'] } }),
      404,
      'MEMORY_NOT_FOUND',
    );
    expectError(await api({ method: 'DELETE', url: `${V1}/memory/${foreign.id}` }), 404, 'MEMORY_NOT_FOUND');
    const listed = await walk<Memory>(api, `${V1}/memory?namespace=shared-name`);
    expect(listed).toHaveLength(0);
    const still = await other({ method: 'GET', url: `${V1}/memory/${foreign.id}` });
    expect((still.json() as Memory).tags).toEqual([]);
  });

  it('with a namespace given, a memory of another namespace is not found', async () => {
    const memory = await createMemory({ value: 'namespaced', namespace: 'alice' });
    expectError(
      await api({ method: 'GET', url: `${V1}/memory/${memory.id}?namespace=bob` }),
      404,
      'MEMORY_NOT_FOUND',
    );
    expectError(
      await api({ method: 'DELETE', url: `${V1}/memory/${memory.id}?namespace=bob` }),
      404,
      'MEMORY_NOT_FOUND',
    );
    const own = await api({ method: 'GET', url: `${V1}/memory/${memory.id}?namespace=alice` });
    expect(own.statusCode).toBe(200);
    const listed = await walk<Memory>(api, `${V1}/memory?namespace=bob`);
    expect(listed.find((m) => m.id === memory.id)).toBeUndefined();
  });
});
