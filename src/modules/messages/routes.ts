import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../core/error-envelope.js';
import { AppError } from '../../core/errors.js';
import { refuseMissingPathParameter } from '../../http/missing-path.js';
import { contextOf, sendWrite } from '../../http/writes.js';
import { messageInputAt } from '../../http/message-inputs.js';
import type { CreatedBatch, MessageLocator } from './service.js';
import {
  batchResponseSchema,
  createBatchBody,
  createMessageBody,
  deletedMessageSchema,
  dialogueMessageParams,
  dialogueMessagesQuery,
  listMessagesQuery,
  messageListSchema,
  messageParams,
  messageQuery,
  messageSchema,
  messageTargetQuery,
  namespaceQuery,
  updateTagsBody,
} from './schemas.js';

const tags = ['messages'];

/** The two routes that delete a message answer alike. */
const deleteErrors = errorResponses(
  400,
  401,
  403,
  'DIALOGUE_NOT_FOUND',
  'MESSAGE_NOT_FOUND',
  409,
  'DIALOGUE_IMMUTABLE',
  429,
);

interface DialogueTarget {
  dialogueId?: string;
  namespace?: string;
}

/**
 * D54, D55: the dialogue a message write goes to, named in the body or in the query (older
 * DialogueDB clients use the query); when both name one, they must agree.
 */
function targetOf(body: DialogueTarget, query: DialogueTarget): { dialogueId: string; namespace?: string } {
  for (const field of ['dialogueId', 'namespace'] as const) {
    const [inBody, inQuery] = [body[field], query[field]];
    if (inBody !== undefined && inQuery !== undefined && inBody !== inQuery) {
      const message = 'the body and the query name different values';
      throw new AppError('INVALID_PARAMETER', `${field}: ${message}`, [
        { field, code: 'INVALID_PARAMETER', message },
      ]);
    }
  }
  const dialogueId = body.dialogueId ?? query.dialogueId;
  if (dialogueId === undefined) {
    const message = 'Required, in the body or in the query';
    throw new AppError('MISSING_PARAMETER', `dialogueId: ${message}`, [
      { field: 'dialogueId', code: 'MISSING_PARAMETER', message },
    ]);
  }
  return { dialogueId, namespace: body.namespace ?? query.namespace };
}
const dialogueIdParams = dialogueMessageParams.pick({ dialogueId: true });

