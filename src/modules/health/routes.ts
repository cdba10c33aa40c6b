import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { readMigrationCount } from '../../db/migration-files.js';
import { migrationsApplied } from '../../db/migrate.js';

/** D2: liveness, readiness (database reachable, migrations applied) and Prometheus metrics. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  const expectedMigrations = readMigrationCount();

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (app.lifecycle.shuttingDown) return reply.code(503).send({ status: 'shutting_down' });
    try {
      await app.database.db.execute(sql`SELECT 1`);
      if (!(await migrationsApplied(app.database, expectedMigrations))) {
        return reply.code(503).send({ status: 'migrations_pending' });
      }
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database_unreachable' });
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics()),
  );
};
