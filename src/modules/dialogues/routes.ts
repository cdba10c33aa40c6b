import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../core/error-envelope.js';
import { refuseMissingPathParameter } from '../../http/missing-path.js';
import { AppError } from '../../core/errors.js';
import { contextOf, sendStagedWrite, sendWrite } from '../../http/writes.js';
import { contextQuery, contextSchema } from '../context/schemas.js';
import { dialogueMessageInputs } from '../../http/message-inputs.js';
import {
  createDialogueBody,
  deletedDialogueSchema,
  dialogueListSchema,
  dialogueNamespaceQuery,
  dialogueParams,
  dialogueSchema,
  dialogueWithMessagesSchema,
  forkDialogueBody,
  getDialogueQuery,
  listDialoguesQuery,
  stateBody,
  updateDialogueBody,
} from './schemas.js';

const tags = ['dialogues'];

/** Compaction and continuation call the summarizer: its failures are 502 and 504 (D22). */
const summarizingErrors = errorResponses(
  400,
  401,
  403,
  'DIALOGUE_NOT_FOUND',
  409,
  'DUPLICATE_ID',
  429,
  'PLAN_LIMIT_EXCEEDED',
  502,
  504,
);

/** Dialogue operations (D15-D26). Rules live in the services. */
export const dialogueRoutes: FastifyPluginAsyncZod = async (app) => {
  const { dialogues, compaction, context } = app.services;
  /** D53: runs before every route with a dialogue in its path (params and query are validated by then). */
  const namespaceRule = async (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    const { namespace } = request.query as { namespace?: string };
    await dialogues.assertNamespace(contextOf(request), id, namespace);
  };

  app.post(
    '/dialogue',
    {
      schema: {
        operationId: 'createDialogue',
        summary: 'Create a dialogue, optionally with up to 25 messages',
        description: '`messages` are added first, in order, then `message` (D16).',
        tags,
        body: createDialogueBody,
        response: {
          201: dialogueWithMessagesSchema,
          ...errorResponses(
            400,
            401,
            403,
            'PARENT_DIALOGUE_NOT_FOUND',
            409,
            'DUPLICATE_ID',
            429,
            'PLAN_LIMIT_EXCEEDED',
          ),
        },
      },
    },
    async (request, reply) => {
      const { message: _message, messages: _messages, ...fields } = request.body;
      const messages = dialogueMessageInputs(request, request.body);
      return sendWrite(request, reply, 201, (tx) =>
        dialogues.create(tx, contextOf(request), { ...fields, messages }),
      );
    },
  );

  app.get(
    '/dialogue',
    {
      schema: {
        operationId: 'listDialogues',
        summary: 'List dialogues, newest first',
        description: 'Cursor-paged (`next`); filters by namespace, thread, status, tags and creation date.',
        tags,
        querystring: listDialoguesQuery,
        response: { 200: dialogueListSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => dialogues.list(contextOf(request), request.query),
  );

  app.get(
    '/dialogue/:id',
    {
      schema: {
        operationId: 'getDialogue',
        summary: 'Get a dialogue with its 10 most recent (or first) messages',
        description:
          'The full dialogue record with `messages`: the 10 newest, oldest first, or the first 10 with `messages=first`.',
        tags,
        params: dialogueParams,
        querystring: getDialogueQuery,
        response: {
          200: dialogueWithMessagesSchema,
          ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 429),
        },
      },
      preHandler: namespaceRule,
    },
    async (request) =>
      dialogues.get(contextOf(request), request.params.id, { messages: request.query.messages }),
  );

  app.get(
    '/dialogue/:id/context',
    {
      schema: {
        operationId: 'getDialogueContext',
        summary: 'What to send a model next: the summary, then the newest messages that fit a token budget',
        description:
          'D81: the summary first (when it fits), then the newest messages its summary does not cover, ' +
          'oldest first, never cut; `omittedMessages` counts the older ones left out and ' +
          '`fromMessageId` names the first included.',
        tags,
        params: dialogueParams,
        querystring: contextQuery,
        response: { 200: contextSchema, ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 429) },
      },
      preHandler: namespaceRule,
    },
    async (request) => {
      const { namespace: _namespace, ...budget } = request.query;
      return context.context(contextOf(request), request.params.id, budget);
    },
  );

  app.put(
    '/dialogue/:id',
    {
      schema: {
        operationId: 'updateDialogue',
        summary: 'Update tags, label or state, and append messages',
        description:
          'metadata, status, id, projectId, namespace and threadOf cannot be changed (400 INVALID_INPUT); ' +
          'an ended dialogue refuses the update (409 DIALOGUE_ENDED). `messages` holds the added messages.',
        tags,
        params: dialogueParams,
        querystring: dialogueNamespaceQuery,
        body: updateDialogueBody,
        response: {
          200: dialogueWithMessagesSchema,
          ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 409, 429),
        },
      },
      preHandler: namespaceRule,
    },
    async (request, reply) => {
      const { message: _message, messages: _messages, ...fields } = request.body;
      const messages = dialogueMessageInputs(request, request.body);
      return sendWrite(request, reply, 200, (tx) =>
        dialogues.update(tx, contextOf(request), request.params.id, { ...fields, messages }),
      );
    },
  );

  app.delete(
    '/dialogue/:id',
    {
      schema: {
        operationId: 'deleteDialogue',
        summary: 'Delete a dialogue and its messages permanently; its threads remain',
        description:
          'Everything derived from it (embeddings, summaries) is deleted too; child threads become standalone dialogues.',
        tags,
        params: dialogueParams,
        querystring: dialogueNamespaceQuery,
        response: {
          200: deletedDialogueSchema,
          ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 409, 429),
        },
      },
      preHandler: namespaceRule,
    },
    async (request, reply) =>
      sendWrite(request, reply, 200, (tx) => dialogues.remove(tx, contextOf(request), request.params.id)),
  );

  app.post(
    '/dialogue/:id/fork',
    {
      schema: {
        operationId: 'forkDialogue',
        summary: 'Fork a dialogue: a new dialogue holding copies of its messages up to one',
        description:
          'D160: the copies keep their content byte for byte and their `created`, under new ids; the ' +
          "fork shows `forkedFrom` and takes the original's namespace, tags and label unless given. " +
          'Deleting the original leaves the fork whole. An `upToMessageId` not in the dialogue is 404 ' +
          'MESSAGE_NOT_FOUND.',
        tags,
        params: dialogueParams,
        querystring: dialogueNamespaceQuery,
        body: forkDialogueBody,
        response: {
          201: dialogueSchema,
          ...errorResponses(
            400,
            401,
            403,
            'DIALOGUE_NOT_FOUND',
            'MESSAGE_NOT_FOUND',
            409,
            429,
            'PLAN_LIMIT_EXCEEDED',
          ),
        },
      },
      preHandler: namespaceRule,
    },
    async (request, reply) =>
      sendWrite(request, reply, 201, (tx) =>
        dialogues.fork(tx, contextOf(request), request.params.id, request.body),
      ),
  );

  refuseMissingPathParameter(app, ['PUT', 'DELETE'], '/dialogue', 'id');

  // D3: every action answers to PUT and POST, each documented with its own operationId.
  for (const method of ['PUT', 'POST'] as const) {
    const suffix = method === 'POST' ? 'Post' : '';

    // State is not an action, but answers to POST as well, so that no client meets INVALID_ACTION here.
    app.route({
      method,
      url: '/dialogue/:id/state',
      schema: {
        operationId: `updateDialogueState${suffix}`,
        summary: 'Merge the body into the dialogue state (JSON Merge Patch)',
        description: 'A null value removes the key. Works on ended dialogues (D20).',
        tags,
        params: dialogueParams,
        querystring: dialogueNamespaceQuery,
        body: stateBody,
        response: { 200: dialogueSchema, ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 409, 429) },
      },
      preHandler: namespaceRule,
      handler: async (request, reply) =>
        sendWrite(request, reply, 200, (tx) =>
          dialogues.updateState(tx, contextOf(request), request.params.id, request.body),
        ),
    });

    app.route({
      method,
      url: '/dialogue/:id/end',
      schema: {
        operationId: `endDialogue${suffix}`,
        summary: 'End a dialogue: it accepts no more messages (idempotent)',
        description: 'Ending an ended dialogue answers it again, unchanged.',
        tags,
        params: dialogueParams,
        querystring: dialogueNamespaceQuery,
        response: {
          200: dialogueSchema,
          ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 409, 'DIALOGUE_ENDED', 429),
        },
      },
      preHandler: namespaceRule,
      handler: async (request, reply) =>
        sendWrite(request, reply, 200, (tx) => dialogues.end(tx, contextOf(request), request.params.id)),
    });

    app.route({
      method,
      url: '/dialogue/:id/compact',
      schema: {
        operationId: `compactDialogue${suffix}`,
        summary: 'Summarize a dialogue and store the summary on it',
        description:
          'D22: `summary` covers every message (incrementally: the previous summary plus newer messages). ' +
          'Messages are kept. Written by the configured chat model, or offline by the extractive summarizer.',
        tags,
        params: dialogueParams,
        querystring: dialogueNamespaceQuery,
        response: {
          200: dialogueSchema,
          ...summarizingErrors,
        },
      },
      // A keyed retry of a compaction that succeeded is replayed before the model is called.
      preHandler: namespaceRule,
      handler: async (request, reply) =>
        sendStagedWrite(
          request,
          reply,
          { created: 200, existing: 200 },
          compaction.compact(contextOf(request), request.params.id),
        ),
    });

    app.route({
      method,
      url: '/dialogue/:id/continue',
      schema: {
        operationId: `continueDialogue${suffix}`,
        summary: 'Continue a dialogue in a new one that starts with its summary',
        description:
          'D21: compacts the dialogue, ends it, and creates a dialogue in the same namespace with the same tags, ' +
          '`metadata.continuedFrom`, and the summary as its first `system` message.',
        tags,
        params: dialogueParams,
        querystring: dialogueNamespaceQuery,
        response: {
          201: dialogueWithMessagesSchema,
          ...summarizingErrors,
        },
      },
      preHandler: namespaceRule,
      handler: async (request, reply) =>
        sendStagedWrite(
          request,
          reply,
          { created: 201, existing: 201 },
          compaction.continueDialogue(contextOf(request), request.params.id),
        ),
    });

    app.route({
      method,
      url: '/dialogue/:id/:action',
      schema: { hide: true, params: dialogueParams.extend({ action: z.string().max(255) }) },
      handler: async (request) => {
        throw new AppError(
          'INVALID_ACTION',
          `Unknown action "${request.params.action}": use end, compact or continue`,
          [{ field: 'action', code: 'INVALID_ACTION', message: 'must be end, compact or continue' }],
        );
      },
    });
  }
};
