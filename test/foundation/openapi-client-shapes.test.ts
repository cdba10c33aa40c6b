import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../helpers/app.js';

// The OpenAPI document describes the request and response shapes added for the DialogueDB client
// (D53-D58): generated from the same zod schemas that validate the requests.

type Schema = Record<string, unknown> & {
  $ref?: string;
  properties?: Record<string, Schema>;
  oneOf?: Schema[];
  anyOf?: Schema[];
  type?: string;
};
interface Parameter {
  in: string;
  name: string;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { content?: { 'application/json': { schema: Schema } } }>;
}

let ctx: TestContext;
let doc: {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

beforeAll(async () => {
  ctx = await createTestContext();
  doc = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
});
afterAll(() => ctx.close());

const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()!]!) : schema;
const operation = (method: string, path: string) => doc.paths[`/api/v1${path}`]![method]!;
const bodyOf = (method: string, path: string) =>
  resolve(operation(method, path).requestBody!.content['application/json'].schema);
const queryOf = (method: string, path: string) =>
  (operation(method, path).parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);

describe('OpenAPI: the DialogueDB client shapes', () => {
  it('is a valid OpenAPI document', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('gives POST /messages a oneOf body (object or bare array) and a oneOf answer (D55)', () => {
    const body = bodyOf('post', '/messages');
    expect(body.oneOf?.map((member) => resolve(member).type)).toEqual(['object', 'array']);
    const answer = resolve(
      operation('post', '/messages').responses['201']!.content!['application/json'].schema,
    );
    expect(answer.oneOf?.map((member) => resolve(member).type)).toEqual(['object', 'array']);
    expect(queryOf('post', '/messages')).toEqual(expect.arrayContaining(['dialogueId', 'namespace']));
  });

  it('lets POST /message name its dialogue in the query (D54)', () => {
    expect(queryOf('post', '/message')).toEqual(expect.arrayContaining(['dialogueId', 'namespace']));
  });

  it('documents the client id and created of POST /dialogue and the body id/namespace of PUT (D57a, D53)', () => {
    expect(Object.keys(bodyOf('post', '/dialogue').properties!)).toEqual(
      expect.arrayContaining(['id', 'created']),
    );
    expect(Object.keys(bodyOf('put', '/dialogue/{id}').properties!)).toEqual(
      expect.arrayContaining(['id', 'namespace']),
    );
  });

  it('documents ?namespace= on every route with a dialogue in its path (D53)', () => {
    for (const [method, path] of [
      ['get', '/dialogue/{id}'],
      ['put', '/dialogue/{id}'],
      ['delete', '/dialogue/{id}'],
      ['put', '/dialogue/{id}/state'],
      ['post', '/dialogue/{id}/state'],
      ['put', '/dialogue/{id}/end'],
      ['post', '/dialogue/{id}/end'],
      ['post', '/dialogue/{id}/compact'],
      ['post', '/dialogue/{id}/continue'],
    ] as const) {
      expect(queryOf(method, path), `${method} ${path}`).toContain('namespace');
    }
  });

  it('describes the memory value as any JSON type, with description and client id (D57)', () => {
    const memory = resolve(doc.components.schemas.Memory!);
    expect(memory.properties!.value!.anyOf?.map((member) => member.type)).toEqual([
      'string',
      'number',
      'boolean',
      'object',
      'array',
    ]);
    expect(memory.properties).toHaveProperty('description');
    const create = bodyOf('post', '/memory');
    expect(Object.keys(create.properties!)).toEqual(expect.arrayContaining(['id', 'value', 'description']));
    const value = create.properties!.value!;
    expect((value.anyOf ?? value.oneOf)?.map((member) => member.type)).toEqual([
      'string',
      'number',
      'boolean',
      'object',
      'array',
    ]);
  });

  it('documents created, startDate and endDate on the three lists (D58)', () => {
    for (const path of ['/dialogue', '/messages', '/memory', '/dialogue/{dialogueId}/messages']) {
      expect(queryOf('get', path), path).toEqual(expect.arrayContaining(['created', 'startDate', 'endDate']));
    }
  });
});
