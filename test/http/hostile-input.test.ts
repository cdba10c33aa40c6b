import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, createProject, createTestContext } from '../helpers/app.js';
import { capturedLogger } from '../helpers/captured-logger.js';
import { CONTENT_MARKER, routesOf, runHostileRequests } from '../helpers/hostile.js';

// A smaller run of the hostile-input property; test/slow/hostile-input.test.ts sends 10,000.
const RUNS = 1500;

describe('hostile input on every route', () => {
  let ctx: TestContext;
  const logs = capturedLogger();
  beforeAll(async () => {
    ctx = await createTestContext({ RATE_LIMIT_MAX: '1000000' }, { logger: logs.logger });
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
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
    // Prototype pollution would show up on every object.
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Logs (info level, as in production) never hold API keys, the admin token or content.
    const text = logs.text();
    expect(text).toContain('incoming request');
    expect(text).not.toContain(project.apiKey);
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(text).not.toContain(CONTENT_MARKER);
  });
});
