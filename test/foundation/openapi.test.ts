import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../helpers/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

type Operation = { operationId?: string; responses?: Record<string, unknown>; security?: unknown[] };

describe('OpenAPI document (D2)', () => {
  it('is valid OpenAPI 3.0.3, served without auth', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.0.3');
    await SwaggerParser.validate(structuredClone(document));
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.Error).toBeDefined();
  });

  it('gives every operation a unique operationId and leaves the /api aliases out (D1)', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
    const ids: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      expect(path.startsWith('/api/v1/') || path.startsWith('/admin/v1/')).toBe(true);
      for (const operation of Object.values(item)) {
        expect(operation.operationId).toBeTruthy();
        ids.push(operation.operationId!);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares 409 on every project write: any of them may meet a reused Idempotency-Key (D36)', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
    const undeclared: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        // POST /search reads: it takes no Idempotency-Key.
        if (!['post', 'put', 'patch', 'delete'].includes(method) || operation.operationId === 'search')
          continue;
        if (!operation.responses?.['409']) undeclared.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('renders /docs for people, from the same document', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/.well-known/openapi.json');
    const script = await ctx.app.inject({ method: 'GET', url: '/docs/ui/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
  });
});
