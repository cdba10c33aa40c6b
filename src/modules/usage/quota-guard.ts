import type { UsageService } from './service.js';
import type { WriteGuard } from '../../db/unit-of-work.js';

/**
 * D44: the plan quota as a write guard. `runWrite` runs it inside every write's transaction
 * (REST and MCP), so a write is counted exactly when it commits, and refused with 429
 * PLAN_LIMIT_EXCEEDED once the project's monthlyWriteQuota is spent. Reads never get here.
 */
export function quotaGuard(usage: UsageService): WriteGuard {
  return (tx, { projectId, settings }) => usage.countWrite(tx, projectId, settings.monthlyWriteQuota);
}
