import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { rowsOf } from '../../src/db/client.js';
import { errorCodes } from '../../src/core/errors.js';
import { D42_TOOL_NAMES } from './mcp.js';

// Hostile input for every route of the app: the route list comes from the app's own OpenAPI
// document (every documented route, so routes that land later are covered without a change
// here), plus the routes it leaves out (D1 aliases, health, docs, MCP) and unknown ones.

type JsonSchema = {
  $ref?: string;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
};

export interface RouteShape {
  method: string;
  /** Path template with `{param}` placeholders. */
  path: string;
  params: string[];
  query: string[];
  /** Top-level body properties and their schemas, when the route takes a JSON body. */
  body?: Record<string, JsonSchema>;
  required: string[];
  admin: boolean;
  /** Its 200 is a server-sent event stream (D66), which never ends by itself. */
  eventStream?: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Resolves $ref and single-entry allOf, down through properties and items (a few levels). */
function resolver(doc: { components?: { schemas?: Record<string, JsonSchema> } }) {
  const resolve = (schema: JsonSchema | undefined, depth = 0): JsonSchema | undefined => {
    if (!schema || depth > 8) return undefined;
    if (schema.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!], depth + 1);
    if (schema.allOf?.length === 1) return resolve(schema.allOf[0], depth + 1);
    if (schema.anyOf)
      return resolve(
        schema.anyOf.find((option) => option.type !== 'null'),
        depth + 1,
      );
    return {
      ...schema,
      properties: schema.properties
        ? Object.fromEntries(
            Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, depth + 1) ?? {}]),
          )
        : undefined,
      items: resolve(schema.items, depth + 1),
    };
  };
  return resolve;
}

const str = { type: 'string' };
const obj = { type: 'object' };
/** JSON-RPC messages for /mcp/v1: D42's tools with arguments named like the REST fields. */
const jsonRpcShape: Record<string, JsonSchema> = {
  jsonrpc: { enum: ['2.0'] },
  id: { type: 'integer' },
  method: {
    enum: ['initialize', 'tools/list', 'tools/call', 'ping', 'resources/list', 'notifications/initialized'],
  },
  params: {
    type: 'object',
    properties: {
      protocolVersion: { enum: ['2025-06-18', '2025-03-26'] },
      capabilities: obj,
      clientInfo: { type: 'object', properties: { name: str, version: str } },
      name: { enum: D42_TOOL_NAMES },
      arguments: {
        type: 'object',
        properties: Object.fromEntries(
          [
            'dialogueId',
            'id',
            'namespace',
            'label',
            'value',
            'query',
            'object',
            'content',
            'role',
            'next',
          ].map((name) => [name, str]),
        ),
      },
    },
  },
};

/** Every route of the app, from its OpenAPI document, plus the hidden and unknown ones. */
export function routesOf(app: FastifyInstance): RouteShape[] {
  const doc = app.swagger() as unknown as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components?: { schemas?: Record<string, JsonSchema> };
  };
  const resolve = resolver(doc);
  const routes: RouteShape[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.includes(method.toUpperCase())) continue;
      const parameters = (operation.parameters ?? []) as { in: string; name: string }[];
      const content = (
        operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined
      )?.content?.['application/json']?.schema;
      const body = resolve(content);
      const route: RouteShape = {
        method: method.toUpperCase(),
        path,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: body ? (body.properties ?? {}) : undefined,
        required: body?.required ?? [],
        admin: path.startsWith('/admin/'),
        eventStream:
          (operation.responses as Record<string, { content?: Record<string, unknown> }> | undefined)?.['200']
            ?.content?.['text/event-stream'] !== undefined,
      };
      routes.push(route);
      // D1: the unversioned alias of every REST route.
      if (path.startsWith('/api/v1/')) routes.push({ ...route, path: path.replace('/api/v1/', '/api/') });
    }
  }
  const bare = { params: [], query: [], required: [], admin: false };
  for (const path of ['/healthz', '/readyz', '/metrics', '/docs', '/.well-known/openapi.json', '/mcp/v1']) {
    routes.push({ ...bare, method: 'GET', path });
  }
  routes.push({ ...bare, method: 'POST', path: '/mcp/v1', body: jsonRpcShape });
  routes.push({ ...bare, method: 'GET', path: '/api/v1/{id}', params: ['id'] });
  routes.push({ ...bare, method: 'POST', path: '/no/such/{id}/route', params: ['id'], body: {} });
  return routes;
}

