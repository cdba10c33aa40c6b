import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryOptions {
  retries: number;
  /** First delay; each retry doubles it, up to maxDelayMs, with full jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  shouldRetry?: (error: unknown) => boolean;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** Exponential backoff with full jitter. */
export async function retryWithBackoff<T>(
  fn: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const { retries, baseDelayMs = 200, maxDelayMs = 5_000, shouldRetry = () => true } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= retries || !shouldRetry(error)) throw error;
      const delayMs = Math.round(Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt));
      options.onRetry?.(error, attempt + 1, delayMs);
      await sleep(delayMs);
    }
  }
}
