import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toClientDatabaseError } from '../db/errors.js';
import { errorBody } from '../core/error-envelope.js';
import { type AllowedMethods, methodNotAllowed } from './method-not-allowed.js';
import { AppError, type ErrorCode, isAppError } from '../core/errors.js';
import { RequestValidationError, toAppError } from '../core/validation.js';
import { ResponseValidationError } from './response-validation.js';

// One handler renders every error (D11-D14). No stack trace or SQL reaches a client.

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'REQUEST_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_INPUT',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MISSING_PARAMETER',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_INPUT',
  FST_ERR_BAD_URL: 'RESOURCE_NOT_FOUND',
  // A path segment longer than routerOptions.maxParamLength: no id is that long (D13).
  FST_ERR_MAX_PARAM_LENGTH: 'INVALID_PARAMETER',
  FST_ERR_ASYNC_CONSTRAINT: 'INVALID_PARAMETER',
};

/** `33554432` as `32 MiB (33554432 bytes)`: a limit a person can compare with what they sent. */
function describeByteLimit(bytes: number): string {
  const units: [number, string][] = [
    [1024 * 1024, 'MiB'],
    [1024, 'KiB'],
  ];
  const unit = units.find(([size]) => bytes >= size);
  if (!unit) return `${bytes} bytes`;
  return `${Number((bytes / unit[0]).toFixed(1))} ${unit[1]} (${bytes} bytes)`;
}

/** `bodyLimit`: the limit of the request's route, named in a 413 (BODY_LIMIT_BYTES unless a route sets its own). */
export function toClientError(error: unknown, bodyLimit?: number): AppError {
  if (isAppError(error)) return error;
  if (error instanceof RequestValidationError) return toAppError(error);
  // Raised only with buildApp's `validateResponses` (tests): its message names the route, status
  // and problems, so that the failing test shows them in the body it prints.
  if (error instanceof ResponseValidationError) return new AppError('INTERNAL_ERROR', error.message);
  const fastifyCode = (error as FastifyError)?.code;
  if (fastifyCode && fastifyCode in fastifyCodes) {
    const code = fastifyCodes[fastifyCode]!;
    const messages: Partial<Record<ErrorCode, string>> = {
      REQUEST_TOO_LARGE:
        bodyLimit === undefined
          ? 'The request body is larger than this server accepts'
          : `The request body exceeds the limit of ${describeByteLimit(bodyLimit)}`,
      UNSUPPORTED_MEDIA_TYPE: 'Send request bodies as JSON: application/json, text/plain or no Content-Type',
      MISSING_PARAMETER: 'A JSON request body is required',
    };
    return new AppError(code, messages[code] ?? (error as Error).message);
  }
  // Before the database's translation: a request body cut off by its client is ECONNRESET too.
  const status = (error as FastifyError)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError('INVALID_INPUT', (error as Error).message);
  }
  // D77: the database gone away is 503 SERVICE_UNAVAILABLE with Retry-After, never 500.
  const databaseError = toClientDatabaseError(error);
  if (databaseError) return databaseError;
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred', undefined, 1);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The code of the error answered, for the request log line and the error metrics. */
    errorCode?: ErrorCode;
  }
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  check = request.server.responseCheck,
): FastifyReply {
  request.errorCode = error.code;
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  const body = errorBody(error.code, error.message, request.id, error.details);
  if (check) {
    // Test mode: an envelope that does not match the schema its route declares for the status.
    try {
      check(request, error.status, body);
    } catch (mismatch) {
      request.log.error({ err: mismatch }, 'request failed');
      return sendError(request, reply, toClientError(mismatch), undefined);
    }
  }
  return reply.code(error.status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/**
 * Fastify's `frameworkErrors`: errors its router raises before any hook or handler runs (a URL
 * that does not decode, an over-long path parameter). Without it Fastify answers with its own
 * body, not the envelope of D11.
 */
export function renderFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header('x-request-id', request.id);
  sendError(request, reply, toClientError(error));
}

/**
 * Logs an error as answered: a failure of ours at error level with its stack; the service being
 * away (503, e.g. the database restarting, D77) at warn level, once per request and without the
 * stack, which would flood the log during an outage; a refusal of the client's request at info.
 */
export function logAnswered(
  request: FastifyRequest,
  error: unknown,
  clientError: AppError,
  what: string,
  fields: Record<string, unknown> = {},
): void {
  if (clientError.status === 503) {
    request.log.warn(
      { ...fields, code: clientError.code, cause: (error as Error)?.message },
      `${what}: unavailable`,
    );
  } else if (clientError.status >= 500) request.log.error({ ...fields, err: error }, `${what} failed`);
  else request.log.info({ ...fields, code: clientError.code }, `${what} refused`);
}

/** `allowedMethods` tells a path no method of which matched from a path no route has (D84). */
export function registerErrorHandling(app: FastifyInstance, allowedMethods: AllowedMethods): void {
  app.setErrorHandler((error, request, reply) => {
    const clientError = toClientError(error, request.routeOptions.bodyLimit);
    logAnswered(request, error, clientError, 'request');
    return sendError(request, reply, clientError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedMethods(path);
    const wrongMethod = methodNotAllowed(request.method, path, allowed);
    if (wrongMethod) {
      reply.header('allow', allowed.join(', '));
      return sendError(request, reply, wrongMethod);
    }
    return sendError(
      request,
      reply,
      new AppError('RESOURCE_NOT_FOUND', `No route ${request.method} ${path}`),
    );
  });
}