/** Marker put into generated content: it must never show up in logs. */
export const CONTENT_MARKER = 'content-marker-5e1f0c9d';

const sqlLike = fc.constantFrom(
  "'; DROP TABLE dialogues; --",
  "' OR '1'='1",
  '1; SELECT pg_sleep(10)',
  '$$ LANGUAGE plpgsql $$',
  '\\x00\\',
  "%' AND 1=1 --",
  "E'\\\\'",
);
const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\u202E',
  '💥'.repeat(40),
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '{{7*7}}',
  '$' + '{jndi:ldap://x}',
  '<script>alert(1)</script>',
  '   ',
  '',
  'null',
  'NaN',
  '-1',
  '1e309',
  '9007199254740993',
  'asc',
  'desc',
  'threads',
);
const overLong = fc.integer({ min: 129, max: 4000 }).map((n) => 'i'.repeat(n));

/** Strings meant to break things: SQL, NUL, lone surrogates, over-long, plain random. */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: nasty },
  { weight: 2, arbitrary: sqlLike },
  { weight: 1, arbitrary: overLong },
);

/** Body strings: hostile text, and now and then the content marker (content travels in bodies only). */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.constant(`${CONTENT_MARKER} said hello`) },
);

const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 53 + 2, 1e308, -0)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor')), tie('value'), {
      maxKeys: 5,
    }),
  ),
}));

/** A value shaped after a schema property most of the time, anything hostile otherwise. */
function valueFor(schema: JsonSchema, ids: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const shaped: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) shaped.push(fc.constantFrom(...schema.enum));
  if (type === 'string') shaped.push(hostileString, ids);
  if (type === 'integer' || type === 'number') {
    shaped.push(
      fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(0, 2 ** 31, 2 ** 53 + 2, -1, 0.5)),
    );
  }
  if (type === 'array') {
    const item = schema.items ?? {};
    const element: fc.Arbitrary<unknown> = item.properties ? objectFor(item.properties, ids) : hostileValue;
    shaped.push(fc.array(element, { maxLength: 6 }));
    shaped.push(fc.integer({ min: 0, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => i)));
  }
  if (type === 'object' && schema.properties) shaped.push(objectFor(schema.properties, ids));
  return shaped.length > 0 ? fc.oneof(...shaped, hostileValue) : hostileValue;
}

function objectFor(properties: Record<string, JsonSchema>, ids: fc.Arbitrary<string>): fc.Arbitrary<object> {
  const keys = Object.keys(properties);
  return fc
    .tuple(
      fc.subarray(keys),
      fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor')), hostileValue, {
        maxKeys: 2,
      }),
    )
    .chain(([chosen, extra]) =>
      fc.tuple(...chosen.map((key) => valueFor(properties[key]!, ids))).map((values) => {
        const object: Record<string, unknown> = {};
        chosen.forEach((key, i) => {
          object[key] = values[i];
        });
        // Extra keys, __proto__ included, as own properties (JSON.parse makes them so too).
        for (const [key, value] of Object.entries(extra)) {
          Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
        }
        return object;
      }),
    );
}

const deepNesting = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/** Bodies as raw bytes or text: malformed JSON, hostile encodings, huge or deep values. */
const rawBody = fc.oneof(
  fc.json().map((text) => text),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '{',
    '{"a":}',
    '{"a":1,}',
    '[1,2',
    '{"a":1}{"b":2}',
    'NaN',
    '{"a": /* comment */ 1}',
    "{'a': 1}",
    '"just a string"',
    '42',
    'null',
    'true',
    '[]',
    '\u0000',
    '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
    '{"a": "\\u0000"}',
    '{"a": "\\ud800"}',
    '{"a": 1e999999}',
    '{"a": -0.0000000000000000000000000001e-400}',
  ),
  deepNesting,
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => `[${'1,'.repeat(n)}1]`),
  fc
    .integer({ min: 1, max: 3 })
    .map((mib) => JSON.stringify({ content: `${CONTENT_MARKER}${'x'.repeat(mib * 1024 * 1024)}` })),
  // Invalid UTF-8 inside a JSON string.
  fc
    .uint8Array({ minLength: 1, maxLength: 40 })
    .map((bytes) =>
      Buffer.concat([
        Buffer.from('{"content": "'),
        Buffer.from([0xc0, 0xff, 0xfe, ...bytes]),
        Buffer.from('"}'),
      ]),
    ),
);

