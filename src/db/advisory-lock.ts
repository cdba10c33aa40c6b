import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from './client.js';

const POLL_MS = 100;

/**
 * Runs fn while holding a session advisory lock on this connection, taken by polling
 * pg_try_advisory_lock instead of waiting in pg_advisory_lock. A session that waits inside a
 * statement holds a snapshot, and CREATE INDEX CONCURRENTLY in the session holding the lock waits
 * for every older snapshot to go away: the two would wait for each other (Postgres reports a
 * deadlock). Between polls this session holds nothing.
 */
export async function withPolledAdvisoryLock<T>(
  db: Database,
  lockId: number,
  fn: () => Promise<T>,
): Promise<T> {
  for (;;) {
    const result = await db.execute(sql`SELECT pg_try_advisory_lock(${lockId}) AS locked`);
    if (rowsOf<{ locked: boolean }>(result)[0]?.locked) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await fn();
  } finally {
    await db.execute(sql`SELECT pg_advisory_unlock(${lockId})`);
  }
}
