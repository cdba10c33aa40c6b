import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

// D190: how much processor time nobody used, the signal that paces background embedding.

/** Where a cgroup v2 process finds its own group's CPU limit and usage (inside a container too). */
const CGROUP_DIR = '/sys/fs/cgroup';

const readOr = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * The process's CPU limit in cores under a cgroup v2 quota (`cpu.max` "200000 100000" is 2 cores),
 * with a reader of the group's CPU time used so far; undefined without a quota ("max", cgroup v1,
 * or not Linux), where the host's idle time is the whole story.
 */
function cgroupQuota(dir: string): { cores: number; usedMs: () => number } | undefined {
  const [quota, period] = (readOr(join(dir, 'cpu.max')) ?? '').trim().split(/\s+/);
  if (!quota || quota === 'max' || !period) return undefined;
  const cores = Number(quota) / Number(period);
  const usedMs = () =>
    Number(/^usage_usec (\d+)$/m.exec(readOr(join(dir, 'cpu.stat')) ?? '')?.[1] ?? 0) / 1000;
  return Number.isFinite(cores) && cores > 0 ? { cores, usedMs } : undefined;
}

const hostIdleMs = () => cpus().reduce((sum, cpu) => sum + cpu.times.idle, 0);

/**
 * The cores left idle since the previous call, on average (0 to the number of cores): from the
 * operating system's idle time of every core and, in a group with a CPU quota, also the part of
 * the quota its processes did not use, whichever is smaller. It counts everything on the machine:
 * this process's threads, PostgreSQL, other programs. The idle counters move in ticks of about
 * 10 ms: a caller reads over windows of a tenth of a second or more.
 */
export function idleCores(cgroupDir = CGROUP_DIR): () => number {
  const quota = cgroupQuota(cgroupDir);
  const sample = () => ({ at: performance.now(), idle: hostIdleMs(), used: quota?.usedMs() ?? 0 });
  let since = sample();
  return () => {
    const now = sample();
    const elapsed = Math.max(1, now.at - since.at);
    const hostIdle = (now.idle - since.idle) / elapsed;
    const idle = quota ? Math.min(hostIdle, quota.cores - (now.used - since.used) / elapsed) : hostIdle;
    since = now;
    return Math.max(0, idle);
  };
}
