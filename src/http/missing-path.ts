import type { FastifyInstance, HTTPMethods } from 'fastify';
import { AppError } from '../core/errors.js';

/**
 * 400 MISSING_PARAMETER for operations whose path id is left out (docs/api-decisions.md: `DELETE /dialogue`,
 * `GET /message/`): such paths answer that, after authentication, instead of an unknown route.
 * They stay out of the OpenAPI document.
 */
export function refuseMissingPathParameter(
  app: FastifyInstance,
  methods: HTTPMethods[],
  url: string,
  field: string,
): void {
  app.route({
    method: methods,
    url,
    schema: { hide: true },
    handler: async () => {
      throw new AppError('MISSING_PARAMETER', `${field}: required in the path`, [
        { field, code: 'MISSING_PARAMETER', message: 'required in the path' },
      ]);
    },
  });
}
