import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { type HttpPart, parseRequestPart } from '../core/validation.js';

/** Fastify validates every request part with its zod schema; failures become D12-D13 errors. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) =>
    parseRequestPart(schema, data, (httpPart ?? 'body') as HttpPart);

const nothing = z.object({});

/**
 * D82 for the request parts a route declares no schema for (`end` has no body, admin routes no
 * query string): any field or parameter sent there is unknown, so it is refused as a schema would
 * refuse it. An empty JSON object is no field: the DialogueDB client ends a dialogue with `{}`.
 * Only routes that state their contract (a response schema) are concerned; MCP, the health probes
 * and the documents are not REST operations.
 */
export function refuseUndeclaredParts(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema;
    if (!schema?.response) return;
    const parts: [HttpPart, unknown, unknown][] = [
      ['querystring', schema.querystring, request.query],
      ['body', schema.body, request.body],
    ];
    for (const [part, declared, data] of parts) {
      if (declared !== undefined || data === undefined) continue;
      const parsed = parseRequestPart(nothing, data, part);
      if (parsed.error) throw parsed.error;
    }
  });
}
