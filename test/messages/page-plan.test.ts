import { type SQL, fillPlaceholders, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oldRows, pageQuery } from '../../src/modules/messages/repository.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { rowsRead } from '../helpers/explain.js';

// A page of one dialogue reads that dialogue's rows only, whatever the statistics say (D184). Here
// they say what they say after a burst of writes into a fresh table: ANALYZE saw a project of one
// old dialogue, and 16 new ones then took 20,000 messages. With an index on (project_id, created)
// PostgreSQL served the old dialogue's latest page from it, backwards from the newest message of
// the project, and read all 20,000 to find its ten.

const PROJECT = 'prj_page_plan';
const OLD = 'dlg_old';
/** The 16 dialogues of the burst: dlg_new_0 to dlg_new_15. */
const NEW = 'dlg_new_';
const BURST = 20_000;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${PROJECT}, 'page plan')`);
  await db.execute(sql`
    INSERT INTO dialogues (project_id, id) SELECT ${PROJECT}, ${OLD}
    UNION ALL SELECT ${PROJECT}, ${NEW} || i FROM generate_series(0, 15) AS i`);
  await db.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text, created, modified)
    SELECT ${PROJECT}, ${OLD}, 'msg_old_' || g, 'user', '"message number ' || g || '"', 16,
           'message number ' || g, now() - interval '1 day' + g * interval '1 millisecond', now()
    FROM generate_series(1, 500) AS g`);
  await db.execute(sql`ANALYZE`);
  // The burst: short messages, written together (one time), message g into new dialogue g % 16.
  await db.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text, created, modified)
    SELECT ${PROJECT}, ${NEW} || (g % 16), 'msg_new_' || g, 'user', '"x"', 1, 'x', now(), now()
    FROM generate_series(1, ${BURST}::int) AS g`);
});
afterAll(async () => {
  await database?.close();
});

/** Parley's page statement, its placeholders bound to this dialogue's values. */
function pageStatement(dialogueId: string, order: 'asc' | 'desc', limit: number): SQL {
  const shape = { order, after: false, from: false, before: false };
  const { sql: text, params } = pageQuery(database.handle.db, shape).getQuery();
  const values = fillPlaceholders(params, { projectId: PROJECT, dialogueId, limit });
  // The text's $n become the values again, bound in their place.
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`)));
}

describe("a page of one dialogue's messages (D184)", () => {
  it('reads only its own rows: the latest ten of an old dialogue after a burst into newer ones', async () => {
    const { read, plan } = await rowsRead(database.handle.db, pageStatement(OLD, 'desc', 10), 'messages');
    expect(read, plan).toBeLessThanOrEqual(11);
  });
});

describe("the retention sweeper's batch (D151, D184)", () => {
  it("reads the project's oldest messages from its own index, not the whole project", async () => {
    const batch = oldRows(PROJECT, { scope: { except: [] }, before: new Date(Date.now() - 3_600_000) });
    const next = batch.next(database.handle.db, 50) as unknown as { getSQL(): SQL };
    const { read, plan } = await rowsRead(database.handle.db, next.getSQL(), 'messages');
    expect(plan).toContain('messages_retention_idx');
    expect(read, plan).toBeLessThanOrEqual(51);
  });
});
