import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { type HttpPart, RequestValidationError } from '../core/validation.js';

/** Fastify validates every request part with its zod schema; failures become D12-D13 errors. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError((httpPart ?? 'body') as HttpPart, result.error.issues, data) };
  };
