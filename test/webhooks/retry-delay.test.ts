import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../src/modules/webhooks/worker.js';

// D68: the n-th retry waits the schedule's n-th delay, +/- 50 % jitter; after the last, none.

describe('retryDelayMs (D68)', () => {
  const schedule = [5_000, 300_000];
  it('spreads each delay over 50 % to 150 % of the schedule', () => {
    expect(retryDelayMs(schedule, 1, () => 0)).toBe(2_500);
    expect(retryDelayMs(schedule, 1, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(schedule, 2, () => 0.999)).toBe(449_700);
  });
  it('gives none after the last retry (the delivery is dropped)', () => {
    expect(retryDelayMs(schedule, 3)).toBeUndefined();
  });
});
