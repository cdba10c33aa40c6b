import { type SQL, sql } from 'drizzle-orm';

// The events table's part of a statement another module runs (published, as record-sql.ts files
// are, so that no module imports another's repository), and of the outbox's own insert.

/**
 * Events a statement of another module writes itself (the message append, where a statement of
 * its own would cost the hottest write a round trip): their ids in order, from the outbox.
 */
export interface EventReservation {
  ids: string[];
  /**
   * D191: the statement numbers them as it writes them (the embedded store, whose one connection
   * runs one write at a time), rather than leaving them to the sequencer after the commit.
   */
  numberAtInsert: boolean;
}

const eventColumns = 'project_id, id, type, namespace, dialogue_id, object_id, data';

/**
 * D63: writes events without a number, for the sequencer. `rows` selects (or lists, VALUES), in
 * this order: project_id, id, type, namespace, dialogue_id, object_id, data.
 */
export const insertEventsFrom = (rows: SQL): SQL =>
  sql`INSERT INTO events (${sql.raw(eventColumns)}) ${rows}`;

/**
 * D191: the WITH items that write the project's events numbered, the last of them named `e`.
 * `rows` is as for `insertEventsFrom`. The project's counter row moves on by their count in the
 * same statement, and the events take the numbers it passed over in the order of their ids (the
 * order they were made in, and the sequencer's).
 */
export const insertNumberedEventsFrom = (projectId: string, rows: SQL): SQL => sql`er AS (
      SELECT r.*, row_number() OVER (ORDER BY r.id COLLATE "C") AS n
      FROM (${rows}) AS r(${sql.raw(eventColumns)})
    ), es AS (
      INSERT INTO event_sequences AS s (project_id, last_seq)
      SELECT ${projectId}::text, count(*) FROM er
      ON CONFLICT (project_id) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq
      RETURNING last_seq
    ), e AS (
      INSERT INTO events (${sql.raw(eventColumns)}, seq)
      SELECT ${sql.raw(
        eventColumns
          .split(', ')
          .map((column) => `er.${column}`)
          .join(', '),
      )}, es.last_seq - (SELECT count(*) FROM er) + er.n
      FROM er CROSS JOIN es
    )`;
