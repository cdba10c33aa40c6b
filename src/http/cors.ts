import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

// CORS for browser applications (docs/api-decisions.md, "CORS"): off unless CORS_ORIGINS names the
// origins allowed to call the API from a page. Credentials are API keys in a header, never cookies,
// so credentialed requests stay off and `*` is a valid choice.

/** Request headers a browser client sends beyond the CORS-safelisted ones. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'last-event-id', 'x-request-id'];

/** Response headers a page may read: ids for support, and what tells a client when to retry. */
const EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'idempotent-replayed',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'www-authenticate',
  'allow',
];

/** How long a browser may keep a preflight answer (s): preflights cost a round trip per route. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export async function registerCors(app: FastifyInstance, config: Config): Promise<void> {
  const origins = config.CORS_ORIGINS;
  if (!origins) return;
  await app.register(cors, {
    origin: origins === '*' ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // A preflight is answered before authentication, rate limiting and load shedding: it carries no key.
    hook: 'onRequest',
  });
}
