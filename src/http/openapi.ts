import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

// D2: the OpenAPI 3.0.3 document is generated from the routes' zod schemas, never written by hand.

const OPENAPI_PATH = '/.well-known/openapi.json';

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Parley API',
        version,
        description:
          'Conversation storage for AI applications: dialogues, messages, memories and semantic search. ' +
          'Every error has the shape of the `Error` schema.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A project API key' },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The server ADMIN_TOKEN (admin API only)',
          },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'dialogues', description: 'Conversations and their state' },
        { name: 'messages', description: 'Messages of a dialogue' },
        { name: 'summaries', description: 'Summaries of a dialogue, kept as its history' },
        { name: 'memories', description: 'Labelled long-term values' },
        { name: 'search', description: 'Semantic and full-text search' },
        { name: 'admin', description: 'Projects and keys (ADMIN_TOKEN)' },
      ],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
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
