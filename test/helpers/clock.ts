import { eventually } from './eventually.js';

/**
 * Waits until the wall clock has moved past `instant` (an ISO timestamp or epoch milliseconds), so
 * that what is written next gets a later timestamp than what was written before. The API's
 * timestamps have millisecond precision: the wait is the signal "a new millisecond began", not a
 * guess at how long that takes.
 */
export async function untilClockPasses(instant: string | number): Promise<void> {
  const at = typeof instant === 'string' ? Date.parse(instant) : instant;
  if (Number.isNaN(at)) throw new Error(`not a timestamp: ${instant}`);
  await eventually(() => Date.now() > at, { what: `the clock to pass ${instant}`, intervalMs: 1 });
}
