import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../core/error-envelope.js';
import { searchBody, searchResponse } from './schemas.js';

/** D39: one search endpoint over messages, dialogues and memories. A read (D44). */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { search } = app.services;

  app.post(
    '/search',
    {
      schema: {
        operationId: 'search',
        summary: 'Search messages, dialogues or memories by meaning and by words',
        description:
          'Hybrid search: pgvector cosine similarity over the configured embedding model fused with ' +
          'Postgres full-text search. `mode` tells which signals answered: `hybrid`, `lexical` (no ' +
          'embedder configured, or the provider failed) or `semantic`. A message is found by its ' +
          'words at once and by its meaning once embedded.',
        tags: ['search'],
        body: searchBody,
        response: { 200: searchResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      search.search({ projectId: request.auth.projectId, settings: request.auth.settings }, request.body),
  );
};
