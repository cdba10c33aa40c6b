import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import { registerErrorHandling, renderFrameworkError } from './http/error-handler.js';
import { trustProxyOption } from './http/ip-allow-list.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerLoadShedding } from './http/load-shedding.js';
import { registerRequestLogging } from './http/logging.js';
import { type Metrics, createMetrics, registerRequestMetrics } from './http/metrics.js';
import { registerOpenApi } from './http/openapi.js';
import { quotaGuard } from './http/quota.js';
import { requireApiKey } from './http/protection.js';
import { registerRateLimit } from './http/rate-limit.js';
import { stringifyWithRawJson } from './http/raw-json.js';
import { validatorCompiler } from './http/validation.js';
import type { WriteGuard } from './http/writes.js';
import { newId } from './lib/ids.js';
import { packageVersion } from './lib/package-info.js';
import { dialogueRoutes } from './modules/dialogues/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { adminRoutes } from './modules/projects/routes.js';
import { type Services, createServices } from './services.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
}

export interface Lifecycle {
  shuttingDown: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Database;
    services: Services;
    metrics: Metrics;
    lifecycle: Lifecycle;
    /** Checks run inside every write transaction (see http/writes.ts). */
    writeGuards: WriteGuard[];
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Builds the whole app from what it is given; never listens (STYLE 1). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // One line per request with project and timing instead of Fastify's two (http/logging.ts).
    disableRequestLogging: true,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // D11: a client's X-Request-Id is echoed when it is 1-128 safe characters.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : newId('req');
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    frameworkErrors: renderFrameworkError,
  });

  app.setValidatorCompiler(validatorCompiler);
  // Responses are serialized by one function that also writes stored JSON text verbatim (D28).
  app.setSerializerCompiler(() => (data) => stringifyWithRawJson(data));

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('services', createServices({ config, database }));
  app.decorate('metrics', createMetrics({ database }));
  app.decorate('lifecycle', { shuttingDown: false });
  // D44: the plan quota is counted inside every write's transaction.
  app.decorate('writeGuards', [quotaGuard(app.services.usage)]);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // After the request id (a shed request's envelope names it), before everything else.
  await registerLoadShedding(app, config);
  await registerRateLimit(app, config);

  registerJsonBodyParser(app, config.BODY_LIMIT_BYTES);
  registerErrorHandling(app);
  registerRequestMetrics(app, app.metrics);
  registerRequestLogging(app);
  await registerOpenApi(app, packageVersion);
  await app.register(healthRoutes);

  if (config.ADMIN_TOKEN) {
    await app.register(adminRoutes, { prefix: '/admin/v1', adminToken: config.ADMIN_TOKEN });
  }

  // D1: the REST API under /api/v1, and the same routes under /api as aliases left out of OpenAPI.
  await app.register(restApi, { prefix: '/api/v1' });
  await app.register(
    async (alias) => {
      alias.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      await alias.register(restApi);
    },
    { prefix: '/api' },
  );

  return app;
}

/** Every authenticated REST route, registered once per prefix. */
async function restApi(api: FastifyInstance): Promise<void> {
  requireApiKey(api);
  await api.register(dialogueRoutes);
  await api.register(messageRoutes);
}
