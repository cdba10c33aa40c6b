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
} from './schemas.js';

const summaryTags = ['summaries'];

/** Summaries (D56): written by the compaction service, read by the summary service. */
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
        tags: summaryTags,
        body: createSummaryBody,
        response: {
          200: summarySchema,
          201: summarySchema,
          ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 409, 429, 'PLAN_LIMIT_EXCEEDED'),
        },
      },
    },
    // A keyed retry (Idempotency-Key) of a summary that was stored is replayed before the model is called.
    async (request, reply) => {
      const { template: _template, ...input } = request.body;
      return sendStagedWrite(
        request,
        reply,
        { created: 201, existing: 200 },
        compaction.summarize(contextOf(request), input),
      );
    },
  );

  app.get(
    '/summary',
    {
      schema: {
        operationId: 'listSummaries',
        summary: "List a dialogue's summaries, newest first",
        description: 'Every summary written for the dialogue, kept as its history; cursor-paged.',
        tags: summaryTags,
        querystring: listSummariesQuery,
        response: { 200: summaryListSchema, ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 429) },
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
        description: "One summary by its id; a namespaced dialogue's summary needs its `namespace`.",
        tags: summaryTags,
        params: summaryParams,
        querystring: summaryNamespaceQuery,
        response: { 200: summarySchema, ...errorResponses(400, 401, 403, 'SUMMARY_NOT_FOUND', 429) },
      },
    },
    async (request) => summaries.get(contextOf(request), request.params.id, request.query.namespace),
  );
};
