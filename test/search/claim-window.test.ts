import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJobs, projectsWithDueJobs } from '../../src/modules/embeddings/repository.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { rowsRead } from '../helpers/explain.js';

// The embedding worker's claim looks for the projects whose jobs are due longest first. It reads
// the longest-due jobs only, not the whole queue: a bulk import leaves hundreds of thousands of
// jobs, and the worker claims a batch of them every few hundred milliseconds until they are done.

const QUEUED = 3000;
let database: TestDatabase;

/** Jobs for memories `prefix`1..`count` of `project`, due from `ageSeconds` ago, a millisecond apart. */
const queue = (project: string, prefix: string, count: number, ageSeconds: number, lockedSeconds = 0) =>
  database.handle.db.execute(sql`
    INSERT INTO embedding_jobs (project_id, object_type, object_id, run_at, locked_until)
    SELECT ${project}, 'memory', ${prefix} || g, now() - make_interval(secs => ${ageSeconds}) + g * interval '1 millisecond',
           CASE WHEN ${lockedSeconds}::int > 0 THEN now() + make_interval(secs => ${lockedSeconds}) END
    FROM generate_series(1, ${count}::int) AS g`);

beforeAll(async () => {
  database = await createTestDatabase();
  // Leased to a live worker: not due, though the oldest.
  await queue('prj_leased', 'mem_leased_', 5, 600, 300);
  await queue('prj_older', 'mem_older_', 2, 120);
  await queue('prj_bulk', 'mem_bulk_', QUEUED, 100);
  await queue('prj_newest', 'mem_newest_', 1, 1);
  await database.handle.db.execute(sql`ANALYZE embedding_jobs`);
});
afterAll(async () => {
  await database?.close();
});

describe("the embedding worker's claim", () => {
  it('reads the longest-due jobs, not the whole queue', async () => {
    const { read, plan } = await rowsRead(database.handle.db, projectsWithDueJobs(10), 'embedding_jobs');
    expect(read, plan).toBeLessThanOrEqual(1000 + 5);
  });

  it('claims the projects whose jobs are due longest first, skipping leased jobs', async () => {
    const claimed = await claimJobs(database.handle.db, 4, 60_000);
    expect(claimed.map((job) => job.objectId)).toEqual([
      'mem_older_1',
      'mem_older_2',
      'mem_bulk_1',
      'mem_bulk_2',
    ]);
  });
});
