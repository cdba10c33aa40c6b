import type { FastifyInstance } from 'fastify';
import { memories } from '../../src/db/schema.js';
import { AppError } from '../../src/http/errors.js';
import { requireApiKey } from '../../src/http/protection.js';
import { sendWrite } from '../../src/http/writes.js';
import { newId } from '../../src/lib/ids.js';

export const PROBE = '/probe-api/probe';

/**
 * Routes guarded the way every API-key route is (`requireApiKey`), so that protection tests do
 * not hang on one resource's routes: GET reads; POST stores one memory row through `sendWrite`
 * (the real write path with its guards), and fails after storing it when `?fail=true`.
 */
export async function registerProbeRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    async (scope) => {
      requireApiKey(scope);
      scope.get('/probe', async (request) => ({ projectId: request.auth.projectId, ip: request.ip }));
      scope.get('/probe/missing', async () => {
        throw new AppError('RESOURCE_NOT_FOUND', 'nothing here');
      });
      scope.post('/probe', async (request, reply) =>
        sendWrite(request, reply, 201, async (tx) => {
          const id = newId('mem');
          await tx.insert(memories).values({ projectId: request.auth.projectId, id, value: 'probe' });
          if ((request.query as { fail?: string }).fail === 'true') {
            throw new AppError('INVALID_INPUT', 'failed after storing');
          }
          return { id };
        }),
      );
    },
    { prefix: '/probe-api' },
  );
}
