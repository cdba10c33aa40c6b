import { readFile } from 'node:fs/promises';
import type { Server as HttpsServer } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type AppDeps, type TlsFiles, buildApp } from './app.js';
import { ConfigError, type Config, loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { DatabaseMissingError, asDatabaseMissing, isTransientConnectionError } from './db/errors.js';
import { runMigrations } from './db/migrate.js';
import type { ProjectService } from './modules/projects/service.js';
import { readWebhookCaFile } from './modules/webhooks/trusted-ca.js';
import { createLogger } from './observability/logger.js';
import { retryWithBackoff } from './lib/retry.js';

// Entry: read config, open the database, migrate, build the app, listen, shut down gracefully.

/** `options`: the events benchmark's baseline replaces the outbox (bench/parley-without-outbox.ts). */
export async function startServer(config: Config, options: Pick<AppDeps, 'outbox'> = {}): Promise<void> {
  const logger = createLogger(config);
  // Before the database: a file the configuration names and that cannot be read (a certificate,
  // WEBHOOK_CA_FILE) is a configuration error, reported at once.
  const { tls, webhookCa } = await readConfiguredFiles(config);
  const database = await openMigratedDatabase(config, logger);
  logger.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.DATA_DIR : undefined },
    'database ready',
  );

  const app = await buildApp({ config, database, logger, tls, webhookCa, ...options });
  await announceBootstrapKey(app.services.projects, config, tls !== undefined);

  const stop = gracefulShutdown(app, database, config, logger);
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  if (tls) process.on('SIGHUP', () => void reloadTls(app, config, logger));

  await app.listen({ port: config.PORT, host: config.HOST });
}

/**
 * The files the configuration names, read once: the server's certificate and key (D60) and the
 * webhook receivers' authorities (WEBHOOK_CA_FILE). Every file that cannot be read is named in
 * one ConfigError.
 */
async function readConfiguredFiles(
  config: Config,
): Promise<{ tls: TlsFiles | undefined; webhookCa: string | undefined }> {
  const [tls, webhookCa] = await Promise.allSettled([readTlsFiles(config), readWebhookCaFile(config)]);
  const problems = [tls, webhookCa].flatMap((read) => {
    if (read.status === 'fulfilled') return [];
    if (read.reason instanceof ConfigError) return read.reason.problems;
    throw read.reason;
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    tls: tls.status === 'fulfilled' ? tls.value : undefined,
    webhookCa: webhookCa.status === 'fulfilled' ? webhookCa.value : undefined,
  };
}

/** D60: the certificate and key files, or undefined when HTTPS is not configured. */
async function readTlsFiles(config: Config): Promise<TlsFiles | undefined> {
  if (config.TLS_CERT_FILE === undefined || config.TLS_KEY_FILE === undefined) return undefined;
  const problems: string[] = [];
  const read = (name: 'TLS_CERT_FILE' | 'TLS_KEY_FILE', path: string) =>
    readFile(path).catch((error: NodeJS.ErrnoException) => {
      problems.push(`${name}: cannot read ${path} (${error.code ?? error.message})`);
      return Buffer.alloc(0);
    });
  const [cert, key] = [
    await read('TLS_CERT_FILE', config.TLS_CERT_FILE),
    await read('TLS_KEY_FILE', config.TLS_KEY_FILE),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return { cert, key };
}

/**
 * D60: on SIGHUP the certificate and key are read again and used for new connections (a renewed
 * certificate takes effect without a restart); open connections keep theirs. A file that cannot be
 * read, or a pair that does not match, is logged and the running certificate stays.
 */
async function reloadTls(app: FastifyInstance, config: Config, logger: Logger): Promise<void> {
  try {
    const tls = await readTlsFiles(config);
    (app.server as unknown as HttpsServer).setSecureContext(tls!);
    logger.info({ certFile: config.TLS_CERT_FILE }, 'TLS certificate reloaded');
  } catch (error) {
    logger.error({ err: error }, 'TLS certificate reload failed; keeping the current one');
  }
}

/**
 * Opens the database and applies migrations, waiting for a Postgres that is not reachable yet
 * (starting) with backoff for up to DATABASE_WAIT_MS, so that an orchestrator can start both at
 * once. Errors that waiting cannot fix (bad credentials, a database that does not exist, a failing
 * migration) end the start at once.
 */
async function openMigratedDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const deadline = Date.now() + config.DATABASE_WAIT_MS;
  const openMigrated = async () => {
    const handle = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      readDatabaseUrl: config.READ_DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolMax: config.DATABASE_POOL_MAX,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      owner: { kind: 'server', url: localUrl(config), adminApi: config.ADMIN_TOKEN !== undefined },
    });
    try {
      // D47: under an advisory lock, so instances starting together apply them once.
      await runMigrations(handle);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  };
  return retryWithBackoff(
    // A missing database is not waited for: the error it becomes carries no SQLSTATE to retry on.
    () =>
      openMigrated().catch((error: unknown) =>
        Promise.reject(asDatabaseMissing(error, config.DATABASE_URL) ?? error),
      ),
    {
      retries: Number.POSITIVE_INFINITY,
      maxDelayMs: 5_000,
      shouldRetry: (error) =>
        config.DATABASE_URL !== undefined && isTransientConnectionError(error) && Date.now() < deadline,
      onRetry: (error, attempt, delayMs) =>
        logger.warn(
          { code: (error as { code?: string }).code, message: (error as Error).message, attempt, delayMs },
          'database not reachable yet; waiting',
        ),
    },
  );
}

/** Where this server can be reached from its own machine: what a refused `parley` command is pointed to. */
function localUrl(config: Config): string {
  const anyAddress = config.HOST === '0.0.0.0' || config.HOST === '::';
  const host = anyAddress ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}

/**
 * The shutdown sequence, all within SHUTDOWN_GRACE_MS: /readyz turns 503 at once; after
 * SHUTDOWN_DRAIN_MS the listener closes and idle connections with it, requests in flight finish,
 * onClose hooks run (the embedding worker finishes or releases its claimed jobs); then the
 * database closes (PGlite flushes its files) and the process exits 0. Past the grace period it
 * exits 1; nothing acknowledged is lost either way (D48: a 2xx is sent after the commit).
 */
function gracefulShutdown(app: FastifyInstance, database: DatabaseHandle, config: Config, logger: Logger) {
  let closing = false;
  return async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down');
    app.lifecycle.shuttingDown = true;
    const timer = setTimeout(() => {
      logger.error('grace period over; exiting with requests or jobs unfinished');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      if (config.SHUTDOWN_DRAIN_MS > 0) await sleep(config.SHUTDOWN_DRAIN_MS);
      await app.close();
      await database.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
}

async function announceBootstrapKey(projects: ProjectService, config: Config, https: boolean): Promise<void> {
  const { projectId, generatedKey } = await projects.ensureDefaultProject(config.BOOTSTRAP_API_KEY);
  if (generatedKey) {
    // D9: printed once, on the first start; only its hash is kept.
    process.stdout.write(
      `\nParley created the project "default" (${projectId}) and this API key for it.\n` +
        `It is shown only now; keep it somewhere safe:\n\n    ${generatedKey}\n\n` +
        `Try: curl -H "Authorization: Bearer ${generatedKey}" ${https ? 'https' : 'http'}://localhost:${config.PORT}/api/v1/dialogue\n\n`,
    );
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  try {
    await startServer(loadConfig());
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof DataDirInUseError || error instanceof DatabaseMissingError) {
      // A message for a person, with what to do; a stack trace would only bury it.
      process.stderr.write(`Parley failed to start: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`Parley failed to start: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  }
}
