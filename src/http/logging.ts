import type { FastifyInstance } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { Config } from '../config.js';

// Logs (issue 8): one line per request with its id, project, route, status and timing; never a
// key, a body or stored content.

/**
 * Paths pino replaces with "[redacted]": credentials in headers, and any field named like stored
 * content, should one ever be logged as an object. Error details from Postgres can quote a whole
 * failing row ("Failing row contains (...)"), so they go too.
 */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'authorization',
  'apiKey',
  '*.apiKey',
  'content',
  '*.content',
  'value',
  '*.value',
  'state',
  '*.state',
  'body',
  '*.body',
  'err.params',
  'err.detail',
  'err.cause.detail',
  'err.cause.params',
];

/** Drizzle's "Failed query: ...\nparams: ..." message carries the values of the query (content). */
function withoutParams(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');
}

/** pino's error serializer, with query parameters taken out of the message and the stack. */
export function serializeError(error: unknown): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  serialized.message = withoutParams(serialized.message);
  serialized.stack = withoutParams(serialized.stack);
  if (serialized.cause && typeof serialized.cause === 'object') {
    const cause = serialized.cause as Record<string, unknown>;
    cause.message = withoutParams(cause.message);
    cause.stack = withoutParams(cause.stack);
  }
  return serialized;
}

/** The process logger: JSON lines on stdout (or `destination`), redacted. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: { err: serializeError },
    },
    destination,
  );
}

/**
 * One "request completed" line per request, in place of Fastify's two (the app is built with
 * `disableRequestLogging`): the request id comes from the request's child logger (`reqId`), the
 * project from authentication when it ran, the route as its pattern (ids stay out of labels and
 * keys out of everything).
 */
export function registerRequestLogging(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        statusCode: reply.statusCode,
        projectId: request.auth?.projectId,
        errorCode: request.errorCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  });
}
