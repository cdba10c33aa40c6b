import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { readMigrationCount } from '../../db/migration-files.js';
import { migrationsApplied } from '../../db/migrate.js';

/**
 * D77: /readyz must turn 503 within 2 s of the database going away. A database that vanished
 * without a word (a network cut) answers nothing, and the connect timeout may be longer, so the
 * check gives up on its own after this long.
 */
export const READINESS_TIMEOUT_MS = 1_500;

type Readiness = 'ready' | 'migrations_pending' | 'database_unreachable';

/** Resolves with `fallback` when `promise` has not settled within `ms` (or rejects). */
async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise.catch(() => fallback), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** D2: liveness, readiness (database reachable, migrations applied) and Prometheus metrics. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  const expectedMigrations = readMigrationCount();

  const readiness = async (): Promise<Readiness> => {
    await app.database.db.execute(sql`SELECT 1`);
    return (await migrationsApplied(app.database, expectedMigrations)) ? 'ready' : 'migrations_pending';
  };

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (app.lifecycle.shuttingDown) return reply.code(503).send({ status: 'shutting_down' });
    const status = await within(readiness(), READINESS_TIMEOUT_MS, 'database_unreachable' as Readiness);
    if (status === 'ready') return { status };
    return reply.code(503).send({ status });
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics()),
  );
};