/** Message operations, and the dialogue-scoped aliases of D4. Rules live in the service. */
export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { messages } = app.services;
  // One handler for DELETE /message/{messageId}?dialogueId= and its dialogue-scoped alias (D4).
  const removeMessage = (request: FastifyRequest, reply: FastifyReply, locator: MessageLocator) =>
    sendWrite(request, reply, 200, (tx) => messages.remove(tx, contextOf(request), locator));

  app.post(
    '/message',
    {
      schema: {
        operationId: 'createMessage',
        summary: 'Add one message to a dialogue',
        description:
          "Content is stored and returned exactly as sent (D28). The dialogue's totalMessages, " +
          'lastMessageCreated and modified change in the same transaction (D35).',
        tags,
        querystring: messageTargetQuery,
        body: createMessageBody,
        response: {
          201: messageSchema,
          ...errorResponses(
            400,
            'MESSAGE_CONTENT_EMPTY',
            'MESSAGE_TOO_LARGE',
            401,
            403,
            'DIALOGUE_NOT_FOUND',
            409,
            'DIALOGUE_ENDED',
            'DIALOGUE_IMMUTABLE',
            'DIALOGUE_EXPIRED',
            'DUPLICATE_ID',
            429,
            'PLAN_LIMIT_EXCEEDED',
          ),
        },
      },
    },
    async (request, reply) => {
      const { dialogueId, namespace } = targetOf(request.body, request.query);
      const { dialogueId: _dialogueId, namespace: _namespace, ...fields } = request.body;
      const message = messageInputAt(request, fields, []);
      const ctx = contextOf(request);
      const input = { dialogueId, namespace, message };
      return sendWrite(
        request,
        reply,
        201,
        (tx) => messages.create(tx, ctx, input),
        (db, guards) => messages.createAlone(db, guards, ctx, input),
      );
    },
  );

  app.post(
    '/messages',
    {
      schema: {
        operationId: 'createMessages',
        summary: 'Add 1-100 messages to a dialogue, all or nothing',
        description:
          'If one message is invalid none is stored, and `details` names it (D31). The body is either ' +
          '`{dialogueId, namespace?, messages}`, answered with `{dialogueId, items, totalMessages}`, or a bare ' +
          'array of messages with `dialogueId` (and `namespace`) in the query, answered with a bare array of ' +
          'the stored messages (D55).',
        tags,
        querystring: messageTargetQuery,
        body: createBatchBody,
        response: {
          201: batchResponseSchema,
          ...errorResponses(
            400,
            'MESSAGE_CONTENT_EMPTY',
            'MESSAGE_TOO_LARGE',
            'TOO_MANY_MESSAGES',
            'INVALID_MESSAGE_ARRAY',
            'EMPTY_MESSAGE_ARRAY',
            401,
            403,
            'DIALOGUE_NOT_FOUND',
            409,
            'DIALOGUE_ENDED',
            'DIALOGUE_IMMUTABLE',
            'DIALOGUE_EXPIRED',
            'DUPLICATE_ID',
            429,
            'PLAN_LIMIT_EXCEEDED',
          ),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const bare = Array.isArray(body);
      const { dialogueId, namespace } = targetOf(bare ? {} : body, request.query);
      const items = (bare ? body : body.messages).map((message, index) =>
        messageInputAt(request, message, bare ? [index] : ['messages', index]),
      );
      const ctx = contextOf(request);
      const input = { dialogueId, namespace, messages: items, field: bare ? '' : 'messages' };
      // D55: a bare array is answered with a bare array.
      const shaped = (created: CreatedBatch | undefined) => (bare ? created?.items : created);
      return sendWrite(
        request,
        reply,
        201,
        async (tx) => shaped(await messages.createBatch(tx, ctx, input)),
        async (db, guards) => shaped(await messages.createBatchAlone(db, guards, ctx, input)),
      );
    },
  );

  app.get(
    '/messages',
    {
      schema: {
        operationId: 'listMessages',
        summary: 'List the messages of a dialogue, oldest first',
        description: 'Cursor-paged (`next`); `order=desc` gives the newest first.',
        tags,
        querystring: listMessagesQuery,
        response: { 200: messageListSchema, ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 429) },
      },
    },
    async (request) => messages.list(contextOf(request), request.query),
  );

  app.get(
    '/dialogue/:dialogueId/messages',
    {
      schema: {
        operationId: 'listDialogueMessages',
        summary: 'List the messages of a dialogue (same as GET /messages?dialogueId=)',
        description: 'The dialogue named in the path; cursor-paged like `GET /messages`.',
        tags,
        params: dialogueIdParams,
        querystring: dialogueMessagesQuery,
        response: { 200: messageListSchema, ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 429) },
      },
    },
    async (request) =>
      messages.list(contextOf(request), { ...request.query, dialogueId: request.params.dialogueId }),
  );

  app.get(
    '/message/:messageId',
    {
      schema: {
        operationId: 'getMessage',
        summary: 'Get one message',
        description:
          'The full message record; the dialogue is named by `dialogueId` (and `namespace` when it has one).',
        tags,
        params: messageParams,
        querystring: messageQuery,
        response: {
          200: messageSchema,
          ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 'MESSAGE_NOT_FOUND', 429),
        },
      },
    },
    async (request) => messages.get(contextOf(request), { ...request.query, ...request.params }),
  );

  app.put(
    '/message/:messageId',
    {
      schema: {
        operationId: 'updateMessageTags',
        summary: "Replace a message's tags (the only change a message accepts)",
        description: 'Content is immutable: only `tags` may be sent, and it replaces the list.',
        tags,
        params: messageParams,
        querystring: messageQuery,
        body: updateTagsBody,
        response: {
          200: messageSchema,
          ...errorResponses(400, 401, 403, 'DIALOGUE_NOT_FOUND', 'MESSAGE_NOT_FOUND', 409, 429),
        },
      },
    },
    async (request, reply) =>
      sendWrite(request, reply, 200, (tx) =>
        messages.updateTags(
          tx,
          contextOf(request),
          { ...request.query, ...request.params },
          request.body.tags,
        ),
      ),
  );

  app.delete(
    '/message/:messageId',
    {
      schema: {
        operationId: 'deleteMessage',
        summary: 'Delete one message permanently',
        description: "The message and its embedding leave the database; the dialogue's counters follow.",
        tags,
        params: messageParams,
        querystring: messageQuery,
        response: {
          200: deletedMessageSchema,
          ...deleteErrors,
        },
      },
    },
    async (request, reply) => removeMessage(request, reply, { ...request.query, ...request.params }),
  );

  refuseMissingPathParameter(app, ['GET', 'PUT', 'DELETE'], '/message', 'messageId');
  refuseMissingPathParameter(app, ['DELETE'], '/dialogue/:dialogueId/messages', 'messageId');

  app.delete(
    '/dialogue/:dialogueId/messages/:messageId',
    {
      schema: {
        operationId: 'deleteDialogueMessage',
        summary: 'Delete one message permanently (same as DELETE /message/{messageId}?dialogueId=)',
        description: 'The dialogue named in the path; otherwise as `DELETE /message/{messageId}`.',
        tags,
        params: dialogueMessageParams,
        querystring: namespaceQuery,
        response: {
          200: deletedMessageSchema,
          ...deleteErrors,
        },
      },
    },
    async (request, reply) => removeMessage(request, reply, { ...request.query, ...request.params }),
  );
};
