// Background deletions (idempotency records D75, events D65) find a batch of expired rows through a
// `created` index across projects, then delete them one project at a time: each statement names
// its project_id, so that on Citus it is routed to one shard (D49).

/** Rows one pruning statement deletes at most: small batches keep locks short. */
export const PRUNE_BATCH_ROWS = 500;

/** The keys of `rows`, grouped by project, in the order the projects first appear. */
export function keysByProject<T extends { projectId: string }, K>(
  rows: readonly T[],
  keyOf: (row: T) => K,
): Map<string, K[]> {
  const byProject = new Map<string, K[]>();
  for (const row of rows) {
    const keys = byProject.get(row.projectId);
    if (keys) keys.push(keyOf(row));
    else byProject.set(row.projectId, [keyOf(row)]);
  }
  return byProject;
}
