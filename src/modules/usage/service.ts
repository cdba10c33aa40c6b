import { randomInt } from 'node:crypto';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../core/errors.js';
import * as repo from './repository.js';

// D44: monthlyWriteQuota counts a project's writes per UTC calendar month.

/** Shard rows per project and month: up to this many writers of one project count at once. */
export const USAGE_SHARDS = 16;

/** `2026-11` for any moment of November 2026, UTC. */
const utcMonth = (now: Date): string => now.toISOString().slice(0, 7);

/** The first moment of the next UTC month: when a spent quota is available again. */
export const nextMonthStart = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

/**
 * The share of a quota that one shard may count. The shares add up to the quota, so counting
 * each shard up to its share can never let more than the quota through, however many writers
 * race, and no write waits for another one that counts on a different shard.
 */
export const shardShare = (quota: number, shard: number): number =>
  Math.floor(quota / USAGE_SHARDS) + (shard < quota % USAGE_SHARDS ? 1 : 0);

export interface UsageView {
  projectId: string;
  month: string;
  writes: number;
  monthlyWriteQuota: number | null;
  remaining: number | null;
  resetsAt: string;
}

/**
 * The fast path: counts the write on the first shard, from a random one, that is below its
 * share. Writers lock one shard row each, so up to USAGE_SHARDS of them count at once.
 */
async function countInShares(
  tx: Executor,
  projectId: string,
  month: string,
  quota: number,
): Promise<boolean> {
  // Shards with a share: all of them when quota >= USAGE_SHARDS, else the first `quota`.
  const shards = Math.min(quota, USAGE_SHARDS);
  const start = randomInt(shards);
  for (let i = 0; i < shards; i++) {
    const shard = (start + i) % shards;
    if (await repo.claimInShard(tx, projectId, month, shard, shardShare(quota, shard))) return true;
  }
  return false;
}

/**
 * Shares bound the total only while no shard is past its share, which happens once per quota
 * change: writes counted without a quota, or under a larger one, may sit anywhere. Then one
 * writer locks every shard row, counts against the true total and spreads the counts back
 * within the shares, after which writers take the fast path again.
 */
async function countRebalancing(
  tx: Executor,
  projectId: string,
  month: string,
  quota: number,
): Promise<boolean> {
  const locked = await repo.lockShards(tx, projectId, month, USAGE_SHARDS);
  let rest = locked.reduce((sum, { writes }) => sum + writes, 0) + 1;
  if (rest > quota) return false;
  const balanced = locked.map(({ shard }) => {
    const writes = Math.min(shardShare(quota, shard), rest);
    rest -= writes;
    return { shard, writes };
  });
  await repo.setShardCounts(
    tx,
    projectId,
    month,
    balanced.filter(({ writes }, i) => writes !== locked[i]!.writes),
  );
  return true;
}

/**
 * The common case of a project with a quota (above 0): the write counted on a random shard that
 * has a share, when that shard is below its share and no shard is past its own.
 */
function countWithinShares(projectId: string, month: string, quota: number) {
  const shard = randomInt(Math.min(quota, USAGE_SHARDS));
  return repo.incrementWithinSharesStatement(
    projectId,
    month,
    shard,
    quota,
    USAGE_SHARDS,
    shardShare(quota, shard),
  );
}

export interface UsageServiceDeps {
  /** The primary: counters move inside write transactions. */
  db: Database;
}

export function createUsageService({ db }: UsageServiceDeps) {
  function quotaExceeded(quota: number, now: Date): AppError {
    const resetsAt = nextMonthStart(now);
    const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
    return new AppError(
      'PLAN_LIMIT_EXCEEDED',
      `The monthly write quota of ${quota} is used up; writes are accepted again from ${resetsAt.toISOString()}. Reads keep working.`,
      undefined,
      retryAfter,
    );
  }

  return {
    /**
     * Counts one write inside the write's own transaction, so that a write that fails is not
     * counted (its increment rolls back). With a quota, refuses the write once it is spent.
     */
    async countWrite(tx: Executor, projectId: string, quota: number | null | undefined, now = new Date()) {
      const month = utcMonth(now);
      if (quota === null || quota === undefined) {
        await repo.incrementShard(tx, projectId, month, randomInt(USAGE_SHARDS));
        return;
      }
      // Most writes end here: one UPDATE of one shard row. The steps below decide the rest (a
      // full or missing shard row, a spent quota, counts to spread after a quota change).
      if (quota > 0 && (await repo.countedBy(tx, countWithinShares(projectId, month, quota)))) return;
      const shards = await repo.readShards(tx, projectId, month);
      // Counts never go down within a month: a committed total at the quota is final.
      if (shards.reduce((sum, { writes }) => sum + writes, 0) >= quota) throw quotaExceeded(quota, now);
      const counted = shards.some(({ shard, writes }) => writes > shardShare(quota, shard))
        ? await countRebalancing(tx, projectId, month, quota)
        : await countInShares(tx, projectId, month, quota);
      if (!counted) throw quotaExceeded(quota, now);
    },

    /**
     * D174: `countWrite` as the first part of a standalone write's statement, returning a row when
     * it counted: without a quota, always; with one, its common case (the write's shard below its
     * share, no shard past its own), and when that does not count the write's statement writes
     * nothing and the write runs in its transaction, where `countWrite` decides. Undefined for a
     * quota of 0, which refuses every write.
     */
    countWriteInStatement(projectId: string, quota: number | null | undefined, now = new Date()) {
      const month = utcMonth(now);
      if (quota === null || quota === undefined) {
        return repo.incrementShardStatement(projectId, month, randomInt(USAGE_SHARDS));
      }
      return quota > 0 ? countWithinShares(projectId, month, quota) : undefined;
    },

    /** This month's counters of a project (admin API, D7). */
    async currentUsage(
      projectId: string,
      quota: number | null | undefined,
      now = new Date(),
    ): Promise<UsageView> {
      const month = utcMonth(now);
      const writes = await repo.monthWrites(db, projectId, month);
      const limit = quota ?? null;
      return {
        projectId,
        month,
        writes,
        monthlyWriteQuota: limit,
        remaining: limit === null ? null : Math.max(0, limit - writes),
        resetsAt: nextMonthStart(now).toISOString(),
      };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
