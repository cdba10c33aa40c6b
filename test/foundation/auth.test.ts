import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type TestContext,
  type TestProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';

// D6: every API request needs a valid bearer key, which decides the project.
let ctx: TestContext;
let project: TestProject;
beforeAll(async () => {
  ctx = await createTestContext();
  project = await createProject(ctx.app);
});
afterAll(async () => ctx?.close());

const list = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/dialogue', headers });

function expectUnauthorized(response: Awaited<ReturnType<typeof list>>) {
  const error = expectError(response, 401, 'UNAUTHORIZED');
  expect(error.type).toBe('authentication_error');
  expect(response.headers['www-authenticate']).toBe('Bearer');
}

describe('API key authentication (D6)', () => {
  it('accepts a valid key, on /api/v1 and on the /api alias (D1)', async () => {
    expect((await list(project.auth)).statusCode).toBe(200);
    const alias = await ctx.app.inject({ method: 'GET', url: '/api/dialogue', headers: project.auth });
    expect(alias.statusCode).toBe(200);
  });

  it('refuses a missing key', async () => {
    expectUnauthorized(await list({}));
  });

  it('refuses malformed headers', async () => {
    for (const authorization of [
      'Basic abc',
      'Bearer',
      'Bearer ',
      `bearer${project.apiKey}`,
      `Bearer ${project.apiKey} extra`,
      `Bearer ${'x'.repeat(600)}`,
    ]) {
      expectUnauthorized(await list({ authorization }));
    }
  });

  it('refuses an unknown key and the admin token', async () => {
    expectUnauthorized(
      await list({ authorization: 'Bearer prly_unknownunknownunknownunknownunknownunknown' }),
    );
    expectUnauthorized(await list({ authorization: `Bearer ${ADMIN_TOKEN}` }));
  });

  it('refuses a revoked key at once', async () => {
    const other = await createProject(ctx.app);
    const key = (
      await ctx.app.inject({
        method: 'POST',
        url: `/admin/v1/projects/${other.projectId}/keys`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json() as { id: string; apiKey: string };
    expect((await list({ authorization: `Bearer ${key.apiKey}` })).statusCode).toBe(200);
    await ctx.app.inject({
      method: 'DELETE',
      url: `/admin/v1/projects/${other.projectId}/keys/${key.id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expectUnauthorized(await list({ authorization: `Bearer ${key.apiKey}` }));
    expect((await list(other.auth)).statusCode).toBe(200);
  });

  it('authenticates before validating, so an anonymous caller learns nothing', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/message',
      payload: { nonsense: true },
    });
    expectUnauthorized(response);
  });
});
