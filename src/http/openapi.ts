import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

// D2: the OpenAPI 3.0.3 document is generated from the routes' zod schemas, never written by hand.
// Two corrections make it generate good clients: media-type examples the zod transform drops are
// put back (each error status shows its own code), and each component appears once (see below).

const OPENAPI_PATH = '/.well-known/openapi.json';

type Json = Record<string, unknown>;
type MediaTypes = Record<string, Json>;

/**
 * The zod transform keeps only `schema` of a response declared per media type: the `example` that
 * errorResponses gives each error status is copied back from the route's declaration.
 */
const transform: typeof jsonSchemaTransform = (input) => {
  const output = jsonSchemaTransform(input);
  describeSuccesses(output.schema as Json);
  const declared = (input.schema as { response?: Record<string, { content?: MediaTypes }> } | undefined)
    ?.response;
  const documented = (output.schema as { response?: Record<string, { content?: MediaTypes }> } | undefined)
    ?.response;
  for (const [status, entry] of Object.entries(declared ?? {})) {
    for (const [mediaType, { schema: _schema, ...rest }] of Object.entries(entry.content ?? {})) {
      const media = documented?.[status]?.content?.[mediaType];
      if (media) Object.assign(media, rest);
    }
  }
  return output;
};

const SCHEMA_REF = '#/components/schemas/';

/**
 * A success response without a description of its own would be documented "Default Response":
 * it is named after what it returns, the component or else the operation's summary.
 */
function describeSuccesses(schema: Json | undefined): void {
  const responses = schema?.response as Record<string, Json> | undefined;
  for (const [status, response] of Object.entries(responses ?? {})) {
    if (!status.startsWith('2') || response.description) continue;
    const ref = typeof response.$ref === 'string' ? response.$ref.slice(SCHEMA_REF.length) : undefined;
    const what = ref
      ? `\`${ref}\``
      : String(schema?.summary ?? 'result').replace(/^./, (c) => c.toLowerCase());
    response.description = `${status === '201' ? 'Created' : 'OK'}: ${ref ? 'the ' : ''}${what}`;
  }
}
const INPUT_SUFFIX = 'Input';

function refsIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)) {
        found.add(child.slice(SCHEMA_REF.length));
      } else refsIn(child, found);
    }
  }
  return found;
}

function renameRefs(value: unknown, rename: (name: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, rename));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) =>
      key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)
        ? [key, SCHEMA_REF + rename(child.slice(SCHEMA_REF.length))]
        : [key, renameRefs(child, rename)],
    ),
  );
}

/**
 * The zod provider writes every registered schema twice, `X` as responses see it and `XInput` as
 * requests do (they differ when defaults or transforms apply), and whether or not a route uses it
 * (the admin components with the admin API off). Generated clients then carry two types per
 * resource. Kept: the components the operations reach, each once: `XInput` merged into `X` when
 * both say the same, renamed to `X` when only requests use it; both only when they really differ.
 */
function tidyComponents(document: Json): Json {
  const components = document.components as { schemas?: Record<string, Json> } | undefined;
  const schemas = components?.schemas ?? {};
  const reached = (root: unknown) => {
    const seen = new Set<string>();
    const queue = [...refsIn(root)];
    while (queue.length > 0) {
      const name = queue.pop()!;
      if (seen.has(name) || !schemas[name]) continue;
      seen.add(name);
      queue.push(...refsIn(schemas[name]));
    }
    return seen;
  };
  const used = reached(document.paths);
  const plainOf = (name: string) => name.slice(0, -INPUT_SUFFIX.length);
  const pairs = Object.keys(schemas).filter(
    (name) => name.endsWith(INPUT_SUFFIX) && schemas[plainOf(name)] && used.has(name),
  );
  // An input merges into its output when they are equal once the inputs merged so far are read as
  // their outputs; repeated until nothing changes, as a parent depends on its children's merging.
  let merged = new Set(pairs);
  for (;;) {
    const asOutput = (name: string) => (merged.has(name) ? plainOf(name) : name);
    const next = new Set(
      [...merged].filter(
        (name) =>
          !used.has(plainOf(name)) ||
          JSON.stringify(renameRefs(schemas[name], asOutput)) === JSON.stringify(schemas[plainOf(name)]),
      ),
    );
    if (next.size === merged.size) break;
    merged = next;
  }
  const rename = (name: string) => (merged.has(name) ? plainOf(name) : name);
  const kept: Record<string, unknown> = {};
  for (const name of [...used].sort()) {
    if (merged.has(name) && used.has(plainOf(name))) continue;
    kept[rename(name)] = renameRefs(schemas[name], rename);
  }
  return {
    ...document,
    paths: renameRefs(document.paths, rename),
    components: { ...components, schemas: kept },
  };
}

