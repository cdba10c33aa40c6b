import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDialogues } from '../../src/modules/dialogues/repository.js';
import { listMemories } from '../../src/modules/memories/repository.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { rowsRead } from '../helpers/explain.js';

// D185: a list of one namespace (one end user's dialogues or memories, D34) reads that
// namespace's rows, not the project's. A project of 100 users here: without an index by
// namespace, a page of one user's 20 read all 5,000 rows of the project.

const PROJECT = 'prj_namespace_list';
const ROWS = 5000;
const USERS = 100;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${PROJECT}, 'namespace list')`);
  // Row g belongs to user g % USERS, a minute after row g - 1: every user's rows spread over all.
  const spread = sql`now() - interval '1 year' + g * interval '1 minute'`;
  await db.execute(sql`
    INSERT INTO dialogues (project_id, id, namespace, created, modified)
    SELECT ${PROJECT}, 'dlg_' || g, 'user_' || (g % ${USERS}::int), ${spread}, ${spread}
    FROM generate_series(1, ${ROWS}::int) AS g`);
  await db.execute(sql`
    INSERT INTO memories (project_id, id, namespace, value, created, modified)
    SELECT ${PROJECT}, 'mem_' || g, 'user_' || (g % ${USERS}::int), 'likes tea', ${spread}, ${spread}
    FROM generate_series(1, ${ROWS}::int) AS g`);
  await db.execute(sql`ANALYZE`);
});
afterAll(async () => {
  await database?.close();
});

describe("a list of one namespace's objects (D185)", () => {
  for (const order of ['desc', 'asc'] as const) {
    it(`reads that namespace's dialogues only, ${order}`, async () => {
      const { db } = database.handle;
      const page = listDialogues(db, PROJECT, {
        namespace: 'user_7',
        threadsOnly: false,
        tags: [],
        ttlSeconds: null,
        order,
        limit: 21,
      });
      const { read, plan } = await rowsRead(db, page.getSQL(), 'dialogues');
      expect(read, plan).toBeLessThanOrEqual(21);
    });

    it(`reads that namespace's memories only, ${order}`, async () => {
      const { db } = database.handle;
      const page = listMemories(db, PROJECT, { namespace: 'user_7', tags: [], order, limit: 21 });
      const { read, plan } = await rowsRead(db, page.getSQL(), 'memories');
      expect(read, plan).toBeLessThanOrEqual(21);
    });
  }
});
