import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMIN_TOKEN_MIN_LENGTH } from '../../config.js';
import { errorResponses } from '../../core/error-envelope.js';
import { AppError } from '../../core/errors.js';
import { refuseCredential } from '../../http/auth.js';
import { timingSafeEqualStrings } from '../../lib/timing-safe.js';
import {
  apiKeyListResponse,
  createProjectBody,
  createProjectResponse,
  createdKeySchema,
  eraseProjectQuery,
  erasureIdParams,
  keyParams,
  projectIdParams,
  projectErasureRecordSchema,
  projectErasureResponse,
  projectListResponse,
  projectSchema,
  revokeKeyByValueBody,
  revokedKeyByValueResponse,
  revokedKeyResponse,
  updateProjectBody,
  usageResponse,
} from './schemas.js';
import { previewRetentionBody, retentionPreviewSchema } from '../retention/schemas.js';

const tags = ['admin'];
const security = [{ adminToken: [] }];

/**
 * D7: without ADMIN_TOKEN the admin API does not exist: every path under it answers 404, but with
 * a message that says how to turn it on rather than "No route" (docs/api-decisions.md).
 */
export const adminApiOff: FastifyPluginAsync = async (app) => {
  const off = async () => {
    throw new AppError(
      'RESOURCE_NOT_FOUND',
      `The admin API is off: set ADMIN_TOKEN (at least ${ADMIN_TOKEN_MIN_LENGTH} characters) and restart the server`,
    );
  };
  app.all('/', { schema: { hide: true } }, off);
  app.all('/*', { schema: { hide: true } }, off);
};

