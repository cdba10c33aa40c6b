import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typesOf } from '../../scripts/lib/client-schema.js';
import { type TestContext, createTestContext } from '../helpers/app.js';

// The document generates good clients. Types are generated with
// openapi-typescript from the live document, and a strictly typed program is compiled against them.

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  responses: Record<string, { description: string; content?: Record<string, { example?: Json }> }>;
}

let ctx: TestContext;
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } };

beforeAll(async () => {
  ctx = await createTestContext();
  doc = (await ctx.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
});
afterAll(() => ctx?.close());

const operations = () => Object.values(doc.paths).flatMap((item) => Object.values(item));

describe('OpenAPI document for client generators', () => {
  it('gives every response a real description', () => {
    for (const operation of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${operation.operationId} ${status}`).not.toBe('Default Response');
        expect(response.description.length).toBeGreaterThan(3);
      }
    }
  });

  it('gives each error status its own example, among the codes it lists, and 503 everywhere', () => {
    for (const operation of operations()) {
      expect(Object.keys(operation.responses), operation.operationId).toContain('503');
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const example = response.content?.['application/json']?.example as { error: { code: string } };
        const codes = [...response.description.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]);
        expect(codes.length, `${operation.operationId} ${status}`).toBeGreaterThan(0);
        expect(codes).toContain(example.error.code);
      }
    }
    const createMessage = doc.paths['/api/v1/message']!.post!.responses;
    expect(createMessage['401']!.content!['application/json']!.example).toMatchObject({
      error: { code: 'UNAUTHORIZED', type: 'authentication_error' },
    });
    expect(createMessage['429']!.content!['application/json']!.example).toMatchObject({
      error: { code: 'RATE_LIMIT_EXCEEDED', type: 'rate_limit_exceeded' },
    });
    expect(createMessage['404']!.description).toContain('`DIALOGUE_NOT_FOUND`');
    expect(createMessage['409']!.description).toContain('`DIALOGUE_ENDED`');
  });

  it('has each component once: no *Input twin of a schema that says the same', () => {
    const names = Object.keys(doc.components.schemas);
    const twins = names.filter((name) => name.endsWith('Input') && names.includes(name.slice(0, -5)));
    for (const twin of twins) {
      // Only a schema whose request form really differs (defaults) keeps both.
      expect(doc.components.schemas[twin]).not.toEqual(doc.components.schemas[twin.slice(0, -5)]);
    }
    expect(twins.length).toBeLessThanOrEqual(1);
    expect(names).toEqual(expect.arrayContaining(['Message', 'CreateMessageRequest', 'Error']));
  });

  it('leaves the admin section out when the admin API is off', async () => {
    const off = await createTestContext({ ADMIN_TOKEN: '' });
    try {
      const document = (await off.app.inject({ method: 'GET', url: '/.well-known/openapi.json' })).json();
      await SwaggerParser.validate(structuredClone(document));
      expect(Object.keys(document.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
      expect(document.components.schemas.Project).toBeUndefined();
      expect(document.components.schemas.ApiKey).toBeUndefined();
      expect(document.components.securitySchemes.adminToken).toBeUndefined();
      expect(document.tags.map((tag: { name: string }) => tag.name)).not.toContain('admin');
    } finally {
      await off.close();
    }
  });

  it('generates types that a strict program compiles against', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-types-'));
    try {
      await writeFile(join(dir, 'schema.d.ts'), await typesOf(doc as never));
      await writeFile(join(dir, 'program.ts'), program);
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      const run = promisify(execFile);
      const args = ['--strict', '--noEmit', '--exactOptionalPropertyTypes', '--target', 'es2022'];
      const good = await run(process.execPath, [
        tsc,
        ...args,
        '--module',
        'nodenext',
        join(dir, 'program.ts'),
      ]).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      expect(good.stdout).toBe('');
      // The types are not `any`: a wrong use fails to compile.
      await writeFile(join(dir, 'wrong.ts'), wrongProgram);
      const wrong = await run(process.execPath, [
        tsc,
        ...args,
        '--module',
        'nodenext',
        join(dir, 'wrong.ts'),
      ]).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      expect(wrong.stdout).toContain('wrong.ts(4,');
      expect(wrong.stdout).toContain('wrong.ts(5,');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

const program = `
import type { components, operations } from './schema.js';

type Message = components['schemas']['Message'];
type Content = Message['content'];
// Content is a string, an open object or an array of open objects.
const text: Content = 'hello';
const object: Content = { type: 'tool_result', value: 42, nested: { ok: true } };
const blocks: Content = [{ type: 'text', text: 'hi' }, { type: 'image', url: 'https://x' }];
const open: Record<string, unknown> | Record<string, unknown>[] | string = object;

// The error envelope, typed for an error status of an operation.
type NotFound = operations['getMessage']['responses'][404]['content']['application/json'];
const envelope: NotFound = {
  error: { code: 'MESSAGE_NOT_FOUND', message: 'm', type: 'not_found', requestId: 'r', timestamp: 't' },
};
const errorType: 'not_found' | 'conflict' | string = envelope.error.type;

// POST /messages accepts a bare array of messages (D55) and answers an array then.
type Batch = NonNullable<operations['createMessages']['requestBody']>['content']['application/json'];
const batch: Batch = [
  { role: 'user', content: 'Where is my order?' },
  { role: 'assistant', content: [{ type: 'text', text: 'It ships tomorrow.' }] },
];
type Created = operations['createMessages']['responses'][201]['content']['application/json'];
const created = (answer: Created): number => (Array.isArray(answer) ? answer.length : answer.items.length);

// Memory values and event data are open too.
type EventData = components['schemas']['Event']['data'];
const data: EventData = { id: 'msg_1', anything: [1, 2] };

export { text, blocks, open, errorType, batch, created, data };
`;

const wrongProgram = `
import type { components } from './schema.js';
type Message = components['schemas']['Message'];
const role: Message['role'] = 'narrator';
const content: Message['content'] = 42;
export { role, content };
`;

describe('OpenAPI document for linters', () => {
  // `npm run lint:openapi` runs Redocly CLI and Spectral; these are the rules they broke before.
  const walk = (value: unknown, visit: (node: Json, path: string) => void, path = '#'): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, visit, `${path}/${i}`);
    } else if (value && typeof value === 'object') {
      visit(value as Json, path);
      for (const [key, child] of Object.entries(value)) walk(child, visit, `${path}/${key}`);
    }
  };

  it('gives `nullable` a sibling `type` and never wraps a single schema in allOf', () => {
    const wrong: string[] = [];
    walk(doc, (node, path) => {
      if (node.nullable === true && node.type === undefined) wrong.push(`${path}: nullable without type`);
      if (Array.isArray(node.allOf) && node.allOf.length < 2) wrong.push(`${path}: allOf of one`);
    });
    expect(wrong).toEqual([]);
  });

  it('describes every operation, declares every tag it uses, and names its license and contact', () => {
    const full = doc as unknown as { tags: { name: string }[]; info: Json };
    const declared = new Set(full.tags.map((tag) => tag.name));
    for (const operation of operations() as (Operation & { description?: string; tags?: string[] })[]) {
      expect(operation.description?.length, operation.operationId).toBeGreaterThan(10);
      for (const tag of operation.tags ?? []) expect(declared, operation.operationId).toContain(tag);
    }
    expect(full.info.license).toEqual({ name: 'MIT', url: 'https://opensource.org/licenses/MIT' });
    expect(full.info.contact).toMatchObject({ name: expect.any(String) });
  });
});
