import { type DestinationStream, type Logger, pino } from 'pino';
import type { Config } from '../config.js';

// Logs: one line per request with its id, project, route, status and timing; never a
// key, a body or stored content.

/**
 * Paths pino replaces with "[redacted]": credentials in headers, and any field named like stored
 * content, should one ever be logged as an object. Error details from Postgres can quote a whole
 * failing row ("Failing row contains (...)"), so they go too.
 */
const redactPaths = [
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
];

/**
 * Errors as logged: type, message, code, the stack's frames and the cause, but never a value the
 * database was given. Drizzle's "Failed query: ...\nparams: ..." message lists the parameters of
 * the query (message content, key hashes), and Postgres data exceptions (class 22) quote the
 * offending value, so those are replaced; `detail` ("Failing row contains (...)") is dropped.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const e = error as Record<string, unknown> & { constructor?: { name?: string } };
  const type = e.constructor?.name ?? 'Error';
  const code = typeof e.code === 'string' ? e.code : undefined;
  let message = typeof e.message === 'string' ? e.message : String(error);
  if ('params' in e && typeof e.query === 'string') message = `Failed query: ${e.query}`;
  else if (code && /^22[0-9A-Z]{3}$/.test(code)) message = `data exception ${code} (value not logged)`;
  const frames =
    typeof e.stack === 'string' ? e.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
  const serialized: Record<string, unknown> = {
    type,
    message,
    stack: [`${type}: ${message}`, ...frames].join('\n'),
  };
  for (const key of ['code', 'constraint', 'table', 'column', 'schema', 'severity', 'statusCode'] as const) {
    if (typeof e[key] === 'string' || typeof e[key] === 'number') serialized[key] = e[key];
  }
  if (e.cause !== undefined && depth < 4) serialized.cause = serializeError(e.cause, depth + 1);
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
