import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectService } from '../../src/modules/projects/service.js';
import { ADMIN_TOKEN, type TestContext, createTestContext, expectError } from '../helpers/app.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { untilClockPasses } from '../helpers/clock.js';

// D83: a project's keys can be listed (never the keys themselves), every created key's id is
// given, and a key is revoked by its id or by the key itself.

let ctx: TestContext;
beforeAll(async () => {
  // The default AUTH_CACHE_TTL_MS (5 s): a revoked key refused at once shows the eviction.
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const admin = (options: { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: unknown }) =>
  ctx.app.inject({ ...options, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } } as never);

async function newProject(name: string) {
  const created = await admin({ method: 'POST', url: '/admin/v1/projects', payload: { name } });
  expect(created.statusCode).toBe(201);
  return created.json() as { project: { id: string }; apiKey: string; keyId: string };
}

const useKey = (apiKey: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/dialogue', headers: { authorization: `Bearer ${apiKey}` } });

interface ListedKey {
  id: string;
  prefix: string;
  created: string;
  lastUsed: string | null;
  revoked: string | null;
}

async function listKeys(projectId: string): Promise<ListedKey[]> {
  const listed = await admin({ method: 'GET', url: `/admin/v1/projects/${projectId}/keys` });
  expect(listed.statusCode).toBe(200);
  return (listed.json() as { items: ListedKey[] }).items;
}

describe('listing keys (D83)', () => {
  it("gives the first key's id on project creation and lists it with exactly the fields of D83", async () => {
    const { project, apiKey, keyId } = await newProject('listed');
    expect(keyId).toMatch(/^key_/);

    const listed = await admin({ method: 'GET', url: `/admin/v1/projects/${project.id}/keys` });
    expect(listed.statusCode).toBe(200);
    const body = listed.json() as { items: ListedKey[] };
    expect(body.items).toHaveLength(1);
    expect(Object.keys(body.items[0]!).sort()).toEqual(['created', 'id', 'lastUsed', 'prefix', 'revoked']);
    expect(body.items[0]).toEqual({
      id: keyId,
      prefix: apiKey.slice(0, 9),
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      lastUsed: null,
      revoked: null,
    });
    // Never the key itself, nor its hash.
    expect(listed.body).not.toContain(apiKey);
    expect(listed.body).not.toMatch(/[0-9a-f]{64}/);
  });

  it('lists every key of the project, oldest first, revoked ones included, and no other project', async () => {
    const { project, keyId: first } = await newProject('several');
    const second = (await admin({ method: 'POST', url: `/admin/v1/projects/${project.id}/keys` })).json();
    await admin({ method: 'DELETE', url: `/admin/v1/projects/${project.id}/keys/${first}` });
    const other = await newProject('other');

    const keys = await listKeys(project.id);
    expect(keys.map((k) => k.id)).toEqual([first, second.id]);
    expect(keys[0]!.revoked).toMatch(/^\d{4}-/);
    expect(keys[1]!.revoked).toBeNull();
    expect((await listKeys(other.project.id)).map((k) => k.id)).toEqual([other.keyId]);
  });

  it('records when a key was last used, once within a minute', async () => {
    const { project, apiKey } = await newProject('used');
    expect((await useKey(apiKey)).statusCode).toBe(200);
    const [afterFirst] = await listKeys(project.id);
    expect(afterFirst!.lastUsed).not.toBeNull();
    expect(Date.parse(afterFirst!.lastUsed!)).toBeGreaterThanOrEqual(Date.parse(afterFirst!.created));

    await untilClockPasses(afterFirst!.lastUsed!);
    expect((await useKey(apiKey)).statusCode).toBe(200);
    const [afterSecond] = await listKeys(project.id);
    expect(afterSecond!.lastUsed).toBe(afterFirst!.lastUsed);
  });

  it('answers an unknown project with PROJECT_NOT_FOUND and needs the admin token', async () => {
    expectError(
      await admin({ method: 'GET', url: '/admin/v1/projects/prj_missing/keys' }),
      404,
      'PROJECT_NOT_FOUND',
    );
    const { project } = await newProject('guarded');
    expectError(
      await ctx.app.inject({ method: 'GET', url: `/admin/v1/projects/${project.id}/keys` }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('revoking keys (D83)', () => {
  it('revokes by id: the key is refused at once and keeps its first revocation time', async () => {
    const { project, apiKey, keyId } = await newProject('by-id');
    // Used once, so that this instance trusts it from its key cache.
    expect((await useKey(apiKey)).statusCode).toBe(200);

    const revoked = await admin({ method: 'DELETE', url: `/admin/v1/projects/${project.id}/keys/${keyId}` });
    expect(revoked.json()).toEqual({ success: true, id: keyId });
    expectError(await useKey(apiKey), 401, 'UNAUTHORIZED');

    const [first] = await listKeys(project.id);
    await untilClockPasses(first!.revoked!);
    const again = await admin({ method: 'DELETE', url: `/admin/v1/projects/${project.id}/keys/${keyId}` });
    expect(again.statusCode).toBe(200);
    expect((await listKeys(project.id))[0]!.revoked).toBe(first!.revoked);
  });

  it('revokes by the key itself, in whichever project it belongs to, refused at once', async () => {
    const { project, apiKey, keyId } = await newProject('by-value');
    const spare = (await admin({ method: 'POST', url: `/admin/v1/projects/${project.id}/keys` })).json();
    expect((await useKey(apiKey)).statusCode).toBe(200);

    const revoked = await admin({ method: 'POST', url: '/admin/v1/keys/revoke', payload: { apiKey } });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ success: true, id: keyId, projectId: project.id });
    expectError(await useKey(apiKey), 401, 'UNAUTHORIZED');
    // Only that key: the project's other key still works.
    expect((await useKey(spare.apiKey)).statusCode).toBe(200);
    const keys = await listKeys(project.id);
    expect(keys.find((k) => k.id === keyId)!.revoked).not.toBeNull();
    expect(keys.find((k) => k.id === spare.id)!.revoked).toBeNull();
  });

  it('answers an unknown key id, or a key of another project, with API_KEY_NOT_FOUND', async () => {
    const { project } = await newProject('mine');
    const other = await newProject('theirs');
    const unknown = expectError(
      await admin({ method: 'DELETE', url: `/admin/v1/projects/${project.id}/keys/key_missing` }),
      404,
      'API_KEY_NOT_FOUND',
    );
    expect(unknown.type).toBe('not_found');
    expectError(
      await admin({ method: 'DELETE', url: `/admin/v1/projects/${project.id}/keys/${other.keyId}` }),
      404,
      'API_KEY_NOT_FOUND',
    );
    // The other project's key was not touched.
    expect((await useKey(other.apiKey)).statusCode).toBe(200);
  });

  it('answers an unknown key value with API_KEY_NOT_FOUND, without repeating it', async () => {
    const guess = 'prly_not-a-key-of-anyone-0123456789abcdefghijkl';
    const error = expectError(
      await admin({ method: 'POST', url: '/admin/v1/keys/revoke', payload: { apiKey: guess } }),
      404,
      'API_KEY_NOT_FOUND',
    );
    expect(error.message).not.toContain(guess);
  });

  it('validates the body of a revocation by value and needs the admin token', async () => {
    expectError(
      await admin({ method: 'POST', url: '/admin/v1/keys/revoke', payload: {} }),
      400,
      'MISSING_PARAMETER',
    );
    expectError(
      await admin({
        method: 'POST',
        url: '/admin/v1/keys/revoke',
        payload: { apiKey: 'x'.repeat(20), id: 'key_1' },
      }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/keys/revoke',
        payload: { apiKey: 'x'.repeat(20) },
      }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('documents the key routes in OpenAPI with their schemas and error responses', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
    const list = document.paths['/admin/v1/projects/{id}/keys'].get;
    expect(list.operationId).toBe('adminListKeys');
    expect(Object.keys(list.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '503']);
    const byValue = document.paths['/admin/v1/keys/revoke'].post;
    expect(byValue.operationId).toBe('adminRevokeKeyByValue');
    expect(Object.keys(byValue.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '503']);
    expect(Object.keys(document.components.schemas.ApiKey.properties).sort()).toEqual([
      'created',
      'id',
      'lastUsed',
      'prefix',
      'revoked',
    ]);
  });
});

describe('lastUsed, refreshed at most once a minute per key (D83)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.close());

  it('moves only after a minute, and one instance does not rewrite what another just wrote', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const now = () => clock;
    const first = createProjectService({ db: database.handle.db, now });
    const second = createProjectService({ db: database.handle.db, now });
    const { project, apiKey } = await first.createProject('clocked');
    const lastUsed = async () => (await first.listKeys(project.id))[0]!.lastUsed;

    expect(await first.authenticate(apiKey)).toMatchObject({ projectId: project.id });
    expect(await lastUsed()).toBe('2030-01-01T00:00:00.000Z');

    clock += 59_000;
    await first.authenticate(apiKey);
    // Another instance, with its first use of the key: the database says it is fresh enough.
    await second.authenticate(apiKey);
    expect(await lastUsed()).toBe('2030-01-01T00:00:00.000Z');

    clock += 2_000;
    await first.authenticate(apiKey);
    expect(await lastUsed()).toBe('2030-01-01T00:01:01.000Z');
    // A minute after the last write, whichever instance wrote it, the next use is recorded.
    clock += 61_000;
    await second.authenticate(apiKey);
    expect(await lastUsed()).toBe('2030-01-01T00:02:02.000Z');
  });
});
