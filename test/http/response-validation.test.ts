import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { errorResponses } from '../../src/core/error-envelope.js';
import { AppError } from '../../src/core/errors.js';
import { RawJson } from '../../src/core/raw-json.js';
import { guardProjectRoutes } from '../../src/http/protection.js';
import { sendWrite } from '../../src/http/writes.js';
import { messageSchema } from '../../src/modules/messages/schemas.js';
import { ADMIN_TOKEN, type TestProject, asProject, createProject, expectError } from '../helpers/app.js';
import { capturedLogger } from '../helpers/captured-logger.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';

// buildApp's `validateResponses` (on in every app of test/helpers/app.ts): a response that does
// not match the schema its route declares for the status is a 500, and the log says why. Off, the
// same responses go out unchecked, as in production.

const thing = z.object({ id: z.string(), count: z.number().int() });

const message = {
  id: 'msg-1',
  dialogueId: 'dlg_1',
  namespace: null,
  role: 'user' as const,
  content: new RawJson('{"b":1,"a":2}'),
  contentLength: 13,
  name: null,
  tags: [],
  metadata: null,
  created: '2025-01-01T00:00:00.000Z',
  modified: '2025-01-01T00:00:00.000Z',
};

/** Routes that answer what their schemas declare, and routes that do not. */
const testRoutes: FastifyPluginAsyncZod = async (app) => {
  guardProjectRoutes(app);
  const response = { 200: thing, 201: thing, ...errorResponses(400, 401, 404, 429) };
  app.get('/good', { schema: { response } }, async () => ({ id: 'a', count: 1 }));
  // The declared types are what the handler's author believed; the values are what it sends.
  app.get('/wrong-type', { schema: { response } }, async () => ({ id: 'a', count: 'one' }) as never);
  app.get('/missing-field', { schema: { response } }, async () => ({ id: 'a' }) as never);
  app.get('/undeclared-field', { schema: { response } }, async () => ({ id: 'a', count: 1, secret: 's' }));
  app.get('/not-found', { schema: { response } }, async () => {
    throw new AppError('RESOURCE_NOT_FOUND', 'No such thing');
  });
  app.get(
    '/message',
    // D82: the route declares its query parameter, or the request would be refused before it.
    {
      schema: { querystring: z.object({ parsed: z.string().optional() }), response: { 200: messageSchema } },
    },
    async (request) =>
      request.query.parsed === undefined ? message : { ...message, content: { b: 1, a: 2 } as never },
  );
  // A status the route does not declare: the OpenAPI document would not tell clients about it.
  app.get('/undeclared-status', { schema: { response } }, async () => {
    throw new AppError('RESOURCE_CONFLICT', 'Conflict');
  });
  app.get('/undeclared-success', { schema: { response } }, async (_request, reply) =>
    reply.code(202 as 200).send({ id: 'a', count: 1 }),
  );
  // An error status whose declared schema is not the envelope the error handler sends.
  app.get('/wrong-error-schema', { schema: { response: { 404: thing } } }, async () => {
    throw new AppError('RESOURCE_NOT_FOUND', 'No such thing');
  });
  // Writes are sent as JSON text (D36): they bypass the serializer and are checked before it.
  app.post('/write', { schema: { response } }, async (request, reply) =>
    sendWrite(request, reply, 201, async () => ({ id: 'w', count: 1 })),
  );
  app.post('/bad-write', { schema: { response } }, async (request, reply) =>
    sendWrite(request, reply, 201, async () => ({ id: 'w', count: 1.5 })),
  );
};

