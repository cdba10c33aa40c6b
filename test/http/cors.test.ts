import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestProject, createProject, createTestContext } from '../helpers/app.js';

// CORS for browser pages: off by default, and with CORS_ORIGINS only the listed origins.

describe('CORS', () => {
  describe('with CORS_ORIGINS', () => {
    let ctx: TestContext;
    let project: TestProject;
    beforeAll(async () => {
      ctx = await createTestContext({ CORS_ORIGINS: 'https://app.example.com,http://localhost:5173' });
      project = await createProject(ctx.app);
    });
    afterAll(() => ctx.close());

    it('answers a preflight from a listed origin without a key, allowing the headers a client sends', async () => {
      const response = await ctx.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/message',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, idempotency-key',
        },
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
      const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
      for (const header of ['authorization', 'content-type', 'idempotency-key'])
        expect(allowed).toContain(header);
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('lets a page read the request id and the retry headers of an answer', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/dialogue',
        headers: { origin: 'http://localhost:5173', ...project.auth },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      const exposed = String(response.headers['access-control-expose-headers']).toLowerCase();
      for (const header of ['x-request-id', 'retry-after', 'x-ratelimit-remaining'])
        expect(exposed).toContain(header);
    });

    it('gives an origin that is not listed no CORS headers', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/dialogue',
        headers: { origin: 'https://evil.example', ...project.auth },
      });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('by default', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext();
    });
    afterAll(() => ctx.close());

    it('sends no CORS headers, to a preflight or a request', async () => {
      const preflight = await ctx.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/message',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.statusCode).not.toBe(204);
    });
  });
});
