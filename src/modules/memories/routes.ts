import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../core/error-envelope.js';
import { rawJsonAt } from '../../http/json-body.js';
import { contextOf, sendWrite } from '../../http/writes.js';
import {
  createMemoryBody,
  deletedResponse,
  listMemoriesQuery,
  memoryListResponse,
  memoryNamespaceQuery,
  memoryParams,
  memorySchema,
  updateMemoryBody,
} from './schemas.js';

const tags = ['memories'];

/** D37-D38: memories. */
export const memoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { memories } = app.services;

  app.post(
    '/memory',
    {
      schema: {
        operationId: 'createMemory',
        summary: 'Create a memory',
        description: 'A labelled long-term value (any JSON value), searchable by meaning once embedded.',
        tags,
        body: createMemoryBody,
        response: {
          201: memorySchema,
          ...errorResponses(400, 401, 403, 409, 'DUPLICATE_ID', 429, 'PLAN_LIMIT_EXCEEDED'),
        },
      },
    },
    async (request, reply) => {
      // D57: the value as the exact JSON text the client sent (D28); validation made sure it is there.
      const input = { ...request.body, value: rawJsonAt(request, ['value'])! };
      return sendWrite(request, reply, 201, (tx) => memories.create(tx, contextOf(request), input));
    },
  );

  app.get(
    '/memory',
    {
      schema: {
        operationId: 'listMemories',
        summary: 'List memories, newest first by default',
        description: 'Cursor-paged; filters by namespace, label, tags and creation date.',
        tags,
        querystring: listMemoriesQuery,
        response: { 200: memoryListResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => memories.list(contextOf(request), request.query),
  );

  app.get(
    '/memory/:id',
    {
      schema: {
        operationId: 'getMemory',
        summary: 'Get a memory',
        description: 'One memory by its id; with `namespace`, a memory of another namespace is not found.',
        tags,
        params: memoryParams,
        querystring: memoryNamespaceQuery,
        response: { 200: memorySchema, ...errorResponses(400, 401, 403, 'MEMORY_NOT_FOUND', 429) },
      },
    },
    async (request) => memories.get(contextOf(request), request.params.id, request.query.namespace),
  );

  app.put(
    '/memory/:id',
    {
      schema: {
        operationId: 'updateMemory',
        summary: 'Update a memory: tags (replaced), value, label, description',
        description: 'Fields left out keep their values; a new value is embedded again.',
        tags,
        params: memoryParams,
        querystring: memoryNamespaceQuery,
        body: updateMemoryBody,
        response: { 200: memorySchema, ...errorResponses(400, 401, 403, 'MEMORY_NOT_FOUND', 409, 429) },
      },
    },
    async (request, reply) => {
      const input = { ...request.body, value: rawJsonAt(request, ['value']) };
      return sendWrite(request, reply, 200, (tx) =>
        memories.update(tx, contextOf(request), request.params.id, request.query.namespace, input),
      );
    },
  );

  app.delete(
    '/memory/:id',
    {
      schema: {
        operationId: 'deleteMemory',
        summary: 'Delete a memory, with its embedding',
        description: 'Permanent; answers the id that was deleted.',
        tags,
        params: memoryParams,
        querystring: memoryNamespaceQuery,
        response: { 200: deletedResponse, ...errorResponses(400, 401, 403, 'MEMORY_NOT_FOUND', 409, 429) },
      },
    },
    async (request, reply) =>
      sendWrite(request, reply, 200, (tx) =>
        memories.remove(tx, contextOf(request), request.params.id, request.query.namespace),
      ),
  );
};
