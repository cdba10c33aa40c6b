import { sql } from 'drizzle-orm';

/**
 * The time of a change: the transaction's time, but never earlier than the row's last change.
 * Writers of one row hold its lock and see its latest committed version, so `modified` follows
 * their commit order (D32). Not `clock_timestamp()`, read under the lock, as before: Citus refuses
 * volatile functions in an UPDATE of a distributed table and evaluates `now()` on the coordinator
 * (docs/scaling.md).
 */
export const changeTime = sql`greatest(now(), modified)`;
