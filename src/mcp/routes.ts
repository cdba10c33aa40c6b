import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../core/error-envelope.js';
import { sendError, toClientError } from '../http/error-handler.js';
import { AppError } from '../core/errors.js';
import { guardProjectRoutes } from '../http/protection.js';
import { createMcpServer } from './server.js';

// D42: MCP over Streamable HTTP, stateless. Every POST gets a server and a transport of its own,
// so that any instance behind a load balancer can answer any request (D49); nothing outlives the
// request. There is no session and no server-initiated stream.

/** Headers set before the hijack (X-Request-Id, rate-limit headers) that the raw response must keep. */
function copyHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
}

async function answerRpc(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // The transport would try to read the already consumed body stream again and wait forever.
  if (request.body === undefined)
    throw new AppError('MISSING_PARAMETER', 'A JSON-RPC message body is required');
  const server = createMcpServer(request);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  copyHeaders(reply);
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP request failed');
    if (!reply.raw.headersSent) {
      // Fastify no longer owns the response: render the envelope by hand.
      const clientError = toClientError(error);
      reply.raw.statusCode = clientError.status;
      reply.raw.setHeader('content-type', 'application/json; charset=utf-8');
      reply.raw.end(
        JSON.stringify(errorBody(clientError.code, clientError.message, request.id, clientError.details)),
      );
    } else reply.raw.end();
  }
}

export const mcpRoutes: FastifyPluginAsync = async (app) => {
  // D6, D42-D45: the same bearer keys, IP allow-list and rate limit as REST; the key decides the
  // project. The plan quota (D44) is counted by the write tools, through runWrite.
  guardProjectRoutes(app);

  app.post('/', { schema: { hide: true } }, answerRpc);

  // MCP "Streamable HTTP": a server that offers no stream (GET) and no session (DELETE) answers
  // 405. Clients read 405 as "not offered" and carry on; a 404 makes several of them stall (D42).
  app.route({
    method: ['GET', 'DELETE'],
    url: '/',
    schema: { hide: true },
    handler: async (request, reply) => {
      reply.header('allow', 'POST');
      return sendError(
        request,
        reply,
        new AppError(
          'METHOD_NOT_ALLOWED',
          `${request.method} is not offered here: send JSON-RPC messages with POST`,
        ),
      );
    },
  });
};
