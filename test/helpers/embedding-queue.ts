import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../src/db/client.js';
import { eventually } from './eventually.js';

/** Waits until the in-process worker has embedded everything queued: the queue is empty. */
export async function untilEmbedded(db: Executor): Promise<void> {
  await eventually(
    async () => {
      const result = await db.execute(sql`SELECT count(*)::int AS n FROM embedding_jobs`);
      return rowsOf<{ n: number }>(result)[0]!.n === 0;
    },
    { what: 'the embedding queue to drain', timeoutMs: 60_000, intervalMs: 50 },
  );
}
