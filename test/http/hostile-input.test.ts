import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type TestContext,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { capturedLogger } from '../helpers/captured-logger.js';
import {
  CONTENT_MARKER,
  HOSTILE_ENV,
  routesOf,
  runHostileRequests,
  storeFingerprint,
} from '../helpers/hostile.js';

// A smaller run of the hostile-input property; test/slow/hostile-input.test.ts sends 10,000.
const RUNS = 1000;

describe('hostile input on every route', () => {
  let ctx: TestContext;
  const logs = capturedLogger();
  beforeAll(async () => {
    ctx = await createTestContext(HOSTILE_ENV, { logger: logs.logger });
  });
  afterAll(() => ctx.close());

  it('covers the documented routes, their aliases and the hidden ones', () => {
    const paths = routesOf(ctx.app).map((route) => `${route.method} ${route.path}`);
    expect(paths).toContain('POST /admin/v1/projects');
    expect(paths).toContain('GET /admin/v1/projects/{id}/usage');
    expect(paths).toContain('GET /healthz');
  });

  it(`answers ${RUNS} random and malformed requests with a 4xx envelope or a success, never a 5xx`, async () => {
    const project = await createProject(ctx.app);
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
    const statuses = await runHostileRequests(
      ctx.app,
      { apiKey: project.apiKey, adminToken: ADMIN_TOKEN, protectedIds: [project.projectId] },
      RUNS,
    );
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    // Prototype pollution would show up on every object.
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Logs (info level, as in production) never hold API keys, the admin token or content.
    const text = logs.text();
    expect(text).toContain('request completed');
    expect(text).not.toContain(project.apiKey);
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(text).not.toContain(CONTENT_MARKER);
  });
});

describe('named hostile cases', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const createProjectWith = (payload: string | Buffer) =>
    ctx.app.inject({ method: 'POST', url: '/admin/v1/projects', headers: admin, payload });

  it('refuses deep nesting, huge arrays and strings, invalid UTF-8, NUL bytes and pollution keys with 400, storing nothing', async () => {
    const before = await storeFingerprint(ctx.app);
    const cases: [string | Buffer, string][] = [
      [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'INVALID_INPUT'],
      [`{"name":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`, 'INVALID_INPUT'],
      [
        JSON.stringify({
          name: 'n',
          settings: { ipAllowList: Array.from({ length: 200_000 }, () => '10.0.0.1') },
        }),
        'INVALID_INPUT',
      ],
      [JSON.stringify({ name: 'n'.repeat(5 * 1024 * 1024) }), 'INVALID_INPUT'],
      [
        Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
        'INVALID_INPUT',
      ],
      [JSON.stringify({ name: 'a\u0000b' }), 'INVALID_INPUT'],
      ['{"name":"x","__proto__":{"settings":{"rateLimit":null}}}', 'INVALID_INPUT'],
      ['{"name":"x","settings":{"constructor":{"prototype":{"polluted":true}}}}', 'INVALID_INPUT'],
      ['{"name":"x","settings":{"__proto__":{"immutableDialogues":true}}}', 'INVALID_INPUT'],
      ['{"name": "x"', 'INVALID_INPUT'],
      ['', 'MISSING_PARAMETER'],
    ];
    for (const [payload, code] of cases) expectError(await createProjectWith(payload), 400, code);
    expect(await storeFingerprint(ctx.app)).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stores SQL-like text verbatim', async () => {
    const name = "x'); DROP TABLE projects; --";
    const created = await createProjectWith(JSON.stringify({ name }));
    expect(created.statusCode).toBe(201);
    expect((created.json() as { project: { name: string } }).project.name).toBe(name);
  });

  it('answers over-long and undecodable path parameters with the envelope', async () => {
    const get = (id: string) =>
      ctx.app.inject({ method: 'GET', url: `/admin/v1/projects/${id}`, headers: admin });
    expectError(await get('p'.repeat(129)), 400, 'INVALID_PARAMETER');
    expectError(await get('p'.repeat(5000)), 400, 'INVALID_PARAMETER');
    expectError(await get('%E0%A4%A'), 404, 'RESOURCE_NOT_FOUND');
    expectError(await get("prj_x' OR '1'='1"), 404, 'PROJECT_NOT_FOUND');
  });
});
