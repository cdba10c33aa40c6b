import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../core/error-envelope.js';
import { contextOf, sendWrite } from '../../http/writes.js';
import { erasureParams, erasureSchema, namespaceParams } from './schemas.js';

const tags = ['erasures'];

/** D162: forgetting an end user: erase a namespace, and read the erasure's receipt. */
export const erasureRoutes: FastifyPluginAsyncZod = async (app) => {
  const { erasures } = app.services;

  app.delete(
    '/namespaces/:namespace',
    {
      schema: {
        operationId: 'eraseNamespace',
        summary: 'Erase a namespace: every dialogue, message and memory of one end user',
        description:
          'D162-D165: answers 202 with the erasure record at once; from then on the namespace reads as ' +
          'empty and refuses new objects (409 NAMESPACE_ERASING) while a background worker deletes it ' +
          'in batches. A retry while it is pending answers the same record. Its completion is the ' +
          '`namespace.erased` event, with the counts.',
        tags,
        params: namespaceParams,
        response: {
          202: erasureSchema,
          ...errorResponses(400, 401, 403, 'RESOURCE_CONFLICT', 429, 'PLAN_LIMIT_EXCEEDED'),
        },
      },
    },
    async (request, reply) =>
      sendWrite(request, reply, 202, (tx) =>
        erasures.request(tx, contextOf(request), request.params.namespace),
      ),
  );

  app.get(
    '/erasures/:id',
    {
      schema: {
        operationId: 'getErasure',
        summary: "An erasure's status and counts",
        description: 'D162: `pending` while the worker erases, then `completed` with the final counts.',
        tags,
        params: erasureParams,
        response: { 200: erasureSchema, ...errorResponses(400, 401, 403, 'RESOURCE_NOT_FOUND', 429) },
      },
    },
    async (request) => erasures.get(contextOf(request), request.params.id),
  );
};
