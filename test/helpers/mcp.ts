import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';

// MCP tests drive the server through the SDK's own client over real HTTP (D42).

/** Starts the app on a free port; `app.close()` (the test context's close) stops it. */
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
