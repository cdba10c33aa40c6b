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
  /** Percentiles of every response's time (autocannon's own histogram has no 95th). */
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** What the first failed request met (a socket error or a timeout), when one failed. */
  firstError?: string;
}

/** One of `items` at random: what each request of a load sends or reads. */
export const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

/** The value below which a share `p` (0-1) of the sorted values lies. */
export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const { body, path } = spec;
  const times: number[] = [];
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
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
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  let firstError: string | undefined;
  instance!.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  instance!.on('reqError', (error) => {
    firstError ??= error.message;
  });
  const result = await finished;
  times.sort((a, b) => a - b);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    p99Ms: percentile(times, 0.99),
    errors: result.errors,
    non2xx: result.non2xx,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

export const formatLoad = (r: LoadResult) =>
  `${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms
    .toFixed(1)
    .padStart(6)} ms${r.errors || r.non2xx ? `  (errors ${r.errors}, non-2xx ${r.non2xx})` : ''}`;
