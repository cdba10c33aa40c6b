import { pino } from 'pino';
import { buildApp, loggerRedaction } from './app.js';
import { ConfigError, type Config, loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { retryWithBackoff } from './lib/retry.js';

// Entry: read config, open the database, migrate, build the app, listen, shut down gracefully.

export async function startServer(config: Config): Promise<void> {
  const logger = pino({ level: config.LOG_LEVEL, redact: loggerRedaction });

  const database: DatabaseHandle = await retryWithBackoff(
    async () => {
      const handle = await openDatabase({
        databaseUrl: config.DATABASE_URL,
        readDatabaseUrl: config.READ_DATABASE_URL,
        dataDir: config.DATA_DIR,
        poolMax: config.DATABASE_POOL_MAX,
      });
      try {
        await runMigrations(handle);
        return handle;
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    {
      // Waiting for the database instead of crashing lets an orchestrator start both at once.
      retries: config.DATABASE_URL ? 30 : 0,
      onRetry: (error, attempt, delayMs) =>
        logger.warn({ err: error, attempt, delayMs }, 'database not ready; retrying'),
    },
  );
  logger.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.DATA_DIR : undefined },
    'database ready',
  );

  const app = await buildApp({ config, database, logger });
  await announceBootstrapKey(app.services.projects, config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    app.lifecycle.shuttingDown = true;
    const timer = setTimeout(() => {
      logger.error('grace period over; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      // Stops accepting, lets requests in flight finish, runs onClose hooks (workers stop).
      await app.close();
      await database.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

async function announceBootstrapKey(
  projects: import('./modules/projects/service.js').ProjectService,
  config: Config,
): Promise<void> {
  const { projectId, generatedKey } = await projects.ensureDefaultProject(config.BOOTSTRAP_API_KEY);
  if (generatedKey) {
    // D9: printed once, on the first start; only its hash is kept.
    process.stdout.write(
      `\nParley created the project "default" (${projectId}) and this API key for it.\n` +
        `It is shown only now; keep it somewhere safe:\n\n    ${generatedKey}\n\n` +
        `Try: curl -H "Authorization: Bearer ${generatedKey}" http://localhost:${config.PORT}/api/v1/dialogue\n\n`,
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
    process.stderr.write(`Parley failed to start: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  }
}
