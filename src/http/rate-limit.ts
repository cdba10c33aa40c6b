import { createHash } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';

// D43: a rate limit per API key (fixed window), the server default overridden per project by
// settings.rateLimit. Counters live in memory, or in Redis when REDIS_URL is set so that every
// instance shares them (D49).

type RateLimitCheck = ReturnType<FastifyInstance['createRateLimit']>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts one request of `request.auth`'s key; see `enforceRateLimit`. */
    rateLimitCheck: RateLimitCheck;
  }
}

/** The limit that applies to an authenticated request: its project's, or the server default. */
function limitOf(request: FastifyRequest, config: Config): { max: number; windowSeconds: number } {
  return (
    request.auth.settings.rateLimit ?? {
      max: config.RATE_LIMIT_MAX,
      windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    }
  );
}

/**
 * The bucket of an API key. The key itself never reaches the store (Redis is often shared and
 * less guarded than the database): a hash of it, distinct from the one the database keeps. The
 * window is part of the bucket, so that a changed window starts a fresh count.
 */
export function rateLimitBucket(apiKey: string, windowSeconds: number): string {
  const hash = createHash('sha256').update('parley-rate-limit\u0000').update(apiKey).digest('hex');
  return `${hash.slice(0, 32)}:${windowSeconds}`;
}

function connectRedis(app: FastifyInstance, url: string): Redis {
  const redis = new Redis(url, {
    // A slow or absent Redis must not hold requests: fail a command fast and let it through
    // (see enforceRateLimit) rather than wait for reconnection.
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
  });
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store (Redis) error'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/** Registers the limiter and decorates the app with `rateLimitCheck`. */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyRateLimit, {
    // No route gets the plugin's own hook: the check runs after authentication, where the key
    // and its project's settings are known (enforceRateLimit, called by restApi and MCP).
    global: false,
    ...(config.REDIS_URL
      ? { redis: connectRedis(app, config.REDIS_URL), nameSpace: config.RATE_LIMIT_REDIS_PREFIX }
      : {}),
    keyGenerator: (request) => rateLimitBucket(request.auth.apiKey, limitOf(request, config).windowSeconds),
    max: (request) => limitOf(request, config).max,
    timeWindow: (request) => limitOf(request, config).windowSeconds * 1000,
  });
  app.decorate('rateLimitCheck', app.createRateLimit());
}

/**
 * D43: counts the request against its API key, sets X-RateLimit-Limit, X-RateLimit-Remaining and
 * X-RateLimit-Reset (a Unix time in seconds) and refuses with 429 RATE_LIMIT_EXCEEDED and
 * Retry-After once the window's budget is spent. Runs after `authenticate` and the IP
 * allow-list, for REST and MCP alike (one HTTP request counts once).
 */
export async function enforceRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  let state: Awaited<ReturnType<RateLimitCheck>>;
  try {
    state = await request.server.rateLimitCheck(request);
  } catch (error) {
    // The store is unreachable: serving without a limit beats refusing every request.
    request.log.warn({ err: error }, 'rate limit not checked: store unavailable');
    return;
  }
  if (state.isAllowed) return;
  const resetSeconds = Math.max(1, Math.ceil(state.ttl / 1000));
  reply.header('x-ratelimit-limit', String(state.max));
  reply.header('x-ratelimit-remaining', String(state.remaining));
  reply.header('x-ratelimit-reset', String(Math.ceil((Date.now() + state.ttl) / 1000)));
  if (state.isExceeded) {
    throw new AppError(
      'RATE_LIMIT_EXCEEDED',
      `Rate limit of ${state.max} requests per ${state.timeWindow / 1000} s exceeded; retry in ${resetSeconds} s`,
      undefined,
      resetSeconds,
    );
  }
}
