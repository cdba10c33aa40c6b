import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { idleCores } from '../../src/embedders/idle-cpu.js';

// D190: the idle processor time that paces background embedding, from the host's counters and,
// under a cgroup v2 CPU quota, also from the part of the quota left unused.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-cgroup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // keeps this core busy
  }
};

describe('idle cores', () => {
  it("counts the host's idle cores when no quota limits the group", () => {
    writeFileSync(join(dir, 'cpu.max'), 'max 100000\n');
    const idle = idleCores(dir);
    spin(150);
    const reading = idle();
    expect(reading).toBeGreaterThanOrEqual(0);
    // This thread kept one core busy the whole time.
    expect(reading).toBeLessThanOrEqual(cpus().length - 0.5);
  });

  it('is never more than the unused part of a quota', () => {
    writeFileSync(join(dir, 'cpu.max'), '50000 100000\n');
    writeFileSync(join(dir, 'cpu.stat'), 'usage_usec 1000\nuser_usec 800\n');
    const idle = idleCores(dir);
    spin(50);
    // Nothing in the group used its half core.
    const unused = idle();
    expect(unused).toBeGreaterThanOrEqual(0);
    expect(unused).toBeLessThanOrEqual(0.5);
    // The group used far more than its quota allows in the window: nothing is idle.
    writeFileSync(join(dir, 'cpu.stat'), 'usage_usec 100001000\nuser_usec 800\n');
    spin(50);
    expect(idle()).toBe(0);
  });
});
