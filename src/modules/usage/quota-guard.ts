import type { UsageService } from './service.js';
import type { WriteGuard } from '../../db/unit-of-work.js';

/**
 * D44: the plan quota as a write guard. `runWrite` runs it inside every write's transaction
 * (REST and MCP), or in a standalone write's statement (D174), so a write is counted exactly when
 * it commits, and refused with 429 PLAN_LIMIT_EXCEEDED once the project's monthlyWriteQuota is
 * spent. Reads never get here.
 */
export function quotaGuard(usage: UsageService): WriteGuard {
  const guard: WriteGuard = (tx, { projectId, settings }) =>
    usage.countWrite(tx, projectId, settings.monthlyWriteQuota);
  // D174: the write counted by the write's own statement; when the common case of a quota does
  // not count it, the statement writes nothing and the transaction above decides.
  guard.inStatement = ({ projectId, settings }) =>
    usage.countWriteInStatement(projectId, settings.monthlyWriteQuota);
  return guard;
}
