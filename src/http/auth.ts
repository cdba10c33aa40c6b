import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectSettings } from '../core/context.js';
import { AppError } from '../core/errors.js';
import { type Budget, type BudgetState, countAgainst, retryAfterSeconds } from './rate-limit.js';

interface AuthContext {
  projectId: string;
  keyId: string;
  /** The raw bearer key: used only to derive per-key identities (hashed) such as rate-limit buckets. */
  apiKey: string;
  settings: ProjectSettings;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

/** D76: failures are counted per address over a fixed window of a minute. */
const AUTH_FAILURE_WINDOW_SECONDS = 60;

/** Which credential failed: a project API key (REST and MCP) or the admin token. */
type Credential = 'api-key' | 'admin-token';

/**
 * D76: the failure budget of the caller's address (D45's address; IPv6 callers by /64, as one
 * host holds a whole /64), counted in the rate-limit store, so shared through Redis when
 * REDIS_URL is set. Admin-token failures have a budget of their own.
 */
function failureBudget(request: FastifyRequest, credential: Credential): Budget {
  const { config } = request.server;
  const address = normalizeIP(request.ip);
  return credential === 'api-key'
    ? {
        bucket: `auth-failures:${address}`,
        max: config.AUTH_FAILURE_LIMIT,
        windowSeconds: AUTH_FAILURE_WINDOW_SECONDS,
      }
    : {
        bucket: `admin-auth-failures:${address}`,
        max: config.ADMIN_AUTH_FAILURE_LIMIT,
        windowSeconds: AUTH_FAILURE_WINDOW_SECONDS,
      };
}

function tooManyFailures(state: BudgetState): AppError {
  const retryAfter = retryAfterSeconds(state);
  return new AppError(
    'RATE_LIMIT_EXCEEDED',
    `Too many failed authentication attempts from this address (limit ${state.max} per ${state.windowSeconds} s); retry in ${retryAfter} s`,
    undefined,
    retryAfter,
  );
}

/**
 * D6, D76: counts one authentication failure of the caller's address and refuses the request:
 * 401 UNAUTHORIZED within the address's budget, 429 RATE_LIMIT_EXCEEDED past it. `onBudgetSpent`
 * runs when this very failure spends the budget (still within it).
 */
export async function refuseCredential(
  request: FastifyRequest,
  reply: FastifyReply,
  credential: Credential,
  message: string,
  onBudgetSpent?: () => Promise<void>,
): Promise<never> {
  const state = await countAgainst(request, failureBudget(request, credential));
  if (state?.exceeded) throw tooManyFailures(state);
  if (state?.remaining === 0 && onBudgetSpent) {
    await onBudgetSpent().catch((error: unknown) =>
      request.log.warn({ err: error }, 'could not read the active API keys'),
    );
  }
  reply.header('www-authenticate', 'Bearer');
  throw new AppError('UNAUTHORIZED', message);
}

/**
 * D6: every API request needs a valid bearer key; the key decides the project (D46).
 *
 * D76: failures (missing, malformed, unknown or revoked key) are counted per address. Once an
 * address has spent its budget, a key this instance does not know is refused with 429 before
 * any database work; a key it knows (every active key, read at start and again whenever an
 * address spends its budget, plus the keys it has verified or created since) is looked up as
 * always, so a valid key is not held back, from any address.
 */
export async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { projects } = request.server.services;
  const reloadKeys = () => projects.reloadKeys();
  const header = request.headers.authorization;
  if (!header) {
    return refuseCredential(
      request,
      reply,
      'api-key',
      'Missing Authorization header: send "Authorization: Bearer <API key>"',
      reloadKeys,
    );
  }
  const match = BEARER.exec(header);
  if (!match) {
    return refuseCredential(
      request,
      reply,
      'api-key',
      'Malformed Authorization header: expected "Bearer <API key>"',
      reloadKeys,
    );
  }
  const apiKey = match[1]!;
  let lookup: Awaited<ReturnType<typeof reserveLookup>> | undefined;
  try {
    const check = await projects.checkKey(apiKey, {
      mayLookUpUnknown: async () => {
        lookup = await reserveLookup(request);
        return lookup.refused === undefined;
      },
    });
    if (!check.owner) {
      if (lookup?.refused) throw tooManyFailures(lookup.refused);
      return await refuseCredential(request, reply, 'api-key', 'Unknown or revoked API key', reloadKeys);
    }
    request.auth = {
      projectId: check.owner.projectId,
      keyId: check.owner.keyId,
      apiKey,
      settings: check.owner.settings,
    };
  } finally {
    lookup?.release();
  }
}

/** Per app and failure bucket: lookups of unknown keys begun and not yet counted. */
const lookupsInFlight = new WeakMap<FastifyInstance, Map<string, number>>();

/**
 * D76: whether the caller's address may have a key this instance does not know looked up: not
 * once its failures, counted ones and those still being looked up here, fill its budget (the
 * state to refuse with is returned then). Lookups in flight count, or a burst of concurrent
 * requests would all pass the check before the first of their failures is counted. `release`
 * ends the reservation, after the failure (if it is one) has been counted.
 */
async function reserveLookup(
  request: FastifyRequest,
): Promise<{ refused?: BudgetState; release: () => void }> {
  const budget = failureBudget(request, 'api-key');
  const state = await countAgainst(request, budget, { increment: false });
  // The store is unreachable: failures cannot be counted, so none are limited (as in D43).
  if (!state) return { release: () => {} };
  let inFlight = lookupsInFlight.get(request.server);
  if (!inFlight) {
    inFlight = new Map();
    lookupsInFlight.set(request.server, inFlight);
  }
  const pending = inFlight.get(budget.bucket) ?? 0;
  if (state.max - state.remaining + pending >= state.max) return { refused: state, release: () => {} };
  inFlight.set(budget.bucket, pending + 1);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      const left = (inFlight.get(budget.bucket) ?? 1) - 1;
      if (left > 0) inFlight.set(budget.bucket, left);
      else inFlight.delete(budget.bucket);
    },
  };
}
