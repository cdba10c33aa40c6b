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
      code: z
        .string()
        .describe(
          "A stable code from the API's list; each operation's error responses name those it can return",
        ),
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
  .meta({ id: 'Error', description: 'The error envelope every failure is answered with (D11)' });

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

/**
 * The codes a bare status stands for in `errorResponses`: those every route of the kind can answer.
 * Codes only some routes answer (a resource's NOT_FOUND, DIALOGUE_ENDED, ...) are named by the route;
 * a status missing here stands for every code of that status.
 */
const codesOfStatus: Record<number, ErrorCode[]> = {
  400: ['INVALID_INPUT', 'INVALID_PARAMETER', 'MISSING_PARAMETER'],
  401: ['UNAUTHORIZED'],
  403: ['IP_NOT_ALLOWED'],
  409: ['RESOURCE_CONFLICT'],
  410: ['EVENTS_EXPIRED'],
  429: ['RATE_LIMIT_EXCEEDED'],
  502: ['UPSTREAM_ERROR'],
  503: ['SERVICE_UNAVAILABLE'],
  504: ['UPSTREAM_TIMEOUT'],
};

const codesWithStatus = (status: number) =>
  (Object.keys(errorCodes) as ErrorCode[]).filter((code) => errorCodes[code].status === status);

const statusTitles: Record<number, string> = {
  400: 'The request is invalid',
  401: 'The key is missing, unknown or revoked',
  403: 'Refused: the address is not allowed for this key, or the Origin or Host is foreign',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'Gone',
  429: 'Too many requests or over the plan quota; retry after Retry-After seconds',
  502: 'The upstream model failed',
  503: 'The server is overloaded, shutting down or without its database; retry after Retry-After seconds',
  504: 'The upstream model did not answer in time',
};

/** Example messages for the documented examples; any code without one gets a generic text. */
const exampleMessages: Partial<Record<ErrorCode, string>> = {
  INVALID_INPUT: 'role: Invalid option: expected one of "user"|"assistant"|"system"|"tool"|"developer"',
  UNAUTHORIZED: 'Missing or invalid API key',
  IP_NOT_ALLOWED: 'Requests from this address are not allowed for this key',
  DIALOGUE_NOT_FOUND: 'Dialogue dlg_01jf3c9r0d6e8x2v7m4k5n1p0q not found',
  RATE_LIMIT_EXCEEDED: 'Rate limit exceeded, retry in 12 seconds',
  SERVICE_UNAVAILABLE: 'The server is overloaded; retry the request',
  EVENTS_EXPIRED:
    'Events after seq 12 have been pruned; the oldest kept seq is 40 (pass after=0 to read from it)',
};

const exampleFor = (code: ErrorCode) => ({
  error: {
    code,
    message: exampleMessages[code] ?? code.toLowerCase().replaceAll('_', ' '),
    type: errorCodes[code].type,
    requestId: 'req_01jf3c9r0d6e8x2v7m4k5n1p0q',
    timestamp: '2026-01-15T09:30:00.000Z',
  },
});

/** One status's entry: the envelope, the codes it carries on this route, an example of the first. */
export interface ErrorResponse {
  description: string;
  content: { 'application/json': { schema: typeof errorEnvelopeSchema; example: unknown } };
}

/**
 * OpenAPI response entries for a route's errors. Each argument is a status, standing for the codes
 * every route answers with it (codesOfStatus), or a code, listed under its own status. 503 is added
 * to every route: load shedding, shutdown and database outages answer it anywhere; so are the 403s
 * of a foreign Origin or Host (D100).
 */
export function errorResponses(...entries: (number | ErrorCode)[]): Record<number, ErrorResponse> {
  const byStatus = new Map<number, ErrorCode[]>();
  const add = (status: number, codes: ErrorCode[]) =>
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), ...codes])]);
  // D100: the Origin and Host checks run before routing, on every route.
  for (const entry of [...entries, 'ORIGIN_NOT_ALLOWED', 'HOST_NOT_ALLOWED', 503] as const) {
    if (typeof entry === 'number') add(entry, codesOfStatus[entry] ?? codesWithStatus(entry));
    else add(errorCodes[entry].status, [entry]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      {
        description: `${statusTitles[status] ?? 'Error'}. Codes: ${codes.map((c) => `\`${c}\``).join(', ')}`,
        content: { 'application/json': { schema: errorEnvelopeSchema, example: exampleFor(codes[0]!) } },
      },
    ]),
  );
}
