import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type TestContext, type TestProject, asProject, createProject, createTestContext } from './app.js';

// MCP tests drive the server through the SDK's own client over real HTTP (D42).

/** Starts the app on a free port; `app.close()` (the test context's close) stops it. */
/** The tools of D42, by the names D42 gives them. */
export const D42_TOOL_NAMES = [
  'create_dialogue',
  'list_dialogues',
  'get_dialogue',
  // D81
  'get_context',
  'update_dialogue',
  'end_dialogue',
  'compact_dialogue',
  'update_state',
  'add_messages',
  'list_messages',
  'get_message',
  'search',
  'create_memory',
  'list_memories',
  'get_memory',
  'delete_memory',
];

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

/** An SDK client connected to `/mcp/v1` with `apiKey` (no key: no Authorization header). */
export async function connectMcp(baseUrl: string, apiKey?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp/v1', baseUrl), {
    requestInit: apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {},
  });
  const client = new Client({ name: 'parley-tests', version: '1.0.0' });
  await client.connect(transport);
  // Listing the tools makes the client check every later structuredContent against its tool's
  // outputSchema, so each test call also checks the published contract.
  await client.listTools();
  return client;
}

export interface McpTestProject {
  context: TestContext;
  project: TestProject;
  baseUrl: string;
  /** An SDK client connected with the project's key. */
  client: Client;
  /** `app.inject` as the project, for REST. */
  rest: ReturnType<typeof asProject>;
}

/** A listening app on a fresh database, a project and a connected client, for one test file. */
export function useMcpProject(): McpTestProject {
  const state = {} as McpTestProject;
  beforeAll(async () => {
    state.context = await createTestContext();
    state.project = await createProject(state.context.app);
    state.baseUrl = await listen(state.context.app);
    state.client = await connectMcp(state.baseUrl, state.project.apiKey);
    state.rest = asProject(state.context.app, state.project);
  });
  afterAll(async () => {
    await state.client.close();
    await state.context.close();
  });
  return state;
}

/** A JSON-RPC POST to /mcp/v1 by hand; a string body is sent byte for byte. */
export function postMcp(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}/mcp/v1`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface ToolError {
  code: string;
  message: string;
  type: string;
  requestId: string;
  details?: { field: string; code: string; message: string }[];
  retryAfter?: number;
}

/** The structured result of a successful tool call (fails the test on isError). */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** The error of a tool call that must fail with `code` (isError, REST envelope in the text). */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<ToolError> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  if (!result.isError) throw new Error(`${name} succeeded, expected ${code}: ${text}`);
  const { error } = JSON.parse(text) as { error: ToolError };
  if (error.code !== code) throw new Error(`${name}: expected ${code}, got ${text}`);
  if (result.structuredContent !== undefined) throw new Error('an error result carries no structuredContent');
  return error;
}
