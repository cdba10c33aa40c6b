import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from './client.js';

interface ExplainedNode {
  'Plan Rows': number;
  /** Citus: the statement as sent to the worker that runs it, with that worker's own plan. */
  'Distributed Query'?: { Job?: { Tasks?: { 'Remote Plan'?: { Plan: ExplainedNode }[][] }[] } };
}

/**
 * The rows the planner expects `statement` to return, from its statistics, without running it
 * (EXPLAIN without ANALYZE: one planning, no rows read). On Citus the coordinator's figure for a
 * statement routed to one worker is a placeholder; the worker's own plan, which EXPLAIN includes,
 * holds the estimate.
 */
export async function estimatedRows(db: Executor, statement: SQL): Promise<number> {
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`EXPLAIN (FORMAT JSON) ${statement}`));
  const raw = Object.values(row ?? {})[0];
  const [{ Plan: plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: ExplainedNode }];
  const remote = plan['Distributed Query']?.Job?.Tasks?.[0]?.['Remote Plan']?.[0]?.[0]?.Plan;
  return Number((remote ?? plan)['Plan Rows']);
}