/**
 * OpenAPI 3.0 spellings the zod transform produces that the linters in `npm run lint:openapi` (and
 * the generators that follow them) reject, rewritten to equivalent ones:
 * - `nullable` beside `anyOf` and no `type` (3.0 ties `nullable` to a `type`): moved into each
 *   typed branch, which admits null just the same;
 * - a nullable reference, `{nullable, allOf: [{$ref}]}`: the referenced schema inlined with
 *   `nullable` (3.0 has no nullable `$ref`; a one-element allOf is "illogical" to Redocly);
 * - any other one-element `allOf` (a `$ref` wrapped to carry nothing): the reference itself.
 */
function lintClean(document: Json): Json {
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    let node = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, rewrite(child)])) as Json;
    const allOf = node.allOf as Json[] | undefined;
    if (allOf?.length === 1) {
      const { allOf: _single, ...siblings } = node;
      const ref = allOf[0]!.$ref;
      const target = typeof ref === 'string' ? schemas[ref.slice(SCHEMA_REF.length)] : undefined;
      node =
        node.nullable && target
          ? { ...(rewrite(target) as Json), ...siblings }
          : { ...siblings, ...allOf[0] };
      if (!node.nullable) delete node.description;
    }
    const anyOf = node.anyOf as Json[] | undefined;
    if (node.nullable && anyOf && node.type === undefined) {
      const { nullable: _moved, ...rest } = node;
      node = {
        ...rest,
        anyOf: anyOf.map((branch) => (branch.type ? { ...branch, nullable: true } : branch)),
      };
    }
    return node;
  };
  return rewrite(document) as Json;
}

export interface OpenApiOptions {
  /** The admin API is registered (ADMIN_TOKEN set); otherwise its tag and scheme are left out. */
  admin: boolean;
}

export async function registerOpenApi(
  app: FastifyInstance,
  version: string,
  options: OpenApiOptions,
): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Parley API',
        version,
        description:
          'Conversation storage for AI applications: dialogues, messages, memories and semantic search. ' +
          'Every error has the shape of the `Error` schema.',
        // The repository's LICENSE; linters (and generators that copy it) want both in the document.
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        contact: { name: 'Parley maintainers' },
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A project API key' },
          ...(options.admin
            ? {
                adminToken: {
                  type: 'http' as const,
                  scheme: 'bearer',
                  description: 'The server ADMIN_TOKEN (admin API only)',
                },
              }
            : {}),
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'dialogues', description: 'Conversations and their state' },
        { name: 'messages', description: 'Messages of a dialogue' },
        { name: 'summaries', description: 'Summaries of a dialogue, kept as its history' },
        { name: 'memories', description: 'Labelled long-term values' },
        { name: 'search', description: 'Semantic and full-text search' },
        { name: 'events', description: 'The change feed, paged or streamed' },
        { name: 'webhooks', description: 'Endpoints that are sent the events, and their delivery log' },
        { name: 'erasures', description: 'Forgetting an end user: erasing a namespace, and its receipt' },
        ...(options.admin ? [{ name: 'admin', description: 'Projects and keys (ADMIN_TOKEN)' }] : []),
      ],
    },
    transform,
    transformObject: (input) =>
      tidyComponents(lintClean(jsonSchemaTransformObject(input) as Json) as Json) as never,
  });

  // Static assets of Swagger UI; the page at /docs below points it at OPENAPI_PATH.
  await app.register(fastifySwaggerUi, { routePrefix: '/docs/ui' });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );

  app.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(docsPage),
  );

  // D84: someone who opens the server's address finds where to read about it.
  app.get('/', { schema: { hide: true } }, async () => ({
    name: 'parley',
    version,
    docs: '/docs',
    openapi: OPENAPI_PATH,
    api: '/api/v1',
    mcp: '/mcp/v1',
  }));
}

const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Parley API</title>
  <link rel="stylesheet" href="/docs/ui/static/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/ui/static/swagger-ui-bundle.js"></script>
  <script src="/docs/ui/static/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '${OPENAPI_PATH}',
      dom_id: '#swagger-ui',
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    });
  </script>
</body>
</html>
`;
