import { z } from 'zod';
import { type ErrorCode, type ErrorDetail, errorCodes } from './errors.js';

const errorDetailSchema = z.object({
  field: z.string(),
  code: z.string(),
  message: z.string(),
});

/** The error envelope of D11, as documented in OpenAPI. */
const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'DIALOGUE_NOT_FOUND' }),
      message: z.string(),
      type: z.enum([
        'validation_error',
        'authentication_error',
        'authorization_error',
        'not_found',
        'conflict',
        'rate_limit_exceeded',
        'server_error',
        'service_unavailable',
      ]),
      details: z.array(errorDetailSchema).optional(),
      requestId: z.string(),
      timestamp: z.string(),
    }),
  })
  .meta({ id: 'Error' });

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: ErrorDetail[]) {
  return {
    error: {
      code,
      message,
      type: errorCodes[code].type,
      ...(details && details.length > 0 ? { details } : {}),
      requestId,
      timestamp: new Date().toISOString(),
    },
  };
}

/** OpenAPI response entries for a route's error statuses. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelopeSchema])) as Record<
    number,
    typeof errorEnvelopeSchema
  >;
}