interface HostileRequest {
  route: RouteShape;
  inject: InjectOptions;
}

interface Credentials {
  apiKey: string;
  adminToken: string;
  /** Ids seen in successful responses (ours excluded): path params often name a real resource. */
  ids: () => string[];
}

/** encodeURIComponent, which throws on lone surrogates: those are sent as U+FFFD. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

const pathValue = (ids: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 3, arbitrary: ids.map(encode) },
    { weight: 3, arbitrary: hostileText.map(encode) },
    // Not encoded: broken escapes, slashes, dots.
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz', '%C0%AF', '%00', '..', '.', '%2F', 'a%2Fb', '%E0%A4%A'),
    },
    { weight: 1, arbitrary: fc.integer({ min: 129, max: 3000 }).map((n) => 'x'.repeat(n)) },
  );

const queryString = (names: string[], ids: fc.Arbitrary<string>) =>
  fc
    .array(
      fc.tuple(
        names.length > 0 ? fc.oneof(fc.constantFrom(...names), hostileText) : hostileText,
        fc.oneof(hostileText, ids, fc.constantFrom('0', '1', '100', '101', '-1', 'abc', 'asc', 'desc')),
        fc.boolean(),
      ),
      { maxLength: 5 },
    )
    .map((pairs) =>
      pairs
        .map(([key, value, raw]) =>
          raw
            ? `${key.replace(/[#&=\s]/g, '')}=${value.replace(/[#&\s]/g, '')}`
            : `${encode(key)}=${encode(value)}`,
        )
        .join('&'),
    );

/** Header values Node would send: printable ASCII (hostile in meaning, not in transport). */
const headerText = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 300,
  }),
  fc.constantFrom('', ' ', 'x'.repeat(256), 'x'.repeat(5000)),
);

const contentTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/jsonx',
      'APPLICATION/JSON',
      'application/*',
      ';',
    ),
  },
);

/** A request for one route with hostile parts; valid enough often enough to reach the handlers. */
function hostileRequest(routes: RouteShape[], credentials: Credentials): fc.Arbitrary<HostileRequest> {
  const ids = fc.constant(null).chain(() => {
    const known = credentials.ids();
    return known.length > 0 ? fc.oneof(fc.constantFrom(...known), hostileText) : hostileText;
  });
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constant(route.method) },
          {
            weight: 1,
            arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
          },
        ),
        params: fc.tuple(...route.params.map(() => pathValue(ids))),
        query: queryString(route.query, ids),
        auth: fc.oneof(
          { weight: 12, arbitrary: fc.constant('right') },
          { weight: 1, arbitrary: fc.constant('other') },
          { weight: 1, arbitrary: fc.constant('none') },
          { weight: 1, arbitrary: headerText },
        ),
        contentType: fc.option(contentTypes, { freq: 8 }),
        // What MCP clients send (the transport refuses others); other routes ignore it.
        accept: fc.option(fc.constantFrom('application/json, text/event-stream', '*/*', 'text/html'), {
          freq: 2,
        }),
        requestId: fc.option(headerText, { freq: 4 }),
        idempotencyKey: fc.option(headerText, { freq: 6 }),
        body: fc.oneof(
          {
            weight: route.body ? 6 : 1,
            arbitrary: objectFor(route.body ?? {}, ids).map((value) => JSON.stringify(value)),
          },
          { weight: 3, arbitrary: rawBody },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
      })
      .map(({ method, params, query, auth, contentType, accept, requestId, idempotencyKey, body }) => {
        let url = route.path;
        route.params.forEach((name, i) => {
          url = url.replace(`{${name}}`, params[i]!);
        });
        if (query) url += `?${query}`;
        const headers: Record<string, string> = {};
        const token = route.admin ? credentials.adminToken : credentials.apiKey;
        if (auth === 'right') headers.authorization = `Bearer ${token}`;
        else if (auth === 'other')
          headers.authorization = `Bearer ${route.admin ? credentials.apiKey : credentials.adminToken}`;
        else if (auth !== 'none') headers.authorization = auth;
        if (contentType !== null) headers['content-type'] = contentType;
        if (accept !== null) headers.accept = accept;
        if (requestId !== null) headers['x-request-id'] = requestId;
        if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
        const inject: InjectOptions = { method: method as InjectOptions['method'], url, headers };
        if (body !== undefined && method !== 'GET' && method !== 'HEAD') inject.payload = body;
        if (route.eventStream) inject.payloadAsStream = true;
        return { route, inject };
      }),
  );
}

