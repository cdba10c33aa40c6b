import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, createTestContext, expectError } from '../helpers/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const admin = (options: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: unknown }) =>
  ctx.app.inject({ ...options, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } } as never);

describe('admin API (D7, D8)', () => {
  it('creates a project with its first key, lists, shows and merges settings', async () => {
    const created = await admin({
      method: 'POST',
      url: '/admin/v1/projects',
      payload: {
        name: 'acme',
        settings: { immutableDialogues: true, rateLimit: { max: 5, windowSeconds: 60 } },
      },
    });
    expect(created.statusCode).toBe(201);
    const { project, apiKey } = created.json();
    expect(project.id).toMatch(/^prj_[0-9a-z]{26}$/);
    expect(apiKey).toMatch(/^prly_[A-Za-z0-9_-]{43}$/);
    expect(project.settings).toEqual({ immutableDialogues: true, rateLimit: { max: 5, windowSeconds: 60 } });

    const listed = await admin({ method: 'GET', url: '/admin/v1/projects' });
    expect(listed.json().items.map((p: { id: string }) => p.id)).toContain(project.id);

    const patched = await admin({
      method: 'PATCH',
      url: `/admin/v1/projects/${project.id}`,
      payload: { name: 'acme 2', settings: { monthlyWriteQuota: 10, rateLimit: null } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      name: 'acme 2',
      settings: { immutableDialogues: true, monthlyWriteQuota: 10, rateLimit: null },
    });

    const shown = await admin({ method: 'GET', url: `/admin/v1/projects/${project.id}` });
    expect(shown.json()).toEqual(patched.json());
  });

  it('creates and revokes keys; a revoked key stops working at once', async () => {
    const { project } = (
      await admin({ method: 'POST', url: '/admin/v1/projects', payload: { name: 'keys' } })
    ).json();
    const key = await admin({ method: 'POST', url: `/admin/v1/projects/${project.id}/keys` });
    expect(key.statusCode).toBe(201);
    const { id, apiKey } = key.json();
    expect(id).toMatch(/^key_/);
    expect(await ctx.app.services.projects.authenticate(apiKey)).toMatchObject({ projectId: project.id });

    const revoked = await admin({ method: 'DELETE', url: `/admin/v1/projects/${project.id}/keys/${id}` });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ success: true, id });
    expect(await ctx.app.services.projects.authenticate(apiKey)).toBeUndefined();

    expectError(
      await admin({ method: 'DELETE', url: `/admin/v1/projects/${project.id}/keys/key_nope` }),
      404,
      'API_KEY_NOT_FOUND',
    );
  });

  it('answers unknown projects with PROJECT_NOT_FOUND', async () => {
    expectError(
      await admin({ method: 'GET', url: '/admin/v1/projects/prj_missing' }),
      404,
      'PROJECT_NOT_FOUND',
    );
    expectError(
      await admin({ method: 'PATCH', url: '/admin/v1/projects/prj_missing', payload: { name: 'x' } }),
      404,
      'PROJECT_NOT_FOUND',
    );
    expectError(
      await admin({ method: 'POST', url: '/admin/v1/projects/prj_missing/keys' }),
      404,
      'PROJECT_NOT_FOUND',
    );
  });

  it('validates bodies: missing name, unknown settings, wrong types', async () => {
    expectError(
      await admin({ method: 'POST', url: '/admin/v1/projects', payload: {} }),
      400,
      'MISSING_PARAMETER',
    );
    const unknown = expectError(
      await admin({
        method: 'POST',
        url: '/admin/v1/projects',
        payload: { name: 'x', settings: { bogus: 1 } },
      }),
      400,
      'INVALID_INPUT',
    );
    expect(unknown.details?.[0]?.field).toBe('settings.bogus');
    const typed = expectError(
      await admin({
        method: 'POST',
        url: '/admin/v1/projects',
        payload: { name: 'x', settings: { rateLimit: { max: 0, windowSeconds: 1 } } },
      }),
      400,
      'INVALID_INPUT',
    );
    expect(typed.details?.[0]?.field).toBe('settings.rateLimit.max');
  });

  it('needs the admin token', async () => {
    const missing = await ctx.app.inject({ method: 'GET', url: '/admin/v1/projects' });
    expectError(missing, 401, 'UNAUTHORIZED');
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    const wrong = await ctx.app.inject({
      method: 'GET',
      url: '/admin/v1/projects',
      headers: { authorization: 'Bearer nope' },
    });
    expectError(wrong, 401, 'UNAUTHORIZED');
  });

  it('does not exist without ADMIN_TOKEN', async () => {
    const bare = await createTestContext({ ADMIN_TOKEN: '' });
    try {
      const response = await bare.app.inject({
        method: 'GET',
        url: '/admin/v1/projects',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const error = expectError(response, 404, 'RESOURCE_NOT_FOUND');
      expect(error.type).toBe('not_found');
      // It says how to turn the admin API on, on every path and method under /admin/v1.
      expect(error.message).toBe(
        'The admin API is off: set ADMIN_TOKEN (at least 16 characters) and restart the server',
      );
      for (const [method, url] of [
        ['POST', '/admin/v1/projects'],
        ['DELETE', '/admin/v1/projects/prj_1/keys/key_1'],
        ['GET', '/admin/v1'],
      ] as const) {
        const other = await bare.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
        expect(expectError(other, 404, 'RESOURCE_NOT_FOUND').message).toContain('set ADMIN_TOKEN');
      }
      const openapi = (await bare.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
      expect(Object.keys(openapi.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
