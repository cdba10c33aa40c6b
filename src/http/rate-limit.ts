import { createHash } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';

// One counter store for every limit: D43's per API key (fixed window, the server default
// overridden per project by settings.rateLimit) and D76's authentication failures per address.
// Counters live in memory, or in Redis when REDIS_URL is set so that every instance shares
// them (D49).

/** What one count is made against: a bucket of the store, its budget and its window. */
export interface Budget {
  bucket: string;
  max: number;
  windowSeconds: number;
}

/** A bucket's state after a count (or a read). */
export interface BudgetState {
  max: number;
  windowSeconds: number;
  /** Requests left in this window. */
  remaining: number;
  /** Until the window ends, in ms. */
  ttl: number;
  /** This request is past the budget. */
  exceeded: boolean;
}

type RateLimitCheck = ReturnType<FastifyInstance['createRateLimit']>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The plugin's check over the one store; see `countAgainst`. */
    rateLimitCheck: RateLimitCheck;
  }
}

/** The budget a request is being counted against, read by the plugin's key, max and window functions. */
const budgets = new WeakMap<FastifyRequest, Budget>();

function budgetOf(request: FastifyRequest): Budget {
  const budget = budgets.get(request);
  if (!budget) throw new Error('rate limit checked without a budget (use countAgainst)');
  return budget;
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

/** D43: the budget of an authenticated request's key: its project's limit, or the server default. */
function keyBudget(request: FastifyRequest, config: Config): Budget {
  const { max, windowSeconds } = request.auth.settings.rateLimit ?? {
    max: config.RATE_LIMIT_MAX,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  };
  return { bucket: rateLimitBucket(request.auth.apiKey, windowSeconds), max, windowSeconds };
}

function connectRedis(app: FastifyInstance, url: string): Redis {
  const redis = new Redis(url, {
    // A slow or absent Redis must not hold requests: fail a command fast and let it through
    // (see countAgainst) rather than wait for reconnection.
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
  });
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store (Redis) error'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/** Registers the limiter over the one store and decorates the app with `rateLimitCheck`. */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyRateLimit, {
    // No route gets the plugin's own hook: each count names its budget (countAgainst), from
    // the hooks that know it (enforceRateLimit after authentication, the failure limits of D76).
    global: false,
    ...(config.REDIS_URL
      ? { redis: connectRedis(app, config.REDIS_URL), nameSpace: config.RATE_LIMIT_REDIS_PREFIX }
      : // The in-memory store forgets the least recently counted buckets past this many; a
        // flood from many addresses must not push the API keys' counts out too soon.
        { cache: 100_000 }),
    keyGenerator: (request) => budgetOf(request).bucket,
    max: (request) => budgetOf(request).max,
    timeWindow: (request) => budgetOf(request).windowSeconds * 1000,
  });
  app.decorate('rateLimitCheck', app.createRateLimit());
}

/**
 * Counts `request` against `budget` (with `increment: false`, only reads the bucket). Undefined
 * when the store is unreachable: serving without a limit beats refusing every request.
 */
export async function countAgainst(
  request: FastifyRequest,
  budget: Budget,
  { increment = true }: { increment?: boolean } = {},
): Promise<BudgetState | undefined> {
  budgets.set(request, budget);
  let state: Awaited<ReturnType<RateLimitCheck>>;
  try {
    state = await request.server.rateLimitCheck(request, { increment });
  } catch (error) {
    request.log.warn({ err: error }, 'rate limit not checked: store unavailable');
    return undefined;
  } finally {
    budgets.delete(request);
  }
  if (state.isAllowed) return undefined;
  return {
    max: state.max,
    windowSeconds: budget.windowSeconds,
    remaining: state.remaining,
    ttl: state.ttl,
    exceeded: state.isExceeded,
  };
}

/** Seconds until a bucket's window ends, for Retry-After (at least 1). */
export const retryAfterSeconds = (state: BudgetState): number => Math.max(1, Math.ceil(state.ttl / 1000));

/**
 * D43: counts the request against its API key, sets X-RateLimit-Limit, X-RateLimit-Remaining and
 * X-RateLimit-Reset (a Unix time in seconds) and refuses with 429 RATE_LIMIT_EXCEEDED and
 * Retry-After once the window's budget is spent. Runs after `authenticate` and the IP
 * allow-list, for REST and MCP alike (one HTTP request counts once).
 */
export async function enforceRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const state = await countAgainst(request, keyBudget(request, request.server.config));
  if (!state) return;
  reply.header('x-ratelimit-limit', String(state.max));
  reply.header('x-ratelimit-remaining', String(state.remaining));
  reply.header('x-ratelimit-reset', String(Math.ceil((Date.now() + state.ttl) / 1000)));
  if (state.exceeded) {
    const retryAfter = retryAfterSeconds(state);
    throw new AppError(
      'RATE_LIMIT_EXCEEDED',
      `Rate limit of ${state.max} requests per ${state.windowSeconds} s exceeded; retry in ${retryAfter} s`,
      undefined,
      retryAfter,
    );
  }
}
