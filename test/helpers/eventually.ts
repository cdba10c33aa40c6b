import { setTimeout as pause } from 'node:timers/promises';

export interface EventuallyOptions {
  /** What is awaited, for the error when it never comes. */
  what?: string;
  /** A bound on the wait, never an assertion about speed: generous, so a loaded machine passes. */
  timeoutMs?: number;
  /** How often the probe runs. */
  intervalMs?: number;
}

/**
 * The one way tests wait for something asynchronous that sends no signal of its own (a worker's
 * batch, a delivery, a row another process writes): runs `probe` until it returns a value other
 * than `undefined`, `null` or `false`, and returns that value. A thrown error counts as "not yet",
 * and the last one is reported if the bound runs out.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  { what = 'the condition', timeoutMs = 30_000, intervalMs = 25 }: EventuallyOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) {
        return value as Exclude<T, undefined | null | false>;
      }
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`, { cause: lastError });
    }
    await pause(intervalMs);
  }
}