/** Everything a request could have stored or changed, in one query. */
export async function storeFingerprint(app: FastifyInstance): Promise<string> {
  const result = await app.db.execute(sql`
    SELECT
      (SELECT count(*) || '/' || coalesce(max(modified)::text, '') FROM projects) AS projects,
      (SELECT count(*) || '/' || count(revoked_at) FROM api_keys) AS api_keys,
      (SELECT count(*) || '/' || coalesce(max(modified)::text, '') FROM dialogues) AS dialogues,
      (SELECT count(*) || '/' || coalesce(max(modified)::text, '') FROM messages) AS messages,
      (SELECT count(*) || '/' || coalesce(max(modified)::text, '') FROM memories) AS memories,
      (SELECT count(*) FROM embedding_jobs) AS embedding_jobs,
      (SELECT count(*) FROM idempotency_keys) AS idempotency_keys,
      (SELECT coalesce(sum(writes), 0) FROM usage_counters) AS usage_counters,
      (SELECT count(*) FROM events) AS events`);
  return JSON.stringify(rowsOf(result)[0]);
}

const STACK_TRACE =
  /(\n\s+at |node_modules|\.ts:\d+|\.js:\d+:\d+|TypeError|ReferenceError|SyntaxError: |PostgresError|DrizzleQueryError|Failed query)/;

function isJsonRpcError(body: unknown): boolean {
  const { jsonrpc, error } = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
  return jsonrpc === '2.0' && typeof error?.code === 'number' && typeof error.message === 'string';
}

/** The oracle: no 5xx; every 4xx is the D11 envelope with a spec code and no internals. */
function checkResponse(request: HostileRequest, response: LightMyRequestResponse): void {
  const where = `${request.inject.method} ${String(request.inject.url).slice(0, 200)}`;
  if (response.statusCode >= 500) {
    throw new Error(`${where}: ${response.statusCode} ${response.body.slice(0, 500)}`);
  }
  if (response.statusCode < 400 || request.inject.method === 'HEAD') return;
  let envelope: { error?: Record<string, unknown> };
  try {
    envelope = response.json();
  } catch {
    throw new Error(
      `${where}: ${response.statusCode} with a body that is not JSON: ${response.body.slice(0, 200)}`,
    );
  }
  // D42: past authentication, /mcp/v1 speaks JSON-RPC, whose transport errors have their own shape.
  if (isJsonRpcError(envelope) && String(request.inject.url).startsWith('/mcp/v1')) return;
  const error = envelope.error;
  const code = error?.code as keyof typeof errorCodes | undefined;
  if (!error || !code || !(code in errorCodes))
    throw new Error(`${where}: not an error envelope: ${response.body.slice(0, 300)}`);
  const expected = errorCodes[code];
  if (expected.status !== response.statusCode || expected.type !== error.type) {
    throw new Error(`${where}: ${response.statusCode} with ${code}/${String(error.type)}`);
  }
  if (typeof error.message !== 'string' || error.requestId !== response.headers['x-request-id']) {
    throw new Error(`${where}: message or requestId wrong: ${response.body.slice(0, 300)}`);
  }
  if (typeof error.timestamp !== 'string' || Number.isNaN(Date.parse(error.timestamp))) {
    throw new Error(`${where}: bad timestamp`);
  }
  if (STACK_TRACE.test(response.body))
    throw new Error(`${where}: internals in ${response.body.slice(0, 500)}`);
}

