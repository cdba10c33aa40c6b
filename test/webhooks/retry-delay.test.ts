import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom } from '../../src/config.js';
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

describe('WEBHOOK_* settings', () => {
  it("default to D68's schedule, 10 s per attempt and 5 days before a disable", () => {
    const config = configFrom({});
    expect(config.WEBHOOK_RETRY_SCHEDULE_MS).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
    ]);
    expect(config.WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(config.WEBHOOK_DISABLE_AFTER_MS).toBe(432_000_000);
    expect(config.WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(config.WEBHOOK_WORKER).toBe(true);
  });
  it('refuses a schedule that is not a list of milliseconds', () => {
    expect(() => configFrom({ WEBHOOK_RETRY_SCHEDULE_MS: '5s,10s' })).toThrow(ConfigError);
    expect(configFrom({ WEBHOOK_RETRY_SCHEDULE_MS: '10,20' }).WEBHOOK_RETRY_SCHEDULE_MS).toEqual([10, 20]);
  });
});
