import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type TestContext,
  type TestProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { callError, callOk, connectMcp, listen } from '../helpers/mcp.js';

// D45, D43, D44 on /mcp/v1: the same allow-list, rate limit and quota as REST.

let context: TestContext;
let baseUrl: string;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

function rpc(project: TestProject) {
  return fetch(`${baseUrl}/mcp/v1`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...project.auth,
    },
    body: JSON.stringify(initialize),
  });
}

async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: { code: string; requestId: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
}

beforeAll(async () => {
  context = await createTestContext();
  baseUrl = await listen(context.app);
});
afterAll(() => context.close());

describe('MCP protection', () => {
  it('refuses a caller outside the allow-list with 403 IP_NOT_ALLOWED (D45)', async () => {
    const outside = await createProject(context.app, { ipAllowList: ['10.0.0.0/8'] });
    await expectEnvelope(await rpc(outside), 403, 'IP_NOT_ALLOWED');
    const inside = await createProject(context.app, { ipAllowList: ['127.0.0.1', '::1'] });
    expect((await rpc(inside)).status).toBe(200);
  });

  it('counts each HTTP request once against the rate limit, with the headers, then 429 (D43)', async () => {
    const project = await createProject(context.app, { rateLimit: { max: 3, windowSeconds: 60 } });
    for (let remaining = 2; remaining >= 0; remaining--) {
      const response = await rpc(project);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    const refused = await rpc(project);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectEnvelope(refused, 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('counts tools that change data against the quota; read-only tools keep working (D44)', async () => {
    const project = await createProject(context.app, { monthlyWriteQuota: 1 });
    const client = await connectMcp(baseUrl, project.apiKey);
    try {
      await callOk(client, 'create_dialogue', {});
      const error = await callError(client, 'create_dialogue', {}, 'PLAN_LIMIT_EXCEEDED');
      expect(error.type).toBe('rate_limit_exceeded');
      const listed = await callOk<{ items: unknown[] }>(client, 'list_dialogues', {});
      expect(listed.items).toHaveLength(1);
    } finally {
      await client.close();
    }
    const usage = await context.app.inject({
      method: 'GET',
      url: `/admin/v1/projects/${project.projectId}/usage`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(usage.json()).toMatchObject({ writes: 1, remaining: 0 });
  });
});
