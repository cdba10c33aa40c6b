import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEvents } from '../../src/modules/events/repository.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { rowsRead } from '../helpers/explain.js';

// A page of the event feed joins only its own events to their messages. The statistics here say
// what they say after a burst of writes into a fresh table: ANALYZE saw no events, and 300 came
// since. The planner then reads every event after the cursor and sorts them; the page must still
// be cut before the join, or each of the 300 is joined (and its message's JSON built) for 10 kept.

const PROJECT = 'prj_feed_plan';
const EVENTS = 300;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${PROJECT}, 'feed plan')`);
  await db.execute(sql`INSERT INTO dialogues (project_id, id) VALUES (${PROJECT}, 'dlg_1')`);
  await db.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length)
    SELECT ${PROJECT}, 'dlg_1', 'msg_' || g, 'user', '"hello"', 5 FROM generate_series(1, ${EVENTS}::int) AS g`);
  await db.execute(sql`ANALYZE`);
  // message.created events that read their data from the message row (data null), numbered.
  await db.execute(sql`
    INSERT INTO events (project_id, id, seq, type, dialogue_id, object_id)
    SELECT ${PROJECT}, 'evt_' || lpad(g::text, 6, '0'), g, 'message.created', 'dlg_1', 'msg_' || g
    FROM generate_series(1, ${EVENTS}::int) AS g`);
});
afterAll(async () => {
  await database?.close();
});

describe('a page of the event feed (D65)', () => {
  const filter = { types: [], prefixes: [] };

  it('joins its own events to their messages, not every event after the cursor', async () => {
    const { db } = database.handle;
    const page = listEvents(db, PROJECT, 0, 10, filter);
    const { read, plan } = await rowsRead(db, page.getSQL(), 'messages');
    expect(read, plan).toBeLessThanOrEqual(10);
  });

  it('gives the page in feed order, each event with its message as data', async () => {
    const rows = await listEvents(database.handle.db, PROJECT, 290, 5, filter);
    expect(rows.map((event) => event.seq)).toEqual([291, 292, 293, 294, 295]);
    expect(rows.map((event) => (JSON.parse(event.data) as { id: string }).id)).toEqual([
      'msg_291',
      'msg_292',
      'msg_293',
      'msg_294',
      'msg_295',
    ]);
  });
});
