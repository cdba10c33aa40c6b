import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, createProject, createTestContext } from '../helpers/app.js';
import { capturedLogger } from '../helpers/captured-logger.js';
import { CONTENT_MARKER, HOSTILE_ENV, runHostileRequests } from '../helpers/hostile.js';

// The large run of the hostile-input property (test/http/hostile-input.test.ts runs a smaller one).
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10_000);

describe('hostile input on every route, large run', () => {
  let ctx: TestContext;
  const logs = capturedLogger();
  beforeAll(async () => {
    ctx = await createTestContext(HOSTILE_ENV, { logger: logs.logger });
  });
  afterAll(() => ctx.close());

  it(`answers ${RUNS} generated hostile requests without a single 5xx`, async () => {
    const project = await createProject(ctx.app);
    const statuses = await runHostileRequests(
      ctx.app,
      { apiKey: project.apiKey, adminToken: ADMIN_TOKEN, protectedIds: [project.projectId] },
      RUNS,
    );
    const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    expect(total).toBe(RUNS);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    console.info(
      `hostile input: ${total} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    const text = logs.text();
    expect(text).not.toContain(project.apiKey);
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(text).not.toContain(CONTENT_MARKER);
  });
});
