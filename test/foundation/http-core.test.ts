import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, createTestContext, expectError } from '../helpers/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ BODY_LIMIT_BYTES: '1024' });
});
afterAll(async () => ctx?.close());

const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

describe('HTTP core (D11-D13)', () => {
  it('answers unknown routes with RESOURCE_NOT_FOUND', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    const error = expectError(response, 404, 'RESOURCE_NOT_FOUND');
    expect(error.type).toBe('not_found');
  });

  it('answers a known path called with a method it lacks with 405 and Allow (D84)', async () => {
    const patch = await ctx.app.inject({ method: 'PATCH', url: '/api/v1/dialogue/dlg_123' });
    const error = expectError(patch, 405, 'METHOD_NOT_ALLOWED');
    expect(error.type).toBe('validation_error');
    expect(patch.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    expect(error.message).toContain('PATCH');

    const putOnCollection = await ctx.app.inject({ method: 'PUT', url: '/api/v1/messages?dialogueId=x' });
    expectError(putOnCollection, 405, 'METHOD_NOT_ALLOWED');
    expect(putOnCollection.headers.allow).toBe('GET, HEAD, POST');

    // A trailing slash names the same path (ignoreTrailingSlash), as for the route itself.
    const trailing = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/search/' });
    expectError(trailing, 405, 'METHOD_NOT_ALLOWED');
    expect(trailing.headers.allow).toBe('POST');

    // A path no route has stays 404, whatever the method.
    expectError(
      await ctx.app.inject({ method: 'PATCH', url: '/api/v1/nothing-here' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('points GET / at the documentation (D84)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'parley',
      docs: '/docs',
      openapi: '/.well-known/openapi.json',
      api: '/api/v1',
      mcp: '/mcp/v1',
    });
    const docs = await ctx.app.inject({ method: 'GET', url: response.json().docs });
    expect(docs.statusCode).toBe(200);
  });

  it('sets X-Request-Id on every response and echoes a safe client id', async () => {
    const own = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'client-id_123' },
    });
    expect(own.headers['x-request-id']).toBe('client-id_123');
    const generated = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(generated.headers['x-request-id']).toMatch(/^req_/);
    const unsafe = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id <script>' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(/^req_/);
    const tooLong = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'a'.repeat(129) },
    });
    expect(tooLong.headers['x-request-id']).toMatch(/^req_/);
  });

  it('refuses malformed JSON with INVALID_INPUT', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/projects',
      headers: adminHeaders,
      payload: '{"name":',
    });
    expectError(response, 400, 'INVALID_INPUT');
  });

  it('refuses a non-object body with INVALID_INPUT and a missing body with MISSING_PARAMETER', async () => {
    for (const payload of ['[1,2]', '"text"', '42']) {
      expectError(
        await ctx.app.inject({ method: 'POST', url: '/admin/v1/projects', headers: adminHeaders, payload }),
        400,
        'INVALID_INPUT',
      );
    }
    expectError(
      await ctx.app.inject({ method: 'POST', url: '/admin/v1/projects', headers: adminHeaders, payload: '' }),
      400,
      'MISSING_PARAMETER',
    );
  });

  it('refuses bodies over BODY_LIMIT_BYTES with 413 REQUEST_TOO_LARGE', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(2000) });
    const error = expectError(
      await ctx.app.inject({ method: 'POST', url: '/admin/v1/projects', headers: adminHeaders, payload }),
      413,
      'REQUEST_TOO_LARGE',
    );
    expect(error.type).toBe('validation_error');
    // The limit is stated, in human terms and exactly.
    expect(error.message).toBe('The request body exceeds the limit of 1 KiB (1024 bytes)');
  });

  it('says where a malformed JSON body fails and what was expected', async () => {
    const cases = [
      ['{\n  "name": "x",\n  "settings": \n}', 'value expected at line 4, column 1 (position 32), found "}"'],
      ['{"name": "x",}', 'property name expected at line 1, column 14 (position 13), found "}"'],
      ['{"name" "x"}', 'colon expected at line 1, column 9 (position 8), found "\\"x\\""'],
      ['{"name": "x"', 'close brace expected at line 1, column 13 (position 12), found the end of the body'],
    ];
    for (const [payload, where] of cases) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/projects',
        headers: adminHeaders,
        payload,
      });
      const error = expectError(response, 400, 'INVALID_INPUT');
      expect(error.message).toBe(`The request body is not valid JSON: ${where}`);
    }
  });

  it('refuses media types other than JSON with 415 (text/plain is JSON, D52)', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/projects',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'name=x',
    });
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses JSON nested too deeply', async () => {
    const payload = `{"name":"x","settings":${'['.repeat(200)}${']'.repeat(200)}}`;
    expectError(
      await ctx.app.inject({ method: 'POST', url: '/admin/v1/projects', headers: adminHeaders, payload }),
      400,
      'INVALID_INPUT',
    );
  });

  it('serves liveness, readiness and metrics', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('parley_http_requests_total{method="GET",route="/healthz",status="200"}');
    expect(metrics.body).toContain('parley_process_cpu_seconds_total');
  });
});
