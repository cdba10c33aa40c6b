import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestProject, createProject, createTestContext } from '../helpers/app.js';
import { callError, callOk, connectMcp, listen, postMcp } from '../helpers/mcp.js';

// D43-D45 over MCP: the rate limit and the IP allow-list apply per HTTP request as for REST; the
// plan quota counts the tools that change data and no others.

let context: TestContext;
let baseUrl: string;

beforeAll(async () => {
  context = await createTestContext();
  baseUrl = await listen(context.app);
});

afterAll(async () => {
  await context.close();
});

function listTools(project: TestProject) {
  return postMcp(baseUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, project.auth);
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe('MCP protection', () => {
  it('sends the rate-limit headers on MCP answers and refuses past the limit (D43)', async () => {
    const project = await createProject(context.app, { rateLimit: { max: 2, windowSeconds: 60 } });
    const first = await listTools(project);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect((await listTools(project)).status).toBe(200);

    const refused = await listTools(project);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorCode(refused)).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('refuses callers outside the project allow-list with 403 (D45)', async () => {
    const elsewhere = await createProject(context.app, { ipAllowList: ['10.1.2.3'] });
    const refused = await listTools(elsewhere);
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('IP_NOT_ALLOWED');

    const here = await createProject(context.app, { ipAllowList: ['127.0.0.0/8'] });
    expect((await listTools(here)).status).toBe(200);
  });

  it('counts write tools against the plan quota, and read tools not at all (D44)', async () => {
    const project = await createProject(context.app, { monthlyWriteQuota: 1 });
    const client = await connectMcp(baseUrl, project.apiKey);
    for (let i = 0; i < 3; i++) await callOk(client, 'list_dialogues', {});
    await callOk(client, 'search', { query: 'anything at all' });

    const { id } = await callOk<{ id: string }>(client, 'create_dialogue', {});
    const refused = await callError(
      client,
      'create_memory',
      { value: 'one too many' },
      'PLAN_LIMIT_EXCEEDED',
    );
    expect(refused.type).toBe('rate_limit_exceeded');
    expect(refused.retryAfter).toBeGreaterThan(0);
    await callError(client, 'end_dialogue', { dialogueId: id }, 'PLAN_LIMIT_EXCEEDED');

    // Reads keep working past the quota.
    expect((await callOk<{ status: string }>(client, 'get_dialogue', { dialogueId: id })).status).toBe(
      'active',
    );
    await client.close();
  });
});
