import { fastifySSE } from '@fastify/sse';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import { type BackgroundWork, startBackgroundWork } from './background.js';
import { registerCors } from './http/cors.js';
import { registerErrorHandling, renderFrameworkError } from './http/error-handler.js';
import { AppError } from './core/errors.js';
import { trustProxyOption } from './http/ip-allow-list.js';
import { mirrorRoutes } from './http/method-not-allowed.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerLoadShedding } from './http/load-shedding.js';
import { registerRequestLogging } from './http/logging.js';
import { registerRequestMetrics } from './http/metrics.js';
import { type Metrics, createMetrics } from './observability/metrics.js';
import { registerOpenApi } from './http/openapi.js';
import { quotaGuard } from './modules/usage/quota-guard.js';
import { guardProjectRoutes } from './http/protection.js';
import { registerRateLimit } from './http/rate-limit.js';
import {
  type ResponseCheck,
  checkSentResponse,
  checkSerializedStatus,
  serializerCompiler,
} from './http/response-validation.js';
import { refuseUndeclaredParts, validatorCompiler } from './http/validation.js';
import type { WriteDeps, WriteGuard } from './db/unit-of-work.js';
import { newId } from './lib/ids.js';
import { mcpRoutes } from './mcp/routes.js';
import { registerBrowserGuard } from './http/browser-guard.js';
import { registerConsole } from './http/console.js';
import { packageVersion } from './lib/package-info.js';
import { type Embedder, createEmbedderFromConfig } from './embedders/factory.js';
import { dialogueRoutes } from './modules/dialogues/routes.js';
import { type EventOutbox, eventOutboxFor } from './modules/events/outbox.js';
import { erasureRoutes } from './modules/erasures/routes.js';
import { eventRoutes } from './modules/events/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { readWebhookCaFile } from './modules/webhooks/trusted-ca.js';
import type { HostLookup } from './modules/webhooks/url-safety.js';
import { memoryRoutes } from './modules/memories/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { summaryRoutes } from './modules/summaries/routes.js';
import { adminApiOff, adminRoutes } from './modules/projects/routes.js';
import { type Services, createServices } from './services.js';
import { registerLingeringClose } from './http/oversize-body.js';
import { hasCitus } from './db/citus.js';
import { createSummarizer } from './summarizers/factory.js';
import type { Summarizer } from './summarizers/summarizer.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /**
   * The embedder (D41). Omitted: the one EMBEDDINGS names is made (and closed with the app);
   * null: none, search is lexical.
   */
  embedder?: Embedder | null;
  /** Writes dialogue summaries (D22); by default the one the configuration names. */
  summarizer?: Summarizer;
  /** D60: the PEM certificate and key read from TLS_CERT_FILE and TLS_KEY_FILE; the server then speaks HTTPS. */
  tls?: TlsFiles;
  /**
   * Test mode (test/helpers/app.ts turns it on for the whole suite): every response is checked
   * against the zod schema its route declares for the status, the schema the OpenAPI document is
   * generated from, before it is sent. Serialized responses are checked in the serializer, writes
   * (sent as stored JSON text, D36) before they are stringified, error envelopes in the error
   * handler; the status itself must be one the route declares (413, 415, 500 and 503 excepted).
   * A body that does not match, carries a field the schema does not declare, or comes with an
   * undeclared status throws: the client gets 500 INTERNAL_ERROR and the log names the route, the
   * status and the problems.
   * Off by default: production serializes exactly as without it and checks nothing.
   */
  validateResponses?: boolean;
  /** D69: resolves webhook host names, at registration and at connection time (tests control DNS). */
  webhookLookup?: HostLookup;
  /**
   * Where writes record their events (D63): the outbox, unless the events benchmark's baseline
   * (bench/parley-without-outbox.ts) replaces it with one that records nothing.
   */
  outbox?: EventOutbox;
  /**
   * D69: the certificates of WEBHOOK_CA_FILE, which server.ts reads at start; omitted: read here
   * from the file the configuration names (none when it names none).
   */
  webhookCa?: string;
  /** D102: the built console's folder (default console/dist); tests hand in another. */
  consoleRoot?: string;
}

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