async function appWith(validateResponses: boolean | undefined, logger = capturedLogger()) {
  const database = await createTestDatabase();
  const config = configFrom({ ADMIN_TOKEN, EMBEDDINGS: 'none', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0' });
  const app = await buildApp({
    config,
    database: database.handle,
    logger: logger.logger,
    ...(validateResponses === undefined ? {} : { validateResponses }),
  });
  await app.register(testRoutes, { prefix: '/test' });
  await app.ready();
  return { app, database, log: logger.text };
}

describe('validateResponses on', () => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let log: () => string;
  let project: TestProject;

  beforeAll(async () => {
    ({ app, database, log } = await appWith(true));
    project = await createProject(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends responses that match their schema unchanged', async () => {
    const as = asProject(app, project);
    const good = await as({ method: 'GET', url: '/test/good' });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('{"id":"a","count":1}');
    // RawJson content is written out verbatim (D28), key order kept.
    const stored = await as({ method: 'GET', url: '/test/message' });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.body).toContain('"content":{"b":1,"a":2}');
    const written = await as({ method: 'POST', url: '/test/write', payload: {} });
    expect(written.statusCode, written.body).toBe(201);
    expect(written.json()).toEqual({ id: 'w', count: 1 });
    expectError(await as({ method: 'GET', url: '/test/not-found' }), 404, 'RESOURCE_NOT_FOUND');
    // Refusals before the handler are checked as well (401 is declared).
    expectError(await app.inject({ method: 'GET', url: '/test/good' }), 401, 'UNAUTHORIZED');
  });

  it.each([
    ['GET', '/test/wrong-type', 200, 'count: Invalid input: expected number, received string'],
    ['GET', '/test/missing-field', 200, 'count: Invalid input: expected number, received undefined'],
    ['GET', '/test/undeclared-field', 200, 'secret: not declared in the schema'],
    ['GET', '/test/message?parsed', 200, 'content: Invalid input'],
    ['POST', '/test/bad-write', 201, 'count: Invalid input: expected int, received number'],
    [
      'GET',
      '/test/undeclared-status',
      409,
      'status 409 is not among the declared responses (200, 201, 400, 401, 403, 404, 429, 503)',
    ],
    [
      'GET',
      '/test/undeclared-success',
      202,
      'status 202 is not among the declared responses (200, 201, 400, 401, 403, 404, 429, 503)',
    ],
  ] as const)(
    'answers %s %s with 500 naming the route, status and problem',
    async (method, url, status, problem) => {
      const response = await asProject(
        app,
        project,
      )({ method, url, payload: method === 'POST' ? {} : undefined });
      const error = expectError(response, 500, 'INTERNAL_ERROR');
      const route = `${method} ${url.split('?')[0]}`;
      expect(error.message).toBe(`Response ${status} of ${route} does not match its schema: ${problem}`);
      const logged = log()
        .split('\n')
        .filter((line) => line.includes(response.headers['x-request-id'] as string))
        .map((line) => JSON.parse(line) as { msg: string; err?: { type: string; message: string } });
      expect(logged.find((line) => line.msg === 'request failed')?.err).toMatchObject({
        type: 'ResponseValidationError',
        message: error.message,
      });
    },
  );

  it('stores nothing of a write whose response does not match its schema', async () => {
    const fresh = await createProject(app);
    const as = asProject(app, fresh);
    const bad = await as({
      method: 'POST',
      url: '/test/bad-write',
      payload: {},
      headers: { 'idempotency-key': 'k-1' },
    });
    expectError(bad, 500, 'INTERNAL_ERROR');
    // The write's transaction was rolled back: the key was not used, and no write was counted.
    const usage = await app.inject({
      method: 'GET',
      url: `/admin/v1/projects/${fresh.projectId}/usage`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(usage.json().writes).toBe(0);
  });

  it('checks error envelopes against the schema declared for their status', async () => {
    const response = await asProject(app, project)({ method: 'GET', url: '/test/wrong-error-schema' });
    const error = expectError(response, 500, 'INTERNAL_ERROR');
    expect(error.message).toMatch(
      /^Response 404 of GET \/test\/wrong-error-schema does not match its schema: id: Invalid input/,
    );
  });
});

describe('validateResponses off (the default)', () => {
  let app: FastifyInstance;
  let database: TestDatabase;

  beforeAll(async () => {
    ({ app, database } = await appWith(undefined));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends what the handlers return, unchecked', async () => {
    expect(app.responseCheck).toBeUndefined();
    const as = asProject(app, await createProject(app));
    const wrong = await as({ method: 'GET', url: '/test/wrong-type' });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).toBe('{"id":"a","count":"one"}');
    const badWrite = await as({ method: 'POST', url: '/test/bad-write', payload: {} });
    expect(badWrite.statusCode).toBe(201);
    expect(badWrite.body).toBe('{"id":"w","count":1.5}');
    expectError(await as({ method: 'GET', url: '/test/undeclared-status' }), 409, 'RESOURCE_CONFLICT');
  });
});
