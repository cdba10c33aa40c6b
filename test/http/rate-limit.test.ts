import { REDIS_URL, redisReachable } from '../helpers/redis.js';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { rateLimitBucket } from '../../src/http/rate-limit.js';
import {
  ADMIN_TOKEN,
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';

const LIST = '/api/v1/dialogue';

function expectRateHeaders(
  response: LightMyRequestResponse,
  limit: number,
  remaining: number,
  window: number,
) {
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  // D43: a Unix time in seconds, within the window from now.
  const reset = Number(response.headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThanOrEqual(Math.floor(now));
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + window);
}

describe('rate limit (D43), in-memory store', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '30' });
  });
  afterAll(() => ctx.close());

  it('lets 5 requests through with {max: 5, windowSeconds: 60} and refuses the 6th with 429', async () => {
    const project = await createProject(ctx.app, { rateLimit: { max: 5, windowSeconds: 60 } });
    const call = asProject(ctx.app, project);
    for (let i = 1; i <= 5; i++) {
      const response = await call({ method: 'GET', url: LIST });
      expect(response.statusCode).toBe(200);
      expectRateHeaders(response, 5, 5 - i, 60);
    }
    const refused = await call({ method: 'GET', url: LIST });
    const error = expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(error.type).toBe('rate_limit_exceeded');
    expectRateHeaders(refused, 5, 0, 60);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Writes are refused too, before they reach the database.
    expectError(await call({ method: 'POST', url: LIST, payload: {} }), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('applies the server default (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_SECONDS) without a project setting', async () => {
    const call = asProject(ctx.app, await createProject(ctx.app));
    for (let i = 1; i <= 3; i++) expectRateHeaders(await call({ method: 'GET', url: LIST }), 3, 3 - i, 30);
    expectError(await call({ method: 'GET', url: LIST }), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('counts per API key: another key of the same project has its own budget', async () => {
    const project = await createProject(ctx.app, { rateLimit: { max: 1, windowSeconds: 60 } });
    expect((await asProject(ctx.app, project)({ method: 'GET', url: LIST })).statusCode).toBe(200);
    expectError(await asProject(ctx.app, project)({ method: 'GET', url: LIST }), 429, 'RATE_LIMIT_EXCEEDED');
    const created = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/projects/${project.projectId}/keys`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const { apiKey } = created.json() as { apiKey: string };
    const other = await ctx.app.inject({
      method: 'GET',
      url: LIST,
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(other.statusCode).toBe(200);
  });

  it('puts the headers on every authenticated response, errors included, and none on a 401', async () => {
    const call = asProject(
      ctx.app,
      await createProject(ctx.app, { rateLimit: { max: 10, windowSeconds: 60 } }),
    );
    const missing = await call({ method: 'GET', url: `${LIST}/dlg_missing` });
    expectError(missing, 404, 'DIALOGUE_NOT_FOUND');
    expectRateHeaders(missing, 10, 9, 60);
    const invalid = await call({
      method: 'POST',
      url: LIST,
      payload: '{"broken',
      headers: { 'content-type': 'application/json' },
    });
    expectError(invalid, 400, 'INVALID_INPUT');
    expectRateHeaders(invalid, 10, 8, 60);
    const unauthenticated = await ctx.app.inject({
      method: 'GET',
      url: LIST,
      headers: { authorization: 'Bearer nope-nope-nope' },
    });
    expectError(unauthenticated, 401, 'UNAUTHORIZED');
    expect(unauthenticated.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('starts a fresh count when a project changes its window', async () => {
    const project = await createProject(ctx.app, { rateLimit: { max: 1, windowSeconds: 60 } });
    const call = asProject(ctx.app, project);
    expect((await call({ method: 'GET', url: LIST })).statusCode).toBe(200);
    expectError(await call({ method: 'GET', url: LIST }), 429, 'RATE_LIMIT_EXCEEDED');
    await ctx.app.inject({
      method: 'PATCH',
      url: `/admin/v1/projects/${project.projectId}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { settings: { rateLimit: { max: 1, windowSeconds: 120 } } },
    });
    expectRateHeaders(await call({ method: 'GET', url: LIST }), 1, 0, 120);
  });

  it('lets requests through without headers when the Redis store is unreachable', async () => {
    const down = await createTestContext({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const response = await asProject(down.app, await createProject(down.app))({ method: 'GET', url: LIST });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      await down.close();
    }
  });
});

// Needs a Redis server (127.0.0.1:6379 here, TEST_REDIS_URL elsewhere); skipped where none runs.
describe.runIf(await redisReachable())('rate limit (D43) shared through Redis', () => {
  const prefix = `parley-test:${process.pid}:${Date.now().toString(36)}:`;
  const env = { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix };
  let ctx: TestContext;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let redis: Redis;

  beforeAll(async () => {
    ctx = await createTestContext(env);
    // A second instance of the service on the same database and the same Redis.
    second = await buildApp({
      config: configFrom({ ADMIN_TOKEN, EMBEDDINGS: 'none', ...env }),
      database: ctx.database.handle,
    });
    await second.ready();
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await second.close();
    await ctx.close();
  });

  it('shares one count between two instances', async () => {
    const project = await createProject(ctx.app, { rateLimit: { max: 5, windowSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? ctx.app : second;
      const response = await asProject(app, project)({ method: 'GET', url: LIST });
      statuses.push(response.statusCode);
      if (i < 5) expectRateHeaders(response, 5, 4 - i, 60);
      else expectError(response, 429, 'RATE_LIMIT_EXCEEDED');
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('keeps only a hash of the API key in Redis', async () => {
    const project = await createProject(ctx.app, { rateLimit: { max: 50, windowSeconds: 60 } });
    await asProject(second, project)({ method: 'GET', url: LIST });
    const keys = await redis.keys(`${prefix}*`);
    expect(keys).toContain(`${prefix}${rateLimitBucket(project.apiKey, 60)}`);
    for (const key of keys) expect(key).not.toContain(project.apiKey);
    expect(await redis.get(`${prefix}${rateLimitBucket(project.apiKey, 60)}`)).toBe('1');
  });
});
