import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import { type Api, V1, createDialogue, getDialogue, useProjectApi } from '../helpers/dialogues.js';

// D53: `id` and `namespace` in the body of PUT /dialogue/{id}, and the namespace given in the
// query of every route that names a dialogue in its path.

const file = useProjectApi();
const api: Api = (options) => file.api(options);

/** Every route with a dialogue in its path, as the client and Parley's own callers use them. */
const ROUTES: { name: string; request: (id: string, query: string) => InjectOptions }[] = [
  { name: 'get', request: (id, q) => ({ method: 'GET', url: `${V1}/dialogue/${id}${q}` }) },
  {
    name: 'update',
    request: (id, q) => ({ method: 'PUT', url: `${V1}/dialogue/${id}${q}`, payload: { label: 'changed' } }),
  },
  {
    name: 'state (PUT)',
    request: (id, q) => ({ method: 'PUT', url: `${V1}/dialogue/${id}/state${q}`, payload: { k: 1 } }),
  },
  {
    name: 'state (POST)',
    request: (id, q) => ({ method: 'POST', url: `${V1}/dialogue/${id}/state${q}`, payload: { k: 1 } }),
  },
  { name: 'compact', request: (id, q) => ({ method: 'POST', url: `${V1}/dialogue/${id}/compact${q}` }) },
  {
    name: 'end (POST, {})',
    request: (id, q) => ({ method: 'POST', url: `${V1}/dialogue/${id}/end${q}`, payload: {} }),
  },
  {
    name: 'end (PUT, no body)',
    request: (id, q) => ({ method: 'PUT', url: `${V1}/dialogue/${id}/end${q}` }),
  },
  { name: 'continue', request: (id, q) => ({ method: 'POST', url: `${V1}/dialogue/${id}/continue${q}` }) },
  { name: 'delete', request: (id, q) => ({ method: 'DELETE', url: `${V1}/dialogue/${id}${q}` }) },
];

describe('namespace in the query of dialogue routes (D53)', () => {
  for (const route of ROUTES) {
    it(`${route.name}: another namespace is 404 DIALOGUE_NOT_FOUND and changes nothing`, async () => {
      const dialogue = await createDialogue(api, {
        namespace: 'ns-a',
        message: { role: 'user', content: 'hi' },
      });
      for (const query of ['?namespace=ns-b', '?namespace=NS-A']) {
        const error = expectError(await api(route.request(dialogue.id, query)), 404, 'DIALOGUE_NOT_FOUND');
        expect(error.type).toBe('not_found');
      }
      const after = await getDialogue(api, dialogue.id);
      expect(after).toMatchObject({
        label: null,
        status: 'active',
        state: {},
        summary: null,
        modified: dialogue.modified,
      });
    });

    it(`${route.name}: the dialogue's own namespace, or none, is accepted`, async () => {
      for (const query of ['?namespace=ns-a', '']) {
        const dialogue = await createDialogue(api, {
          namespace: 'ns-a',
          message: { role: 'user', content: 'hi' },
        });
        const response = await api(route.request(dialogue.id, query));
        expect(response.statusCode, response.body).toBeLessThan(300);
      }
    });
  }

  it('answers a namespace given for a dialogue without one with 404', async () => {
    const dialogue = await createDialogue(api);
    expectError(
      await api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}?namespace=ns-a` }),
      404,
      'DIALOGUE_NOT_FOUND',
    );
    expect((await api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}` })).statusCode).toBe(200);
  });

  it('refuses a malformed namespace with INVALID_PARAMETER', async () => {
    const dialogue = await createDialogue(api);
    const error = expectError(
      await api({ method: 'GET', url: `${V1}/dialogue/${dialogue.id}?namespace=${'n'.repeat(129)}` }),
      400,
      'INVALID_PARAMETER',
    );
    expect(error.details?.[0]?.field).toBe('namespace');
  });
});

describe('id and namespace in the body of PUT /dialogue/{id} (D53)', () => {
  it("takes the client's update: same id and namespace, the whole merged state, tags and label", async () => {
    const dialogue = await createDialogue(api, { namespace: 'ns-a', state: { step: 1, draft: 'x' } });
    const response = await api({
      method: 'PUT',
      url: `${V1}/dialogue/${dialogue.id}?namespace=ns-a`,
      payload: {
        id: dialogue.id,
        namespace: 'ns-a',
        state: { step: 2, draft: null },
        tags: ['t'],
        label: 'L',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ state: { step: 2 }, tags: ['t'], label: 'L', namespace: 'ns-a' });
  });

  it('accepts namespace null for a dialogue without one', async () => {
    const dialogue = await createDialogue(api);
    const response = await api({
      method: 'PUT',
      url: `${V1}/dialogue/${dialogue.id}`,
      payload: { id: dialogue.id, namespace: null, label: 'x' },
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('refuses another id or namespace with 400 INVALID_INPUT naming the field, changing nothing', async () => {
    const dialogue = await createDialogue(api, { namespace: 'ns-a' });
    for (const [body, field] of [
      [{ id: 'dlg_other', label: 'x' }, 'id'],
      [{ namespace: 'ns-b', label: 'x' }, 'namespace'],
      [{ namespace: null, label: 'x' }, 'namespace'],
    ] as const) {
      const error = expectError(
        await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}`, payload: body }),
        400,
        'INVALID_INPUT',
      );
      expect(error.details).toEqual([expect.objectContaining({ field, code: 'INVALID_INPUT' })]);
    }
    expect((await getDialogue(api, dialogue.id)).label).toBeNull();
  });

  it('still needs something to update besides id and namespace', async () => {
    const dialogue = await createDialogue(api);
    expectError(
      await api({ method: 'PUT', url: `${V1}/dialogue/${dialogue.id}`, payload: { id: dialogue.id } }),
      400,
      'MISSING_PARAMETER',
    );
  });
});
