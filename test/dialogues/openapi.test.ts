import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../helpers/app.js';

// Every dialogue and message operation is in the OpenAPI document with its schemas, its error
// responses and an example body (D3, D4).

let ctx: TestContext;
let doc: {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { example?: unknown }> };
};

interface Operation {
  operationId: string;
  requestBody?: { content: { 'application/json': { schema: { $ref?: string; example?: unknown } } } };
  responses: Record<string, unknown>;
}

beforeAll(async () => {
  ctx = await createTestContext();
  doc = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
});
afterAll(() => ctx.close());

const OPERATIONS: [string, string, string, number[]][] = [
  ['post', '/api/v1/dialogue', 'createDialogue', [201, 400, 404]],
  ['get', '/api/v1/dialogue', 'listDialogues', [200, 400]],
  ['get', '/api/v1/dialogue/{id}', 'getDialogue', [200, 400, 404]],
  ['put', '/api/v1/dialogue/{id}', 'updateDialogue', [200, 400, 404, 409]],
  ['delete', '/api/v1/dialogue/{id}', 'deleteDialogue', [200, 400, 404, 409]],
  ['put', '/api/v1/dialogue/{id}/state', 'updateDialogueState', [200, 400, 404]],
  ['post', '/api/v1/dialogue/{id}/state', 'updateDialogueStatePost', [200, 400, 404]],
  ['put', '/api/v1/dialogue/{id}/end', 'endDialogue', [200, 404]],
  ['post', '/api/v1/dialogue/{id}/end', 'endDialoguePost', [200, 404]],
  ['put', '/api/v1/dialogue/{id}/compact', 'compactDialogue', [200, 404, 409, 502, 504]],
  ['post', '/api/v1/dialogue/{id}/compact', 'compactDialoguePost', [200, 404, 409, 502, 504]],
  ['put', '/api/v1/dialogue/{id}/continue', 'continueDialogue', [201, 404, 409, 502, 504]],
  ['post', '/api/v1/dialogue/{id}/continue', 'continueDialoguePost', [201, 404, 409, 502, 504]],
  ['post', '/api/v1/message', 'createMessage', [201, 400, 404, 409]],
  ['post', '/api/v1/messages', 'createMessages', [201, 400, 404, 409]],
  ['get', '/api/v1/messages', 'listMessages', [200, 400, 404]],
  ['get', '/api/v1/dialogue/{dialogueId}/messages', 'listDialogueMessages', [200, 400, 404]],
  ['get', '/api/v1/message/{messageId}', 'getMessage', [200, 400, 404]],
  ['put', '/api/v1/message/{messageId}', 'updateMessageTags', [200, 400, 404, 409]],
  ['delete', '/api/v1/message/{messageId}', 'deleteMessage', [200, 400, 404, 409]],
  ['delete', '/api/v1/dialogue/{dialogueId}/messages/{messageId}', 'deleteDialogueMessage', [200, 404, 409]],
];

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.0.3', async () => {
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  it('documents every dialogue and message operation with its responses', () => {
    for (const [method, path, operationId, statuses] of OPERATIONS) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation!.operationId).toBe(operationId);
      for (const status of [...statuses, 401])
        expect(operation!.responses, `${operationId} ${status}`).toHaveProperty(String(status));
    }
  });

  it('gives every request body an example', () => {
    for (const [method, path, operationId] of OPERATIONS) {
      const body = doc.paths[path]?.[method]?.requestBody;
      if (!body) continue;
      const schema = body.content['application/json'].schema;
      const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
      expect(resolved?.example, operationId).toBeDefined();
    }
  });

  it('leaves the unversioned aliases and the unknown-action route out', () => {
    expect(
      Object.keys(doc.paths).filter((path) => path.startsWith('/api/') && !path.startsWith('/api/v1/')),
    ).toEqual([]);
    expect(doc.paths).not.toHaveProperty('/api/v1/dialogue/{id}/{action}');
  });
});