/** Collects `id` fields of a successful JSON response into `ids`, except `excluded` ones. */
function collectIds(response: LightMyRequestResponse, ids: Set<string>, excluded: Set<string>): void {
  if (response.statusCode >= 300 || !String(response.headers['content-type'] ?? '').includes('json')) return;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (
        (key === 'id' || key.endsWith('Id')) &&
        typeof inner === 'string' &&
        !excluded.has(inner) &&
        ids.size < 200
      ) {
        ids.add(inner);
      }
      visit(inner, depth + 1);
    }
  };
  try {
    visit(response.json(), 0);
  } catch {
    // not JSON after all
  }
}

const SEEDS: [InjectOptions['method'] & string, string, object][] = [
  ['POST', '/api/v1/dialogue', { namespace: 'seed', messages: [{ role: 'user', content: 'seed message' }] }],
  ['POST', '/api/v1/dialogue', { tags: ['seed'], message: { role: 'assistant', content: 'another seed' } }],
  ['POST', '/api/v1/memory', { value: 'seed memory', label: 'seed' }],
];

/**
 * `app.inject`, except for an event stream (D66), which never ends by itself: its response is
 * taken as soon as its head is written; a stream that opened is dropped (the app's close ends it
 * on the server), an answer that is not a stream is read whole.
 */
async function injectHostile(app: FastifyInstance, inject: InjectOptions): Promise<LightMyRequestResponse> {
  const response = await app.inject(inject);
  if (!inject.payloadAsStream) return response;
  const stream = response.stream();
  let body = '';
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) stream.destroy();
  else for await (const chunk of stream) body += String(chunk);
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body,
    json: () => JSON.parse(body),
  } as unknown as LightMyRequestResponse;
}

/**
 * Sends `runs` hostile requests one after another and checks each: no 5xx, the envelope on
 * every 4xx, and nothing stored or changed by a 4xx. Returns the statuses seen.
 */
export async function runHostileRequests(
  app: FastifyInstance,
  credentials: { apiKey: string; adminToken: string; protectedIds: string[] },
  runs: number,
  seed?: number,
): Promise<Map<number, number>> {
  const routes = routesOf(app);
  const ids = new Set<string>();
  const excluded = new Set(credentials.protectedIds);
  const statuses = new Map<number, number>();
  // A few real resources first, so that generated ids often name something that exists.
  for (const [method, url, payload] of SEEDS) {
    if (!routes.some((route) => route.method === method && route.path === url)) continue;
    const headers = { authorization: `Bearer ${credentials.apiKey}` };
    collectIds(await app.inject({ method, url, payload, headers }), ids, excluded);
  }
  let fingerprint = await storeFingerprint(app);
  const arbitrary = hostileRequest(routes, { ...credentials, ids: () => [...ids] });
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      const response = await injectHostile(app, request.inject);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      checkResponse(request, response);
      const after = await storeFingerprint(app);
      if (response.statusCode >= 400 && after !== fingerprint) {
        throw new Error(
          `${request.inject.method} ${request.inject.url}: ${response.statusCode} yet the store changed: ${fingerprint} -> ${after}`,
        );
      }
      fingerprint = after;
      collectIds(response, ids, excluded);
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  return statuses;
}

/**
 * The app settings of a hostile run. Shedding stays off: on a starved machine it would answer 503,
 * which is not what is tested. The namespace-erasure worker and the retention sweeper finish, later
 * and on their own timers, what an earlier accepted request asked for (an erasure, an expiry):
 * their first rounds run at start and the next ones after the run, so that a change they make is
 * never taken for one made by the failed request the store is compared around.
 */
export const HOSTILE_ENV = {
  RATE_LIMIT_MAX: '1000000',
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  ERASURE_POLL_MS: '3600000',
  RETENTION_SWEEP_INTERVAL_MS: '86400000',
};
