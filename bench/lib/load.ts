import autocannon from 'autocannon';

// One load generator for every figure and its baseline, so that ratios compare like with like.

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A body per request (picked afresh each time), or one fixed body. */
  body?: string | (() => string);
  /** A path per request, for lists that walk several cursors. */
  path?: () => string;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const { body, path } = spec;
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(spec.headers ?? {}) },
    connections: spec.connections,
    duration: spec.durationSeconds,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          ...(typeof body === 'function' ? { body: body() } : body !== undefined ? { body } : {}),
          ...(path ? { path: path() } : {}),
        }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export const formatLoad = (r: LoadResult) =>
  `${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms
    .toFixed(1)
    .padStart(6)} ms${r.errors || r.non2xx ? `  (errors ${r.errors}, non-2xx ${r.non2xx})` : ''}`;
