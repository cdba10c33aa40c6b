import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../core/error-envelope.js';
import { searchBody, searchResponse } from './schemas.js';

/** D39, D51, D59: one search endpoint over messages, dialogues and memories. A read (D44). */
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
          'words at once and by its meaning once embedded.\n\n' +
          'Without `namespace` the whole project is searched; with it, only that namespace (D51). ' +
          '`tag`/`tags`, `metadata` and `filter` test the searched object’s own fields and run inside ' +
          'the query, before the page (D59). The results are the best `limit` matches by relevance, ' +
          'ordered by `orderBy`/`order`; each carries `object`, a dialogue also `matches` (up to 3 of ' +
          'its best messages), and `request` echoes the order and the filters as applied, dates as ' +
          'UTC ranges.',
        tags: ['search'],
        body: searchBody,
        response: {
          200: searchResponse,
          ...errorResponses(400, 'SEARCH_QUERY_TOO_SHORT', 401, 403, 'DIALOGUE_NOT_FOUND', 429),
        },
      },
    },
    async (request) =>
      search.search({ projectId: request.auth.projectId, settings: request.auth.settings }, request.body),
  );
};
