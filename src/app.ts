import { fastifySSE } from '@fastify/sse';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import { type IdempotencyPruner, startIdempotencyPruner } from './db/idempotency-pruner.js';
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
import { packageVersion } from './lib/package-info.js';
import { type Embedder, createEmbedderFromConfig } from './embedders/index.js';
import { dialogueRoutes } from './modules/dialogues/routes.js';
import { ensureVectorIndexes } from './modules/embeddings/vector-sql.js';
import { type EmbeddingWorker, startEmbeddingWorker } from './modules/embeddings/worker.js';
import { type EventOutbox, eventOutbox } from './modules/events/outbox.js';
import { eventRoutes } from './modules/events/routes.js';
import { EVENTS_CHANNEL } from './modules/events/sequencer.js';
import { type EventUpkeep, startEventUpkeep } from './modules/events/upkeep.js';
import { healthRoutes } from './modules/health/routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { readWebhookCaFile } from './modules/webhooks/trusted-ca.js';
import type { HostLookup } from './modules/webhooks/url-safety.js';
import { type WebhookWorker, startWebhookWorker, webhookSettings } from './modules/webhooks/worker.js';
import { memoryRoutes } from './modules/memories/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { adminApiOff, adminRoutes } from './modules/projects/routes.js';
import { type Services, createServices } from './services.js';
import { hasCitus } from './db/citus.js';
import { createSummarizer } from './summaries/factory.js';
import type { Summarizer } from './summaries/summarizer.js';

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
  const outbox = deps.outbox ?? eventOutbox;
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
  app.decorate(
    'services',
    createServices({
      outbox,
      database,
      embedder,
      onEmbedError: (error) =>
        app.log.warn({ err: error }, 'query embedding failed; answering from full text'),
      summarizer: deps.summarizer ?? createSummarizer(config),
      keyCacheTtlMs: config.AUTH_CACHE_TTL_MS,
      distributed: await hasCitus(database.db),
      onEventsNumbered: (types) => {
        for (const type of types) app.metrics.eventsWritten.inc({ type });
      },
      onEventsError: (error) =>
        app.log.warn({ err: error }, 'could not number events after their commit; the sweep will'),
      webhookUrlPolicy: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, lookup: deps.webhookLookup },
    }),
  );
  app.decorate('metrics', createMetrics({ database, openEventStreams: () => app.services.eventHub.size }));
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
    // D63: the events a write committed are numbered at once.
    afterCommit: (context, tx) => {
      if (outbox.recordedIn(tx)) app.services.eventSequencer.schedule(context.projectId);
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
  // After the request id (a shed request's envelope names it), before everything else.
  await registerLoadShedding(app, config);
  await registerRateLimit(app, config);

  registerEmbeddings(app, config, database, embedder, ownEmbedder);
  registerIdempotencyPruning(app, config, database);
  registerEventFeed(app, config, database);
  registerWebhookWorker(app, config, outbox, {
    lookup: deps.webhookLookup,
    trustedCa: webhookCa,
  });

  registerJsonBodyParser(app, config.BODY_LIMIT_BYTES);
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

  // D2, D42: MCP for agents, with the same keys and services as REST (not under the /api aliases).
  await app.register(mcpRoutes, { prefix: '/mcp/v1' });

  return app;
}

/** Every authenticated REST route, registered once per prefix. */
async function restApi(api: FastifyInstance): Promise<void> {
  guardProjectRoutes(api);
  await api.register(dialogueRoutes);
  await api.register(messageRoutes);
  await api.register(memoryRoutes);
  await api.register(searchRoutes);
  await api.register(eventRoutes);
  await api.register(webhookRoutes);
}

/**
 * D41: the configured model's vector indexes exist before the first request; D40: the server
 * runs an embedding worker unless EMBEDDING_WORKER=false (then `parley worker` does the work).
 */
function registerEmbeddings(
  app: FastifyInstance,
  config: Config,
  database: DatabaseHandle,
  embedder: Embedder | undefined,
  ownEmbedder: boolean,
): void {
  let worker: EmbeddingWorker | undefined;
  app.addHook('onReady', async () => {
    if (!embedder) return;
    await ensureVectorIndexes(database, embedder);
    if (config.EMBEDDING_WORKER) {
      worker = startEmbeddingWorker({
        db: database.db,
        embedder,
        logger: app.log,
        idleMs: 500,
        metrics: app.metrics,
        longRunning: (fn) => database.withDedicatedConnection(fn),
      });
    }
  });
  app.addHook('onClose', async () => {
    await worker?.stop();
    if (ownEmbedder) await embedder?.close();
  });
}

/** D75: expired idempotency records are deleted in the background while the app runs. */
function registerIdempotencyPruning(app: FastifyInstance, config: Config, database: DatabaseHandle): void {
  let pruner: IdempotencyPruner | undefined;
  app.addHook('onReady', async () => {
    pruner = startIdempotencyPruner({
      db: database.db,
      ttlHours: config.IDEMPOTENCY_TTL_HOURS,
      logger: app.log,
    });
  });
  app.addHook('onClose', async () => {
    await pruner?.stop();
  });
}

/**
 * D63-D66: the one LISTEN connection of the process, which wakes the open streams when another
 * instance numbered events; the upkeep that numbers what a stopped writer left and prunes old
 * events. At shutdown the streams end first, so that the server can close.
 */
function registerEventFeed(app: FastifyInstance, config: Config, database: DatabaseHandle): void {
  const { eventHub, eventSequencer } = app.services;
  let listening: { close(): Promise<void> } | undefined;
  let upkeep: EventUpkeep | undefined;
  app.addHook('onReady', async () => {
    listening = await database.listen(EVENTS_CHANNEL, {
      onNotification: (payload) => {
        const projectId = eventSequencer.notifiedProject(payload);
        if (projectId !== undefined) eventHub.wake(projectId);
      },
      onListening: () => eventHub.wakeAll(),
    });
    upkeep = startEventUpkeep({
      db: database.db,
      sequencer: eventSequencer,
      retentionDays: config.EVENTS_RETENTION_DAYS,
      sweepIntervalMs: config.EVENTS_SWEEP_INTERVAL_MS,
      logger: app.log,
    });
  });
  app.addHook('preClose', async () => {
    eventHub.close();
  });
  app.addHook('onClose', async () => {
    await Promise.all([listening?.close(), upkeep?.stop()]);
  });
}

/** D68: the server delivers webhooks unless WEBHOOK_WORKER=false (then `parley worker` does). */
function registerWebhookWorker(
  app: FastifyInstance,
  config: Config,
  outbox: EventOutbox,
  delivery: { lookup: HostLookup | undefined; trustedCa: string | undefined },
): void {
  let worker: WebhookWorker | undefined;
  app.addHook('onReady', async () => {
    if (!config.WEBHOOK_WORKER) return;
    worker = startWebhookWorker({
      ...webhookSettings(config),
      db: app.db,
      events: app.services.events,
      outbox,
      hub: app.services.eventHub,
      ...delivery,
      logger: app.log,
      metrics: app.metrics,
    });
  });
  // Before the database closes: attempts in hand are cut short and due again at once.
  app.addHook('preClose', async () => {
    await worker?.stop();
  });
}