interface Lifecycle {
  /** Set at SIGTERM: /readyz answers 503 from then on. */
  shuttingDown: boolean;
  /** Set when the listener closes: requests still arriving on open connections get 503. */
  closing: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Database;
    services: Services;
    /** The configured embedder, absent with EMBEDDINGS=none. */
    embedder: Embedder | undefined;
    metrics: Metrics;
    lifecycle: Lifecycle;
    /** Checks run inside every write transaction (see http/writes.ts). */
    writeGuards: WriteGuard[];
    /** What every REST and MCP write runs with: the database, the guards, the after-commit step. */
    writeDeps: WriteDeps;
    /** Checks bodies sent as text against their schema; set only with `validateResponses`. */
    responseCheck: ResponseCheck | undefined;
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

const ROUTER_OPTIONS = { ignoreTrailingSlash: true, maxParamLength: 1024 };

/** Builds the whole app from what it is given; never listens; server.ts and the tests both use it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const outbox = deps.outbox ?? eventOutboxFor(database);
  // Before anything is made that would need closing: an unreadable file is a ConfigError.
  const webhookCa = deps.webhookCa ?? (await readWebhookCaFile(config));
  const app = Fastify({
    // D60: HTTP/1.1 over TLS (the client's https.Agent speaks nothing else). The instance keeps the
    // http.Server type: https.Server handles requests through the same interface.
    ...((deps.tls ? { https: deps.tls } : {}) as object),
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // One line per request with project and timing instead of Fastify's two (http/logging.ts).
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: false,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // D11: a client's X-Request-Id is echoed when it is 1-128 safe characters.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : newId('req');
    },
    routerOptions: ROUTER_OPTIONS,
    frameworkErrors: renderFrameworkError,
  });

  // Before any route: the 405 of D84 needs to know every path's methods.
  const allowedMethods = mirrorRoutes(app, ROUTER_OPTIONS);
  app.setValidatorCompiler(validatorCompiler);
  refuseUndeclaredParts(app);
  // Responses are serialized by one function that also writes stored JSON text verbatim (D28);
  // in test mode it checks each response against its route's schema first.
  app.setSerializerCompiler(serializerCompiler(deps.validateResponses ?? false));
  app.decorate('responseCheck', deps.validateResponses ? checkSentResponse : undefined);
  if (deps.validateResponses) app.addHook('preSerialization', checkSerializedStatus);

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  const ownEmbedder = deps.embedder === undefined;
  const embedder = (ownEmbedder ? await createEmbedderFromConfig(config) : deps.embedder) ?? undefined;
  app.decorate('embedder', embedder);
  // Made before the services, which count the events they number in it; it reads the number of
  // open streams from the event service when scraped.
  app.decorate(
    'metrics',
    createMetrics({ database, openEventStreams: () => app.services.events.openStreams }),
  );
  app.decorate(
    'services',
    createServices({
      config,
      database,
      distributed: await hasCitus(database.db),
      embedder,
      summarizer: deps.summarizer ?? createSummarizer(config),
      outbox,
      webhookLookup: deps.webhookLookup,
      logger: app.log,
      metrics: app.metrics,
    }),
  );
  app.decorate('lifecycle', { shuttingDown: false, closing: false });
  // D76: an instance knows the active API keys from the start (see http/auth.ts).
  app.addHook('onReady', async () => {
    await app.services.projects
      .loadKeys()
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not read the active API keys'));
  });
  // D44: the plan quota is counted inside every write's transaction.
  app.decorate('writeGuards', [quotaGuard(app.services.usage)]);
  app.decorate('writeDeps', {
    db: database.db,
    guards: app.writeGuards,
    // D191: on the embedded store a write's transaction numbers its own events.
    beforeCommit: async (tx, context) => {
      await outbox.numberBeforeCommit(tx, context.projectId);
    },
    // D63: the events a write committed are numbered at once, or, numbered by the write (D191),
    // announced.
    afterCommit: (context, scope) => {
      const sequencer = app.services.eventSequencer;
      if (scope.eventsNumbered.length > 0) sequencer.announce(context.projectId, scope.eventsNumbered);
      if (scope.eventsToNumber) sequencer.schedule(context.projectId);
    },
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // A request that arrives on a kept-alive connection after the listener closed: answered with
    // the D11 envelope (Fastify's own 503 for this case has another shape, so it is turned off).
    if (app.lifecycle.closing) {
      reply.header('connection', 'close');
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The server is shutting down; retry the request',
        undefined,
        1,
      );
    }
  });
  app.addHook('preClose', async () => {
    app.lifecycle.closing = true;
  });
  // Preflights carry no key: answered before shedding, rate limits and authentication.
  await registerCors(app, config);
  // D100: after the preflights (an allowed origin's preflight carries no key), before all else.
  registerBrowserGuard(app, config);
  // After the request id (a shed request's envelope names it), before everything else.
  await registerLoadShedding(app, config);
  await registerRateLimit(app, config);

  registerBackgroundWork(app, {
    config,
    database,
    services: app.services,
    embedder,
    logger: app.log,
    metrics: app.metrics,
    workers: { embeddings: config.EMBEDDING_WORKER, webhooks: config.WEBHOOK_WORKER },
    webhookLookup: deps.webhookLookup,
    webhookCa,
  });
  app.addHook('onClose', async () => {
    if (ownEmbedder) await embedder?.close();
  });

  registerJsonBodyParser(app, config.BODY_LIMIT_BYTES);
  registerLingeringClose(app);
  registerErrorHandling(app, allowedMethods);
  registerRequestMetrics(app, app.metrics);
  registerRequestLogging(app);
  await registerOpenApi(app, packageVersion, { admin: Boolean(config.ADMIN_TOKEN) });
  // D66: server-sent events, for the event stream.
  await app.register(fastifySSE, { heartbeatInterval: config.EVENTS_HEARTBEAT_MS });
  await app.register(healthRoutes);

  if (config.ADMIN_TOKEN) {
    await app.register(adminRoutes, { prefix: '/admin/v1', adminToken: config.ADMIN_TOKEN });
  } else {
    await app.register(adminApiOff, { prefix: '/admin/v1' });
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

  if (config.CONSOLE_ENABLED) await registerConsole(app, deps.consoleRoot);

  // D2, D42: MCP for agents, with the same keys and services as REST (not under the /api aliases).
  await app.register(mcpRoutes, { prefix: '/mcp/v1' });

  return app;
}

/** Every authenticated REST route, registered once per prefix. */
async function restApi(api: FastifyInstance): Promise<void> {
  guardProjectRoutes(api);
  await api.register(dialogueRoutes);
  // D162
  await api.register(erasureRoutes);
  await api.register(summaryRoutes);
  await api.register(messageRoutes);
  await api.register(memoryRoutes);
  await api.register(searchRoutes);
  await api.register(eventRoutes);
  await api.register(webhookRoutes);
}

/**
 * The process's background work (background.ts) runs while the app is ready. At shutdown the event
 * streams end first, so that the server can close, and the workers stop before the database does.
 */
function registerBackgroundWork(app: FastifyInstance, deps: Parameters<typeof startBackgroundWork>[0]): void {
  let work: BackgroundWork | undefined;
  app.addHook('onReady', async () => {
    work = await startBackgroundWork(deps);
  });
  app.addHook('preClose', async () => {
    app.services.eventHub.close();
    await work?.stop();
  });
}
