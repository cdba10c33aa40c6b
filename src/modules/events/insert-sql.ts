import { type SQL, sql } from 'drizzle-orm';

// The events table's part of a statement another module runs (published, as record-sql.ts files
// are, so that no module imports another's repository).

/**
 * D63: the part of another module's statement that writes its events itself (the message append,
 * where a statement of its own would cost the hottest write a round trip). `rows` selects, in
 * this order: project_id, id, type, namespace, dialogue_id, object_id, data.
 */
export const insertEventsFrom = (rows: SQL): SQL =>
  sql`INSERT INTO events (project_id, id, type, namespace, dialogue_id, object_id, data) ${rows}`;
