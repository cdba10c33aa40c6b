import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../observability/metrics.js';

// The HTTP side of the metrics (the registry itself is in src/observability/metrics.ts).

const REFUSAL_CODES = new Set(['RATE_LIMIT_EXCEEDED', 'PLAN_LIMIT_EXCEEDED']);

export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: ids would make the label set unbounded.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    const labels = { method: request.method, route, status };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 400) {
      const code = request.errorCode ?? 'UNKNOWN';
      metrics.httpErrors.inc({ ...labels, code });
      if (REFUSAL_CODES.has(code)) metrics.rateLimitRefusals.inc({ code });
    }
  });
}
