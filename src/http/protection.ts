import type { FastifyInstance } from 'fastify';
import { authenticate } from './auth.js';
import { enforceIpAllowList } from './ip-allow-list.js';
import { enforceRateLimit } from './rate-limit.js';

/**
 * Guards every route of `scope` that is called with a project API key, REST and MCP alike, in
 * this order: who is calling (D6), from where (D45), how often (D43). A refused caller is not
 * counted by the rate limit; the plan quota (D44) is counted later, by the write itself.
 */
export function guardProjectRoutes(scope: FastifyInstance): void {
  scope.addHook('onRequest', authenticate);
  scope.addHook('onRequest', enforceIpAllowList);
  scope.addHook('onRequest', enforceRateLimit);
}
