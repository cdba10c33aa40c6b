import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../core/error-envelope.js';
import { contextOf, sendStagedWrite } from '../../http/writes.js';
import {
  createSummaryBody,
  listSummariesQuery,
  summaryListSchema,
  summaryNamespaceQuery,
  summaryParams,
  summarySchema,
} from './summary-schemas.js';

const tags = ['summaries'];

/** D56: summaries as a resource. They are made by the compaction service; rules live there. */
export const summaryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { compaction, summaries } = app.services;

  app.post(
    '/summary',
    {
      schema: {
        operationId: 'createSummary',
        summary: 'Summarize a dialogue (or a range of its messages) and keep the summary',
        description:
          "D56: synchronous. Stores a new summary record and makes it the dialogue's `summary`; without " +
          '`startId`/`endId` the whole dialogue is covered, built on the previous summary. A failing model ' +
          'answers 201 with `status: "failed"` and `error`, and nothing changes on the dialogue. A repeated ' +
          'client `id` answers 200 with the stored summary.',
        tags,
        body: createSummaryBody,
        response: {
          200: summarySchema,
          201: summarySchema,
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    // A keyed retry (Idempotency-Key) of a summary that was stored is replayed before the model is called.
    async (request, reply) => {
      const { template: _template, ...input } = request.body;
      return sendStagedWrite(request, reply, 201, (write) =>
        compaction.summarize(contextOf(request), input, write, (stored) => reply.code(200).send(stored)),
      );
    },
  );

  app.get(
    '/summary',
    {
      schema: {
        operationId: 'listSummaries',
        summary: "List a dialogue's summaries, newest first",
        tags,
        querystring: listSummariesQuery,
        response: { 200: summaryListSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => summaries.list(contextOf(request), request.query),
  );

  app.get(
    '/summary/:id',
    {
      schema: {
        operationId: 'getSummary',
        summary: 'Get a summary',
        tags,
        params: summaryParams,
        querystring: summaryNamespaceQuery,
        response: { 200: summarySchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => summaries.get(contextOf(request), request.params.id, request.query.namespace),
  );
};
