import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../core/error-envelope.js';
import { contextOf, sendStagedWrite, sendWrite } from '../../http/writes.js';
import {
  createWebhookBody,
  deliveryAttemptSchema,
  deliveryListResponse,
  listDeliveriesQuery,
  replayBody,
  replayResponse,
  updateWebhookBody,
  webhookDeletedResponse,
  webhookListResponse,
  webhookParams,
  webhookSchema,
  webhookWithSecretSchema,
} from './schemas.js';

const tags = ['webhooks'];

/** D67: a project's webhook endpoints, their delivery log, test and replay. */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { webhooks } = app.services;

  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook endpoint (its secret is shown only here)',
        description:
          'D67-D69: events committed from now on are POSTed to the URL, signed per Standard Webhooks. The URL must be https:// and must not resolve to a private address (400 INVALID_PARAMETER); a project has at most 20 endpoints (409 RESOURCE_CONFLICT).',
        tags,
        body: createWebhookBody,
        response: { 201: webhookWithSecretSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      return sendStagedWrite(
        request,
        reply,
        { created: 201, existing: 201 },
        webhooks.stageCreate(ctx, request.body),
      );
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints',
        description: "The project's endpoints, without their signing secrets.",
        tags,
        response: { 200: webhookListResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => webhooks.list(contextOf(request)),
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhook',
        summary: 'Get a webhook endpoint',
        description: 'One endpoint, without its signing secret.',
        tags,
        params: webhookParams,
        response: { 200: webhookSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => webhooks.get(contextOf(request), request.params.id),
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        summary: 'Change a webhook endpoint: url, types, namespace, enabled',
        description: 'Fields left out keep their values.',
        tags,
        params: webhookParams,
        body: updateWebhookBody,
        response: { 200: webhookSchema, ...errorResponses(400, 401, 403, 404, 'RESOURCE_CONFLICT', 429) },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      return sendStagedWrite(
        request,
        reply,
        { created: 200, existing: 200 },
        webhooks.stageUpdate(ctx, request.params.id, request.body),
      );
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint, its pending deliveries and its log',
        description: 'Nothing more is sent to it from the next delivery on.',
        tags,
        params: webhookParams,
        response: {
          200: webhookDeletedResponse,
          ...errorResponses(400, 401, 403, 404, 'RESOURCE_CONFLICT', 429),
        },
      },
    },
    async (request, reply) =>
      sendWrite(request, reply, 200, (tx) => webhooks.remove(tx, contextOf(request), request.params.id)),
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Make a new signing secret (the previous one signs too for 24 h)',
        description:
          'Answers the new secret, shown this once; deliveries carry both signatures for 24 hours.',
        tags,
        params: webhookParams,
        response: {
          200: webhookWithSecretSchema,
          ...errorResponses(400, 401, 403, 404, 'RESOURCE_CONFLICT', 429),
        },
      },
    },
    async (request, reply) =>
      sendWrite(request, reply, 200, (tx) =>
        webhooks.rotateSecret(tx, contextOf(request), request.params.id),
      ),
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a webhook.test event to the endpoint',
        description: 'Queued at once whatever the endpoint types; the answer is the pending attempt.',
        tags,
        params: webhookParams,
        response: {
          202: deliveryAttemptSchema,
          ...errorResponses(400, 401, 403, 404, 'RESOURCE_CONFLICT', 429),
        },
      },
    },
    async (request, reply) =>
      sendWrite(request, reply, 202, (tx) => webhooks.sendTest(tx, contextOf(request), request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log of an endpoint: one item per attempt, newest first',
        description: 'Status, answer code and timing of each attempt; cursor-paged.',
        tags,
        params: webhookParams,
        querystring: listDeliveriesQuery,
        response: { 200: deliveryListResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => webhooks.listDeliveries(contextOf(request), request.params.id, request.query),
  );

  app.post(
    '/webhooks/:id/replay',
    {
      schema: {
        operationId: 'replayWebhook',
        summary: 'Send again the events after a seq',
        description:
          'D67: queues the kept events after `after` that the endpoint types and namespace select (at most 10,000 per call; `next` continues). 410 EVENTS_EXPIRED when they were pruned.',
        tags,
        params: webhookParams,
        body: replayBody,
        response: {
          202: replayResponse,
          ...errorResponses(400, 401, 403, 404, 410, 'RESOURCE_CONFLICT', 429),
        },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      return sendStagedWrite(
        request,
        reply,
        { created: 202, existing: 202 },
        webhooks.stageReplay(ctx, request.params.id, request.body.after),
      );
    },
  );
};
