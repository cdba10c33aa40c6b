import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type TestContext, type TestProject, createProject, createTestContext } from '../helpers/app.js';
import { D42_TOOL_NAMES, callOk, connectMcp, listen, postMcp } from '../helpers/mcp.js';

// D42: stateless Streamable HTTP at /mcp/v1, the REST keys, 405 for GET and DELETE.

const ACCEPT = 'application/json, text/event-stream';

let context: TestContext;
let project: TestProject;
let baseUrl: string;

function rpc(body: unknown, headers: Record<string, string> = {}) {
  return postMcp(baseUrl, body, { ...project.auth, ...headers });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

beforeAll(async () => {
  context = await createTestContext();
  project = await createProject(context.app);
  baseUrl = await listen(context.app);
});

afterAll(async () => {
  await context.close();
});

describe('MCP transport', () => {
  it('connects with the SDK client and names the server', async () => {
    const client = await connectMcp(baseUrl, project.apiKey);
    expect(client.getServerVersion()?.name).toBe('parley');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain('create_dialogue');
    await client.close();
  });

  it('lists the tools of D42, list_events (D71) and fork_dialogue (D160) and erase_namespace (D162), each with a description for a model and object schemas in and out', async () => {
    const client = await connectMcp(baseUrl, project.apiKey);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [...D42_TOOL_NAMES, 'list_events', 'fork_dialogue', 'erase_namespace'].sort(),
    );
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // Self-contained schemas: no references for a client or model to follow.
      expect(JSON.stringify(tool.inputSchema) + JSON.stringify(tool.outputSchema)).not.toContain('$ref');
      // D44: list_*, get_* and search are reads; every other tool changes data.
      const read = /^(list_|get_)/.test(tool.name) || tool.name === 'search';
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(read);
    }
    // Portable schemas (the MCP Inspector's --strict check): nullables as anyOf branches of one
    // type each, never a `type` array; free-form objects as additionalProperties true, never {}.
    const problems: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${path}[${i}]`);
        return;
      }
      if (node === null || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.type)) problems.push(`${path}.type is an array`);
      const extra = record.additionalProperties;
      if (extra !== null && typeof extra === 'object' && Object.keys(extra).length === 0)
        problems.push(`${path}.additionalProperties is {}`);
      for (const [key, value] of Object.entries(record)) walk(value, `${path}.${key}`);
    };
    for (const tool of tools) walk({ in: tool.inputSchema, out: tool.outputSchema }, tool.name);
    expect(problems).toEqual([]);
    const create = tools.find((tool) => tool.name === 'create_dialogue')!;
    expect(Object.keys(create.inputSchema.properties!)).toEqual(
      expect.arrayContaining([
        'namespace',
        'threadOf',
        'label',
        'tags',
        'metadata',
        'state',
        'messages',
        'message',
      ]),
    );
    await client.close();
  });

  it('refuses a request without a key, or with an unknown key, with 401 as REST does (D6)', async () => {
    // The SDK's transport error carries the HTTP status and the body it got.
    await expect(connectMcp(baseUrl)).rejects.toMatchObject({ code: 401, message: /UNAUTHORIZED/ });
    await expect(connectMcp(baseUrl, 'prly_not-a-key-of-this-server')).rejects.toMatchObject({
      code: 401,
      message: /Unknown or revoked API key/,
    });

    const response = await rpc(initialize, { authorization: 'Bearer prly_unknown' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const body = (await response.json()) as { error: { code: string; type: string; requestId: string } };
    expect(body.error).toMatchObject({ code: 'UNAUTHORIZED', type: 'authentication_error' });
    expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('answers GET and DELETE with 405 and the error envelope, never 404', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${baseUrl}/mcp/v1`, {
        method,
        headers: { ...project.auth, accept: ACCEPT },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      const body = (await response.json()) as { error: { code: string } };
      expect(body.error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('keeps no session: any request stands on its own and carries X-Request-Id', async () => {
    const init = await rpc(initialize, { 'x-request-id': 'mcp-test-1' });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(init.headers.get('x-request-id')).toBe('mcp-test-1');
    expect(init.headers.get('content-type')).toContain('application/json');
    expect(((await init.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
      'parley',
    );

    // A request that no initialize preceded on this connection, as another instance would see it.
    const list = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toBeInstanceOf(Array);
  });

  it('lets any instance answer any request: a client spread over two instances works (D49)', async () => {
    const second = await buildApp({ config: context.config, database: context.database.handle });
    const secondUrl = await listen(second);
    // A round-robin load balancer: each HTTP request goes to the other instance.
    const origins = [new URL(baseUrl), new URL(secondUrl)];
    let turn = 0;
    const answeredBy = new Set<string>();
    const balanced: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const origin = origins[turn++ % origins.length]!;
      url.host = origin.host;
      answeredBy.add(origin.host);
      return fetch(url, init);
    };
    const client = new Client({ name: 'balanced', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp/v1', baseUrl), {
        fetch: balanced,
        requestInit: { headers: project.auth },
      }),
    );
    const { id } = await callOk<{ id: string }>(client, 'create_dialogue', {
      message: { role: 'user', content: 'first instance or second?' },
    });
    await callOk(client, 'add_messages', {
      dialogueId: id,
      messages: [{ role: 'assistant', content: 'either' }],
    });
    expect(
      (await callOk<{ totalMessages: number }>(client, 'get_dialogue', { dialogueId: id })).totalMessages,
    ).toBe(2);
    expect(answeredBy.size).toBe(2);
    await client.close();
    await second.close();
  });

  it('answers a notification with 202 and no body (D42: D50 is for REST)', async () => {
    const response = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('refuses a body that is not JSON, or no body, with the error envelope', async () => {
    const broken = await rpc('{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');

    const empty = await rpc('');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('MISSING_PARAMETER');
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } });
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain('nope');
  });

  it('counts MCP requests in the request metrics like any route', async () => {
    await rpc({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /parley_http_requests_total\{[^}]*route="\/mcp\/v1\/?"[^}]*status="200"[^}]*\} [1-9]/,
    );
  });

  it('is left out of the OpenAPI document', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    expect(Object.keys(response.json().paths as object).some((path) => path.startsWith('/mcp'))).toBe(false);
  });
});
