import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDialogues } from '../../src/modules/dialogues/repository.js';
import { listMemories } from '../../src/modules/memories/repository.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { rowsRead } from '../helpers/explain.js';

// D186's tags indexes also serve the lists: a page of the dialogues or memories holding a rare
// tag reads the rows that hold it, not the project's in list order until the page is full. Here
// 5 rows of 5,000 hold the tag, spread over the whole list: without the index a page read them all.

const PROJECT = 'prj_tag_list';
const ROWS = 5000;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${PROJECT}, 'tag list')`);
  // Every thousandth row holds `rare`; every row holds one of ten common tags.
  const spread = sql`now() - interval '1 year' + g * interval '1 minute'`;
  const tags = sql`CASE WHEN g % 1000 = 0 THEN ARRAY['rare', 'common-' || (g % 10)] ELSE ARRAY['common-' || (g % 10)] END`;
  await db.execute(sql`
    INSERT INTO dialogues (project_id, id, tags, created, modified)
    SELECT ${PROJECT}, 'dlg_' || g, ${tags}, ${spread}, ${spread}
    FROM generate_series(1, ${ROWS}::int) AS g`);
  await db.execute(sql`
    INSERT INTO memories (project_id, id, value, tags, created, modified)
    SELECT ${PROJECT}, 'mem_' || g, 'likes tea', ${tags}, ${spread}, ${spread}
    FROM generate_series(1, ${ROWS}::int) AS g`);
  await db.execute(sql`ANALYZE`);
});
afterAll(async () => {
  await database?.close();
});

describe('a list by a rare tag (D186)', () => {
  for (const order of ['desc', 'asc'] as const) {
    it(`reads the dialogues holding it only, ${order}`, async () => {
      const { db } = database.handle;
      const page = listDialogues(db, PROJECT, {
        threadsOnly: false,
        tags: ['rare'],
        ttlSeconds: null,
        order,
        limit: 21,
      });
      const { read, plan } = await rowsRead(db, page.getSQL(), 'dialogues');
      expect(read, plan).toBeLessThanOrEqual(5);
      expect((await page).map((row) => row.id).sort()).toEqual([
        'dlg_1000',
        'dlg_2000',
        'dlg_3000',
        'dlg_4000',
        'dlg_5000',
      ]);
    });

    it(`reads the memories holding it only, ${order}`, async () => {
      const { db } = database.handle;
      const page = listMemories(db, PROJECT, { tags: ['rare'], order, limit: 21 });
      const { read, plan } = await rowsRead(db, page.getSQL(), 'memories');
      expect(read, plan).toBeLessThanOrEqual(5);
      expect((await page).map((row) => row.id).sort()).toEqual([
        'mem_1000',
        'mem_2000',
        'mem_3000',
        'mem_4000',
        'mem_5000',
      ]);
    });
  }
});