/**
 * D7: the admin API, authorized by ADMIN_TOKEN. Without a token configured it does not exist
 * (adminApiOff answers instead). D76: wrong tokens are limited per address
 * (ADMIN_AUTH_FAILURE_LIMIT a minute, then 429); the right one is never held back.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ adminToken: string }> = async (app, { adminToken }) => {
  const { projects, usage, retention } = app.services;

  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!timingSafeEqualStrings(token, adminToken)) {
      await refuseCredential(request, reply, 'admin-token', 'A valid admin token is required');
    }
  });

  app.post(
    '/projects',
    {
      schema: {
        operationId: 'adminCreateProject',
        summary: 'Create a project and its first API key',
        description: 'Answers the project and its first API key; the key is shown this once and never again.',
        tags,
        security,
        body: createProjectBody,
        response: { 201: createProjectResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { project, apiKey, keyId } = await projects.createProject(
        request.body.name,
        request.body.settings,
      );
      return reply.code(201).send({ project, apiKey, keyId });
    },
  );

  app.get(
    '/projects',
    {
      schema: {
        operationId: 'adminListProjects',
        summary: 'List projects',
        description: 'Every project of the server, with its settings.',
        tags,
        security,
        response: { 200: projectListResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async () => ({ items: await projects.listProjects() }),
  );

  app.get(
    '/projects/:id',
    {
      schema: {
        operationId: 'adminGetProject',
        summary: 'Get a project',
        description: 'One project with its settings; an unknown id is 404 `PROJECT_NOT_FOUND`.',
        tags,
        security,
        params: projectIdParams,
        response: { 200: projectSchema, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request) => projects.getProject(request.params.id),
  );

  app.patch(
    '/projects/:id',
    {
      schema: {
        operationId: 'adminUpdateProject',
        summary: 'Rename a project or change its settings (merged into the stored ones)',
        description: 'Given settings are merged into the stored ones; settings left out keep their values.',
        tags,
        security,
        params: projectIdParams,
        body: updateProjectBody,
        response: { 200: projectSchema, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request) => projects.updateProject(request.params.id, request.body),
  );

  app.post(
    '/projects/:id/keys',
    {
      schema: {
        operationId: 'adminCreateKey',
        summary: 'Create another API key for a project',
        description: "Answers the new key, shown this once; the project's other keys keep working.",
        tags,
        security,
        params: projectIdParams,
        response: { 201: createdKeySchema, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await projects.createKey(request.params.id)),
  );

  app.get(
    '/projects/:id/keys',
    {
      schema: {
        operationId: 'adminListKeys',
        summary: "List a project's API keys, revoked ones included (D83)",
        description: 'Never the keys themselves: their id, first characters and dates.',
        tags,
        security,
        params: projectIdParams,
        response: { 200: apiKeyListResponse, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request) => ({ items: await projects.listKeys(request.params.id) }),
  );

  app.delete(
    '/projects/:id/keys/:keyId',
    {
      schema: {
        operationId: 'adminRevokeKey',
        summary: 'Revoke an API key at once',
        description:
          'The key is refused from the next request on; the project and its other keys are untouched.',
        tags,
        security,
        params: keyParams,
        response: {
          200: revokedKeyResponse,
          ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 'API_KEY_NOT_FOUND', 429),
        },
      },
    },
    async (request) => projects.revokeKey(request.params.id, request.params.keyId),
  );

  // D83: revoking by the key itself, sent in the body: a key in a URL would be written to logs.
  app.post(
    '/keys/revoke',
    {
      schema: {
        operationId: 'adminRevokeKeyByValue',
        summary: 'Revoke an API key given by its value, whichever project it belongs to (D83)',
        description:
          'For a key found where it should not be: give the full key, its project need not be known.',
        tags,
        security,
        body: revokeKeyByValueBody,
        response: { 200: revokedKeyByValueResponse, ...errorResponses(400, 401, 'API_KEY_NOT_FOUND', 429) },
      },
    },
    async (request) => projects.revokeKeyByValue(request.body.apiKey),
  );

  app.get(
    '/projects/:id/usage',
    {
      schema: {
        operationId: 'adminGetUsage',
        summary: "This month's write counters of a project (D44)",
        description: 'The counts of writes the project made this calendar month (UTC), against its quotas.',
        tags,
        security,
        params: projectIdParams,
        response: { 200: usageResponse, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request) => {
      const project = await projects.getProject(request.params.id);
      return usage.currentUsage(project.id, project.settings.monthlyWriteQuota);
    },
  );

  // --- data lifecycle (D150-D154) ---
  app.get(
    '/projects/:id/retention/preview',
    {
      schema: {
        operationId: 'adminPreviewRetention',
        summary: "What the project's retention policy and expiries would delete now (D151)",
        description:
          'Per rule: how many objects the sweep would erase if it ran now, with the earliest and latest ' +
          'of the times the rule reads. Deletes nothing.',
        tags,
        security,
        params: projectIdParams,
        response: { 200: retentionPreviewSchema, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request) => retention.preview(request.params.id),
  );

  app.post(
    '/projects/:id/retention/preview',
    {
      schema: {
        operationId: 'adminPreviewProposedRetention',
        summary: 'What a proposed retention policy would delete now, before it is stored (D151)',
        description:
          'As the GET, for the policy given instead of the stored one (null rules are absent). ' +
          'Deletes nothing and stores nothing.',
        tags,
        security,
        params: projectIdParams,
        body: previewRetentionBody,
        response: { 200: retentionPreviewSchema, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request) => retention.preview(request.params.id, request.body.retention),
  );
  // --- end data lifecycle ---

  app.delete(
    '/projects/:id',
    {
      schema: {
        operationId: 'adminEraseProject',
        summary: 'Erase a project: revoke its keys, then delete all its data (D74)',
        description:
          'Cannot be undone. `confirm` must repeat the id. Answers once nothing of the project is ' +
          'left, with the rows removed per table and the erasure record (D166), which outlives the ' +
          'project: `GET /admin/v1/erasures/{id}` reads it again. A retry after the erasure answers ' +
          'the same record; a request while another one runs the erasure answers it as it stands ' +
          '(`success` false, `status` pending).',
        tags,
        security,
        params: projectIdParams,
        querystring: eraseProjectQuery,
        response: { 200: projectErasureResponse, ...errorResponses(400, 401, 'PROJECT_NOT_FOUND', 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (request.query.confirm !== id) {
        throw new AppError('INVALID_PARAMETER', 'confirm must repeat the project id', [
          { field: 'confirm', code: 'INVALID_PARAMETER', message: 'must equal the project id' },
        ]);
      }
      return projects.eraseProject(id);
    },
  );

  app.get(
    '/erasures/:id',
    {
      schema: {
        operationId: 'adminGetProjectErasure',
        summary: "A project erasure's record: its status and what it removed (D166)",
        description:
          'The record outlives the project it erased. `status` is `pending` while an erasure runs ' +
          '(or waits to be resumed after a crash) and `completed` once nothing of the project is ' +
          'left; `counts` and `rows` say what was removed. An unknown id answers 404.',
        tags,
        security,
        params: erasureIdParams,
        response: {
          200: projectErasureRecordSchema,
          ...errorResponses(400, 401, 'RESOURCE_NOT_FOUND', 429),
        },
      },
    },
    async (request) => projects.getErasure(request.params.id),
  );
};
